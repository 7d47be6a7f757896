"""numba kernels behind counting and sampling: exact dynamic programs over a DFA's table.

Counting the strings of each length a DFA accepts is a matrix power in disguise: the number of
accepted strings of length ``r`` from state ``s`` is ``sum_k size[k] * table[r-1, delta(s, k)]``.
Those numbers outgrow every machine integer (``|universe| ** r``; over Unicode 2**64 is passed at
length 4), and float64 would round them. So :func:`completion_table` computes with multi-digit
integers: each count is a little-endian array of base-2**32 digits held in int64, and the only
operation the recurrence needs, "add a class size times a big number", is a digit-by-digit
multiply-add with a carry. A class size is below 2**21 (the code-point range), so every
intermediate value stays below 2**54 and int64 never overflows. The caller sizes the digit arrays from the bound
``|universe| ** max_len`` and turns the digits into Python ``int``s only for the counts it reads.

:func:`unrank` turns indices into strings (see :mod:`automata.strings.sampling`) once the counts left fit
int64 (every block it compares is at most the count of its row, so nothing overflows). The
backward reachability every consumer of counts needs is plain Python
(:func:`automata.core.dfa.coreachable_states`): it is linear, and it runs before any kernel is needed.

Kernels take and return plain numpy arrays and carry no explicit signatures, so importing this
module compiles nothing; the first call compiles (and caches on disk, see :mod:`automata.jit._jit`).
"""

from __future__ import annotations

import math

import numpy as np

from automata.jit._jit import kernel
from automata.jit.arrays import BoolArray, FloatArray, Int64Array, IntArray
from automata.strings._shortest_kernel import live_states

DIGIT_BITS = 32
_DIGIT_MASK = (1 << DIGIT_BITS) - 1


@kernel
def completion_table(
    transitions: IntArray,
    sizes: Int64Array,
    accepting: BoolArray,
    max_len: int,
    n_digits: int,
) -> Int64Array:
    """``table[r, s]``: the base-2**32 digits of the number of strings of length ``r`` accepted
    from state ``s`` (``n_digits`` must hold the largest count)."""
    n_states, n_classes = transitions.shape
    table = np.zeros((max_len + 1, n_states, n_digits), dtype=np.int64)
    used = np.zeros((max_len + 1, n_states), dtype=np.int64)  # digits in use: the rest are zero
    for s in range(n_states):
        if accepting[s]:
            table[0, s, 0] = 1
            used[0, s] = 1
    for r in range(1, max_len + 1):
        for s in range(n_states):
            total = table[r, s]
            top = 0
            for k in range(n_classes):
                target = transitions[s, k]
                digits = used[r - 1, target]
                if digits == 0:
                    continue
                size = sizes[k]
                source = table[r - 1, target]
                carry = 0
                i = 0
                while i < digits or carry:
                    value = total[i] + size * source[i] + carry if i < digits else total[i] + carry
                    total[i] = value & _DIGIT_MASK
                    carry = value >> DIGIT_BITS
                    i += 1
                top = max(top, i)
            while top > 0 and total[top - 1] == 0:
                top -= 1
            used[r, s] = top
    return table


def _scaled_work(
    transitions: IntArray, sizes: Int64Array, accepting: BoolArray, start: int, max_len: int
) -> int:
    return int(transitions.size) * (max_len + 1)


@kernel(size=_scaled_work)
def scaled_counts(
    transitions: IntArray, sizes: Int64Array, accepting: BoolArray, start: int, max_len: int
) -> tuple[FloatArray, BoolArray]:
    """The log2 of the number of strings of each length ``0..max_len`` accepted from ``start``,
    and whether there is any: the recurrence of :func:`completion_table` in floats, scaled to the
    largest count at every length. A state's edges to states that reach acceptance are grouped by
    target, in the order of their first class, so that isomorphic automata get the same bits and
    a step costs the edges that lead somewhere (a template's chain: one or two a state), not the
    table."""
    n_states, n_classes = transitions.shape
    live = live_states(transitions, accepting)
    bounds = np.zeros(n_states + 1, dtype=np.int64)
    targets = np.empty(n_states * n_classes, dtype=np.int64)
    widths = np.zeros(n_states * n_classes, dtype=np.float64)
    n_edges = 0
    for s in range(n_states):
        first = n_edges
        if live[s]:
            for k in range(n_classes):
                target = transitions[s, k]
                if not live[target]:
                    continue
                g = first
                while g < n_edges and targets[g] != target:
                    g += 1
                if g == n_edges:
                    targets[g] = target
                    n_edges += 1
                widths[g] += sizes[k]
        bounds[s + 1] = n_edges
    weights = np.zeros(n_states, dtype=np.float64)
    reach = np.zeros(n_states, dtype=np.bool_)
    for s in range(n_states):
        if accepting[s]:
            weights[s] = 1.0
            reach[s] = True
    following = np.zeros(n_states, dtype=np.float64)
    reach_following = np.zeros(n_states, dtype=np.bool_)
    logs = np.empty(max_len + 1, dtype=np.float64)
    reached = np.empty(max_len + 1, dtype=np.bool_)
    scale = 0.0
    for length in range(max_len + 1):
        if length:
            top = 0.0
            for s in range(n_states):
                total = 0.0
                any_reach = False
                for g in range(bounds[s], bounds[s + 1]):
                    total += widths[g] * weights[targets[g]]
                    any_reach = any_reach or reach[targets[g]]
                following[s] = total
                reach_following[s] = any_reach
                top = max(top, total)
            weights, following = following, weights
            reach, reach_following = reach_following, reach
            if top > 0.0:
                for s in range(n_states):
                    weights[s] /= top
                scale += math.log2(top)
        here = weights[start]
        logs[length] = (math.log2(here) if here > 0.0 else -1074.0) + scale
        reached[length] = reach[start]
    return logs, reached


@kernel
def unrank(
    group_bounds: Int64Array,
    group_target: Int64Array,
    group_size: Int64Array,
    interval_bounds: Int64Array,
    interval_start: Int64Array,
    interval_offset: Int64Array,
    table: Int64Array,
    starts: Int64Array,
    lengths: Int64Array,
    indices: Int64Array,
) -> IntArray:
    """The code points of the ``indices[j]``-th string of ``lengths[j]`` accepted from state
    ``starts[j]``, for every ``j``, concatenated.

    The edge groups of state ``s`` are ``group_bounds[s]..group_bounds[s+1]``; the characters of
    group ``g`` are the intervals ``interval_bounds[g]..interval_bounds[g+1]``, each a first code
    point and the number of the group's characters before it. ``table`` must fit in int64.
    """
    codes = np.empty(lengths.sum(), dtype=np.int32)
    pos = 0
    for j in range(lengths.size):
        state = starts[j]
        index = indices[j]
        for remaining in range(lengths[j], 0, -1):
            for g in range(group_bounds[state], group_bounds[state + 1]):
                tail = table[remaining - 1, group_target[g]]
                block = group_size[g] * tail
                if index < block:
                    within = index // tail
                    index -= within * tail
                    lo, hi = interval_bounds[g], interval_bounds[g + 1] - 1
                    while lo < hi:  # the last interval starting at or before ``within``
                        mid = (lo + hi + 1) // 2
                        if interval_offset[mid] <= within:
                            lo = mid
                        else:
                            hi = mid - 1
                    codes[pos] = interval_start[lo] + within - interval_offset[lo]
                    pos += 1
                    state = group_target[g]
                    break
                index -= block
    return codes
