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

from automata.core.components import cyclic, strongly_connected
from automata.core.dfa import DFA, coreachable_states


def unpumped_loops(dfa: DFA, positives: Sequence[str]) -> int:
    """How many loops of ``dfa`` the ``positives`` (strings it accepts) do not pump."""
    rows = dfa.transitions.tolist()
    alive = coreachable_states(rows, dfa.accepting.tolist())
    targets = [list(dict.fromkeys(row)) for row in rows]  # a state's edges, each target once
    component = [c if alive[i] else -1 for i, c in enumerate(_loops(targets))]
    unpumped = {c for c in component if c >= 0}
    for string in positives:
        if not unpumped:
            break
        for loop, count in _rounds(
            rows, component, dfa.start, dfa.alphabet.encode(string).tolist()
        ).items():
            if count >= 2:
                unpumped.discard(loop)
    return len(unpumped)


def _loops(rows: list[list[int]]) -> list[int]:
    """For each state (``rows``: each state's targets), the smallest state of its strongly
    connected component when that holds a cycle (a non-empty path back to itself), else -1."""
    labels = strongly_connected(rows)
    looping = cyclic(labels, rows)
    smallest: dict[int, int] = {}
    for state, label in enumerate(labels):
        if label in looping:
            smallest.setdefault(label, state)  # states in increasing order: the first is smallest
    return [smallest.get(label, -1) for label in labels]


def _rounds(
    rows: list[list[int]], component: list[int], start: int, symbols: list[int]
) -> dict[int, int]:
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
        following = rows[state][symbol]
        if component[following] != loop:
            stay = set()
        state = following
    return rounds
