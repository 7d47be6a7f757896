"""Hopcroft minimization, with a canonical numbering of the result.

The kernel is the O(m log n) partition refinement of Valmari and Lehtinen ("Efficient minimization
of DFAs with partial transition functions", STACS 2008; "Fast brief practical DFA minimization",
IPL 2012): Hopcroft's algorithm where the transitions themselves are partitioned too ("cords":
transitions with the same label into the same block), which replaces Hopcroft's splitter queue by
two refinable partitions that touch only the transitions they split. Everything is flat integer
arrays, which is what makes it a good numba kernel.

The algorithm first trims the automaton to its *live* states (reachable from the start and able
to reach acceptance), so unreachable states and every dead state vanish before refinement, and
missing transitions (``-1`` in the table, a partial DFA) need no special case. The result is
numbered canonically: breadth-first from the start, classes in index order, with the single dead
state (if the language needs one) last. Equal languages over the same alphabet therefore give
identical arrays, and the number of live states is the size the literature reports.

Small tables (at most :data:`SMALL_TABLE` cells) go to :func:`automata.core._small_kernels.minimal_table`
instead: Moore's round-based refinement, which at a handful of states costs less than this
kernel's array set-up, followed by the same canonical numbering, so both return identical arrays.
The small-regex compiler (:mod:`automata.building.positions`) minimizes inside its own kernel with the same
Moore refinement.

A future optimiser could skip the kernel for automata already known to be minimal (products of
minimal DFAs are not, so every operation currently re-minimizes), or minimize during the subset
construction for acyclic automata.
"""

from __future__ import annotations

import numpy as np

from automata.core._small_kernels import minimal_table
from automata.core.dfa import DFA, minimal
from automata.jit._jit import kernel
from automata.jit.arrays import BoolArray, IntArray

#: Tables with at most this many cells (states × classes) go to the small Moore kernel.
SMALL_TABLE = 1024


def minimize(dfa: DFA) -> DFA:
    """The canonical minimal complete DFA of ``dfa``'s language.

    Accepts tables with unreachable states, several dead states, or ``-1`` for a missing
    transition (a partial DFA).
    """
    transitions = np.ascontiguousarray(dfa.transitions, dtype=np.int32)
    accepting = np.ascontiguousarray(dfa.accepting, dtype=np.bool_)
    if transitions.size <= SMALL_TABLE:
        table, final = minimal_table(transitions, accepting, dfa.start)
    else:
        table, final = _minimize(transitions, accepting, dfa.start)
    return minimal(table, final, dfa.alphabet)


@kernel
def _reach(elems: IntArray, loc: IntArray, state: int, reached: int) -> int:
    i = loc[state]
    if i >= reached:
        elems[i] = elems[reached]
        loc[elems[i]] = i
        elems[reached] = state
        loc[state] = reached
        reached += 1
    return reached


@kernel
def _adjacency(
    key: IntArray, n_trans: int, n_states: int, adjacent: IntArray, offsets: IntArray
) -> None:
    """``adjacent[offsets[q]:offsets[q+1]]``: the transitions whose ``key`` end is ``q``."""
    for q in range(n_states + 1):
        offsets[q] = 0
    for t in range(n_trans):
        offsets[key[t]] += 1
    for q in range(n_states):
        offsets[q + 1] += offsets[q]
    for t in range(n_trans - 1, -1, -1):
        offsets[key[t]] -= 1
        adjacent[offsets[key[t]]] = t


@kernel
def _trim(
    tail: IntArray,
    head: IntArray,
    label: IntArray,
    n_trans: int,
    n_states: int,
    elems: IntArray,
    loc: IntArray,
    adjacent: IntArray,
    offsets: IntArray,
    reached: int,
) -> tuple[int, int]:
    """Close ``elems[:reached]`` under ``tail → head`` and drop transitions whose tail is outside."""
    _adjacency(tail, n_trans, n_states, adjacent, offsets)
    i = 0
    while i < reached:
        q = elems[i]
        for j in range(offsets[q], offsets[q + 1]):
            reached = _reach(elems, loc, head[adjacent[j]], reached)
        i += 1
    kept = 0
    for t in range(n_trans):
        if loc[tail[t]] < reached:
            head[kept] = head[t]
            label[kept] = label[t]
            tail[kept] = tail[t]
            kept += 1
    return kept, reached


@kernel
def _mark(
    elems: IntArray,
    loc: IntArray,
    sets: IntArray,
    first: IntArray,
    marked: IntArray,
    touched: IntArray,
    n_touched: int,
    e: int,
) -> int:
    s = sets[e]
    i = loc[e]
    j = first[s] + marked[s]
    elems[i] = elems[j]
    loc[elems[i]] = i
    elems[j] = e
    loc[e] = j
    if marked[s] == 0:
        touched[n_touched] = s
        n_touched += 1
    marked[s] += 1
    return n_touched


@kernel
def _split(
    elems: IntArray,
    sets: IntArray,
    first: IntArray,
    past: IntArray,
    marked: IntArray,
    touched: IntArray,
    n_touched: int,
    n_sets: int,
) -> int:
    """Split every touched set into its marked and unmarked parts; the smaller gets a new index."""
    while n_touched > 0:
        n_touched -= 1
        s = touched[n_touched]
        j = first[s] + marked[s]
        if j == past[s]:
            marked[s] = 0
            continue
        if marked[s] <= past[s] - j:
            first[n_sets] = first[s]
            past[n_sets] = j
            first[s] = j
        else:
            past[n_sets] = past[s]
            first[n_sets] = j
            past[s] = j
        for i in range(first[n_sets], past[n_sets]):
            sets[elems[i]] = n_sets
        marked[s] = 0
        marked[n_sets] = 0
        n_sets += 1
    return n_sets


@kernel
def _minimize(
    transitions: IntArray, accepting: BoolArray, start: int
) -> tuple[IntArray, BoolArray]:
    n, k = transitions.shape
    tail = np.empty(n * k, dtype=np.int32)
    label = np.empty(n * k, dtype=np.int32)
    head = np.empty(n * k, dtype=np.int32)
    m = 0
    for q in range(n):
        for c in range(k):
            if transitions[q, c] >= 0:
                tail[m], label[m], head[m] = q, c, transitions[q, c]
                m += 1

    # Blocks: a refinable partition of the states.
    b_elems = np.empty(n, dtype=np.int32)
    b_loc = np.empty(n, dtype=np.int32)
    for q in range(n):
        b_elems[q] = q
        b_loc[q] = q
    b_sets = np.zeros(n, dtype=np.int32)
    b_first = np.zeros(n + 1, dtype=np.int32)
    b_past = np.zeros(n + 1, dtype=np.int32)
    marked = np.zeros(max(n, m) + 1, dtype=np.int32)
    touched = np.zeros(max(n, m) + 1, dtype=np.int32)
    adjacent = np.empty(m, dtype=np.int32)
    offsets = np.zeros(n + 1, dtype=np.int32)

    m, reachable = _trim(
        tail, head, label, m, n, b_elems, b_loc, adjacent, offsets, _reach(b_elems, b_loc, start, 0)
    )
    n_final = 0
    for q in range(n):
        if accepting[q] and b_loc[q] < reachable:
            n_final = _reach(b_elems, b_loc, q, n_final)
    m, n_live = _trim(head, tail, label, m, n, b_elems, b_loc, adjacent, offsets, n_final)
    if n_live == 0 or b_loc[start] >= n_live:
        return np.zeros((1, k), dtype=np.int32), np.zeros(1, dtype=np.bool_)
    live = np.zeros(n, dtype=np.bool_)
    for i in range(n_live):
        live[b_elems[i]] = True
    b_past[0] = n_live
    n_blocks = 1
    marked[0] = n_final  # the final states sit first in block 0: split them off
    touched[0] = 0
    n_blocks = _split(b_elems, b_sets, b_first, b_past, marked, touched, 1, n_blocks)

    # Cords: a refinable partition of the transitions, first by label.
    c_elems = _by_label(label, m, k)
    c_loc = np.empty(m, dtype=np.int32)
    c_sets = np.empty(m, dtype=np.int32)
    c_first = np.zeros(m + 1, dtype=np.int32)
    c_past = np.zeros(m + 1, dtype=np.int32)
    n_cords = 0
    for i in range(m):
        t = c_elems[i]
        if i > 0 and label[t] != label[c_elems[i - 1]]:
            c_past[n_cords] = i
            n_cords += 1
            c_first[n_cords] = i
        c_sets[t] = n_cords
        c_loc[t] = i
    if m > 0:
        c_past[n_cords] = m
        n_cords += 1

    _adjacency(head, m, n, adjacent, offsets)
    block, cord = 1, 0
    while cord < n_cords:
        n_touched = 0
        for i in range(c_first[cord], c_past[cord]):
            n_touched = _mark(
                b_elems, b_loc, b_sets, b_first, marked, touched, n_touched, tail[c_elems[i]]
            )
        n_blocks = _split(b_elems, b_sets, b_first, b_past, marked, touched, n_touched, n_blocks)
        cord += 1
        while block < n_blocks:
            n_touched = 0
            for i in range(b_first[block], b_past[block]):
                q = b_elems[i]
                for j in range(offsets[q], offsets[q + 1]):
                    n_touched = _mark(
                        c_elems, c_loc, c_sets, c_first, marked, touched, n_touched, adjacent[j]
                    )
            n_cords = _split(c_elems, c_sets, c_first, c_past, marked, touched, n_touched, n_cords)
            block += 1

    return _canonical(transitions, accepting, start, live, b_elems, b_sets, b_first, n_blocks)


@kernel
def _by_label(label: IntArray, m: int, k: int) -> IntArray:
    """The transitions ``0..m-1`` stably sorted by label (a counting sort: labels are below ``k``)."""
    starts = np.zeros(k + 1, dtype=np.int32)
    for t in range(m):
        starts[label[t] + 1] += 1
    for c in range(k):
        starts[c + 1] += starts[c]
    order = np.empty(m, dtype=np.int32)
    for t in range(m):
        order[starts[label[t]]] = t
        starts[label[t]] += 1
    return order


@kernel
def _canonical(
    transitions: IntArray,
    accepting: BoolArray,
    start: int,
    live: BoolArray,
    b_elems: IntArray,
    b_sets: IntArray,
    b_first: IntArray,
    n_blocks: int,
) -> tuple[IntArray, BoolArray]:
    """Number blocks breadth-first from the start block; the dead state, if needed, comes last."""
    k = transitions.shape[1]
    number = np.empty(n_blocks, dtype=np.int32)
    for b in range(n_blocks):
        number[b] = -1
    order = np.empty(n_blocks, dtype=np.int32)
    number[b_sets[start]] = 0
    order[0] = b_sets[start]
    found, head = 1, 0
    needs_dead = False
    while head < found:
        q = b_elems[b_first[order[head]]]
        head += 1
        for c in range(k):
            t = transitions[q, c]
            if t >= 0 and live[t]:
                if number[b_sets[t]] < 0:
                    number[b_sets[t]] = found
                    order[found] = b_sets[t]
                    found += 1
            else:
                needs_dead = True
    size = n_blocks + 1 if needs_dead else n_blocks
    result = np.empty((size, k), dtype=np.int32)
    for i in range(size):
        for c in range(k):
            result[i, c] = n_blocks
    result_accepting = np.zeros(size, dtype=np.bool_)
    for i in range(n_blocks):
        q = b_elems[b_first[order[i]]]
        result_accepting[i] = accepting[q]
        for c in range(k):
            t = transitions[q, c]
            if t >= 0 and live[t]:
                result[i, c] = number[b_sets[t]]
    return result, result_accepting
