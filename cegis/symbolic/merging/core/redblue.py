"""Red-blue state merging over a prefix tree: RPNI and evidence-driven (EDSM) merge orders.

The blue-fringe framework (Lang, Pearlmutter & Price 1998): ``rpni`` (Oncina & García 1992) merges
the first blue state into the first red one that accepts it; ``edsm`` takes the merge with the most
evidence. With ``sinks`` a blue state that reaches no accepting state becomes the rejecting sink,
so merges over negatives alone do not build loops the data never asked for (``[A-Za-z]{6}``)."""

from __future__ import annotations

from typing import Literal

import attrs
import numpy as np

from automata.core.alphabet import Alphabet
from automata.core.dfa import DFA
from automata.jit.arrays import Int64Array
from cegis.symbolic.merging.core import _redblue_kernels
from cegis.symbolic.merging.core.quotient import ACCEPT, UNKNOWN, Quotient

Strategy = Literal["rpni", "edsm"]


@attrs.frozen
class MergeOrder:
    """How red-blue merging picks its merges, and when it gives up."""

    strategy: Strategy = "edsm"
    sinks: bool = True
    max_states: int = 64
    unlabeled_accept: bool = False  # red states no example ends in accept (else they reject)

    @property
    def name(self) -> str:
        """E.g. ``edsm+sinks`` or ``rpni+accepting``."""
        return self.strategy + "+sinks" * self.sinks + "+accepting" * self.unlabeled_accept


def red_blue(tree: Quotient, order: MergeOrder) -> list[int] | None:
    """Merge ``tree`` in place (undoable from a checkpoint taken before); the red states (start
    first), or ``None`` past ``order.max_states``."""
    red = _redblue_kernels.red_blue(
        tree.arrays, order.strategy == "edsm", order.sinks, order.max_states
    )
    return [int(r) for r in red] if len(red) else None


def blue_states(tree: Quotient, red: list[int], sinks: bool) -> list[int]:
    """The blue states in breadth-first order; with ``sinks``, those from which acceptance is
    reachable (the others are rejecting sinks)."""
    positive = np.zeros(len(tree.parent), dtype=np.int8)
    sink = np.zeros(len(tree.parent), dtype=np.bool_)
    owner = np.full(len(tree.parent), -1, dtype=np.int64)
    reds = np.array(red, dtype=np.int64)
    return [
        int(b)
        for b in _redblue_kernels.blue_states(tree.arrays, reds, sinks, positive, sink, owner)
    ]


def table(
    tree: Quotient,
    red: list[int],
    alphabet: Alphabet,
    similar: Int64Array | None = None,
    unlabeled_accept: bool = False,
) -> DFA:
    """The DFA of the red states; every other successor (a sink) rejects. A symbol no example reads
    from a state goes where the first symbol of row ``similar[symbol]`` (the classes it shares
    clustered positions with, -1 padded) read there goes, else to the rejecting sink."""
    dead = len(red)
    transitions = np.full((dead + 1, len(alphabet)), dead, dtype=np.int32)
    reds = np.array(red, dtype=np.int64)
    rows = (
        np.zeros((0, 0), dtype=np.int64) if similar is None else np.ascontiguousarray(similar)
    )  # one signature
    _redblue_kernels.red_table(tree.arrays, reds, rows, transitions)
    accepting = np.zeros(dead + 1, dtype=np.bool_)
    labels = tree.label[reds]
    accepting[:dead] = (labels == ACCEPT) | ((labels == UNKNOWN) & unlabeled_accept)
    return DFA(transitions, accepting, 0, alphabet)
