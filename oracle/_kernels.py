"""The numba kernel behind :mod:`oracle.clustered`: the states a DFA reaches on many examples at once.

A learner checks every candidate against every example it holds (hundreds of clustered examples of
tens of positions each, for each of hundreds of candidates); walked one example at a time in Python
with sets of states this was a twelfth of the slowest learner runs. Here the examples come packed
into flat arrays and one call walks them all, each with its set of states as a list (to read) and
stamps (to deduplicate), so a step costs the states it reaches, not the automaton's size.
"""

from __future__ import annotations

import numpy as np

from automata.jit._jit import kernel
from automata.jit.arrays import BoolArray, Int64Array, IntArray


def _work(
    transitions: IntArray,
    start: int,
    members: Int64Array,
    member_ends: Int64Array,
    outside: BoolArray,
    codes: Int64Array,
    *bounds: Int64Array,
) -> int:
    """The steps of a call at most: every position read from every state (see :mod:`automata.jit._jit`)."""
    return int(codes.shape[0]) * int(transitions.shape[0]) + int(members.shape[0])


@kernel(size=_work)
def walk(
    transitions: IntArray,
    start: int,
    members: Int64Array,
    member_ends: Int64Array,
    outside: BoolArray,
    codes: Int64Array,
    starts: Int64Array,
    ends: Int64Array,
) -> tuple[BoolArray, BoolArray]:
    """For each example, the states the DFA ``transitions`` reaches from ``start`` on its strings,
    and whether some of its strings leave the universe.

    Example ``e`` reads the positions ``codes[starts[e]:ends[e]]``; position code ``g`` stands for
    the classes ``members[member_ends[g-1]:member_ends[g]]`` (0 first) and ``outside[g]`` says
    whether some of its characters are outside the universe. A position without classes leaves the
    universe with every string: the example then reaches no state. Returns ``reached[e, state]``
    and ``leaves[e]``.
    """
    n = transitions.shape[0]
    m = ends.shape[0]
    reached = np.zeros((m, n), dtype=np.bool_)
    leaves = np.zeros(m, dtype=np.bool_)
    states = np.empty(n, dtype=np.int64)
    following = np.empty(n, dtype=np.int64)
    stamps = np.zeros(
        n, dtype=np.int64
    )  # the step that last reached each state (steps count from 1)
    step = 0
    for e in range(m):
        states[0] = start
        count = 1
        leaving = False
        for p in range(starts[e], ends[e]):
            code = codes[p]
            leaving = leaving or outside[code]
            first = member_ends[code - 1] if code > 0 else 0
            last = member_ends[code]
            if first == last:  # its characters are all outside the universe (``outside[code]``)
                count = 0
                break
            step += 1
            found = 0
            for i in range(count):
                state = states[i]
                for j in range(first, last):
                    target = transitions[state, members[j]]
                    if stamps[target] != step:
                        stamps[target] = step
                        following[found] = target
                        found += 1
            states, following = following, states
            count = found
        for i in range(count):
            reached[e, states[i]] = True
        leaves[e] = leaving
    return reached, leaves
