"""Whether the positive examples ask for a hypothesis's loops.

A loop of a DFA (a strongly connected component with a cycle, from which acceptance is reachable)
generalizes: it accepts strings that go round it any number of times. A positive example *pumps* a
loop when it goes round it at least twice (``aab`` pumps the loop of ``a*b``); positives that go
round once or not at all (``b`` and ``ab``) show an optional part, not a repetition, and a loop no
positive pumps is a generalization no example asked for. A single word such as ``accbc`` is
accepted by many small DFAs with such loops (``a c c (b c)*``), and sparse negatives refute them
one at a time; preferring hypotheses whose loops are all pumped makes the learner propose the
finite language of its positives until they show a repetition.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from automata.arrays import IntArray
from automata.dfa import DFA, coreachable


def unpumped_loops(dfa: DFA, positives: Sequence[str]) -> int:
    """How many loops of ``dfa`` the ``positives`` (strings it accepts) do not pump."""
    rows = dfa.transitions
    n = dfa.n_states
    reach = np.zeros((n, n), dtype=bool)
    reach[np.repeat(np.arange(n), rows.shape[1]), rows.ravel()] = True
    for k in range(n):  # transitive closure: reach[i, j] when a non-empty path leads from i to j
        reach |= reach[:, k : k + 1] & reach[k : k + 1, :]
    looping = np.diagonal(reach) & coreachable(dfa)
    component = [int(np.argmax(reach[i] & reach[:, i])) if looping[i] else -1 for i in range(n)]
    rounds: dict[int, set[int]] = {c: set() for c in component if c >= 0}
    for string in positives:
        for loop, count in _rounds(rows, component, dfa.start, dfa.alphabet.encode(string).tolist()).items():
            rounds[loop].add(count)
    return sum(max(counts, default=0) < 2 for counts in rounds.values())


def _rounds(rows: IntArray, component: list[int], start: int, symbols: list[int]) -> dict[int, int]:
    """For each loop the run of ``symbols`` enters, how many times it goes round (comes back to a
    state of its stay there). A run leaves a loop at most once: it cannot come back."""
    rounds: dict[int, int] = {}
    stay: set[int] = set()
    state = start
    for symbol in [*symbols, None]:
        loop = component[state]
        if loop >= 0:
            if state in stay:
                rounds[loop] += 1
                stay = set()
            rounds.setdefault(loop, 0)
            stay.add(state)
        if symbol is None:
            break
        following = int(rows[state, symbol])
        if component[following] != loop:
            stay = set()
        state = following
    return rounds
