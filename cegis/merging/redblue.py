"""Red-blue state merging over a prefix tree: RPNI and evidence-driven (EDSM) merge orders.

The blue-fringe framework (Lang, Pearlmutter & Price, "Results of the Abbadingo One DFA Learning
Competition", 1998): *red* states are final states of the hypothesis, *blue* states are the
non-red successors of red ones. Each step either merges a blue state into a red one, when that
keeps every example's label, or promotes it to red. Two orders:

* ``rpni`` (Oncina & García 1992): the first blue state in breadth-first order, merged into the
  first red state that accepts it. Identifies every regular language in the limit from a
  characteristic sample, and is cheap.
* ``edsm``: every red/blue pair is tried and the merge with the most *evidence* (pairs of equally
  labeled states merged) is taken; a blue state that merges with no red state is promoted at once.
  Far better from sparse data, at the cost of trying every pair at every step.

With ``sinks`` a blue state from which no accepting state is reachable is not merged at all but
becomes the rejecting sink. Without that rule, merging states that only negative strings reach
over-generalizes finite targets (``AEIOU``, ``[A-Za-z]{6}``): the merge is consistent, yet it
builds loops the data never asked for.

The result is the red states' table, with symbols no example reads from a state leading to the
rejecting sink, so the language stays as small as the data allows.
"""

from __future__ import annotations

from typing import Literal

import attrs
import numpy as np

from automata.alphabet import Alphabet
from automata.dfa import DFA
from cegis.merging.quotient import ACCEPT, Quotient

Strategy = Literal["rpni", "edsm"]


@attrs.frozen
class MergeOrder:
    """How red-blue merging picks its merges, and when it gives up."""

    strategy: Strategy = "edsm"
    sinks: bool = True
    max_states: int = 64


def red_blue(tree: Quotient, order: MergeOrder) -> list[int] | None:
    """Merge ``tree`` in place (undoable from a checkpoint taken before); the red states (start
    first), or ``None`` past ``order.max_states``."""
    red = [tree.find(0)]
    positive: set[int] = set()  # states known to reach acceptance (merging only ever adds paths)
    while True:
        red = list(dict.fromkeys(tree.find(r) for r in red))
        blues = _blues(tree, red)
        if order.sinks:
            blues = [b for b in blues if _reaches_acceptance(tree, b, positive)]
        if not blues:
            return red
        promoted = _rpni_step(tree, red, blues[0]) if order.strategy == "rpni" else _edsm_step(tree, red, blues)
        if promoted is not None:
            red.append(promoted)
            if len(red) > order.max_states:
                return None


def _blues(tree: Quotient, red: list[int]) -> list[int]:
    reds = set(red)
    found = {tree.find(child) for r in red for child in tree.successors[r].values()} - reds
    return sorted(found, key=lambda s: (tree.depth[s], s))


def _reaches_acceptance(tree: Quotient, state: int, positive: set[int]) -> bool:
    if state in positive:
        return True
    if any(tree.label[s] == ACCEPT for s in tree.reachable(state)):
        positive.add(state)
        return True
    return False


def _rpni_step(tree: Quotient, red: list[int], blue: int) -> int | None:
    """Merge ``blue`` into the first red state that accepts it; else return it for promotion."""
    for state in red:
        mark = tree.checkpoint()
        if tree.merge(state, blue) is not None:
            return None
        tree.undo(mark)
    return blue


def _edsm_step(tree: Quotient, red: list[int], blues: list[int]) -> int | None:
    """Take the best-scoring merge of any blue state; a blue state that no red state accepts is
    returned for promotion first."""
    best: tuple[int, int, int] | None = None
    for blue in blues:
        mergeable = False
        for state in red:
            mark = tree.checkpoint()
            score = tree.merge(state, blue)
            tree.undo(mark)
            if score is not None:
                mergeable = True
                if best is None or score > best[0]:
                    best = (score, state, blue)
        if not mergeable:
            return blue
    assert best is not None
    tree.merge(best[1], best[2])
    return None


def table(tree: Quotient, red: list[int], alphabet: Alphabet) -> DFA:
    """The DFA of the red states; every other successor (a sink) and every unread symbol rejects."""
    index = {state: i for i, state in enumerate(red)}
    dead = len(red)
    transitions = np.full((dead + 1, len(alphabet)), dead, dtype=np.int32)
    for state, i in index.items():
        for symbol, child in tree.successors[state].items():
            transitions[i, symbol] = index.get(tree.find(child), dead)
    accepting = np.zeros(dead + 1, dtype=np.bool_)
    accepting[: len(red)] = [tree.label[state] == ACCEPT for state in red]
    return DFA(transitions, accepting, 0, alphabet)
