"""The dense DFA value every operation in ``automata`` takes and returns.

A DFA is a complete transition table ``int32[n_states, n_classes]`` over an :class:`Alphabet`,
an ``accepting`` bit per state and a start state. Complete means every cell holds a state, so a
rejecting sink ("dead state") is an ordinary row when the language needs one. Characters outside
the alphabet's universe are rejected by :meth:`DFA.accepts`.

``canonical`` records what :func:`automata.core.minimize.minimize` guarantees: the table is the minimal
DFA of its language, numbered canonically. Two canonical DFAs over one alphabet accept the same
language exactly when their arrays are equal, which is what lets :func:`automata.algebra.ops.equivalent`
answer without a product search. Only the minimizers set it, through :func:`minimal` (and
re-indexing onto a finer alphabet, which keeps the numbering); a DFA built by hand is not assumed
canonical.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs
import numpy as np

from automata.core.alphabet import Alphabet
from automata.core.components import table_components
from automata.jit._jit import kernel
from automata.jit.arrays import BoolArray, Int64Array, IntArray


@attrs.frozen(eq=False)
class DFA:
    """A complete deterministic automaton over the classes of ``alphabet``."""

    transitions: IntArray
    accepting: BoolArray
    start: int
    alphabet: Alphabet
    canonical: bool = attrs.field(default=False, kw_only=True)

    def __attrs_post_init__(self) -> None:
        shape = self.transitions.shape  # read once: every DFA built passes here
        n = shape[0]
        if len(shape) != 2 or shape[1] != len(self.alphabet.classes):
            raise ValueError(
                f"transition table shape {shape} does not match {len(self.alphabet)} classes"
            )
        if self.accepting.shape != (n,):
            raise ValueError("one accepting bit per state is required")
        if not 0 <= self.start < n:
            raise ValueError(f"start state {self.start} out of range")
        _read_only(self.transitions, self.accepting)

    @property
    def n_states(self) -> int:
        """Rows of the table, dead state included."""
        return int(self.transitions.shape[0])

    def accepts(self, string: str) -> bool:
        """Whether the DFA accepts ``string``."""
        state = self.start
        for cls in self.alphabet.encode(string):
            if cls < 0:
                return False
            state = int(self.transitions[state, cls])
        return bool(self.accepting[state])


def minimal(transitions: IntArray, accepting: BoolArray, alphabet: Alphabet) -> DFA:
    """The canonical DFA (start state 0) of a minimizer's output arrays.

    The minimizers build those arrays with the right shapes, so this sets the fields directly and
    skips the checks ``DFA(...)`` runs on every hand-built table: for a small regex they were a
    twentieth of the whole compile.
    """
    dfa = object.__new__(DFA)
    object.__setattr__(dfa, "transitions", transitions)
    object.__setattr__(dfa, "accepting", accepting)
    object.__setattr__(dfa, "start", 0)
    object.__setattr__(dfa, "alphabet", alphabet)
    _read_only(transitions, accepting)
    object.__setattr__(dfa, "canonical", True)
    return dfa


def classes_by_target(
    row: Sequence[int], keep: Sequence[bool] | None = None
) -> dict[int, list[int]]:
    """The classes of one table row grouped by the state they lead to (targets in order of their
    first class, classes ascending), only targets ``keep`` marks when it is given.

    One (state, target) group is what a clustered counterexample calls a super-character, what
    state elimination labels an edge with, and what a splice turns into one NFA state.
    """
    grouped: dict[int, list[int]] = {}
    for cls, target in enumerate(row):
        if keep is None or keep[target]:
            group = grouped.get(target)
            if group is None:
                grouped[target] = [cls]
            else:
                group.append(cls)
    return grouped


def coreachable(dfa: DFA) -> BoolArray:
    """States from which some accepting state can be reached (the "live" states)."""
    return np.array(
        coreachable_states(dfa.transitions.tolist(), dfa.accepting.tolist()), dtype=np.bool_
    )


def coreachable_states(rows: Sequence[Sequence[int]], accepting: Sequence[bool]) -> list[bool]:
    """The states of a table (as lists) from which an accepting state can be reached."""
    predecessors: list[list[int]] = [[] for _ in rows]
    for state, row in enumerate(rows):
        for target in set(row):
            predecessors[target].append(state)
    live = list(accepting)
    frontier = [s for s, a in enumerate(accepting) if a]
    while frontier:
        for pred in predecessors[frontier.pop()]:
            if not live[pred]:
                live[pred] = True
                frontier.append(pred)
    return live


def infinite(dfa: DFA) -> bool:
    """Whether ``dfa`` accepts infinitely many strings: a cycle among its live states (reachable
    and reaching acceptance), read from the table's strongly connected components
    (:func:`automata.core.components.table_components`) in one more pass (:func:`_live_cycle`)."""
    table = np.ascontiguousarray(dfa.transitions, dtype=np.int32)
    accepting = np.ascontiguousarray(dfa.accepting, dtype=np.bool_)
    return bool(_live_cycle(table, accepting, dfa.start, table_components(table)))


@kernel
def _live_cycle(
    transitions: IntArray, accepting: BoolArray, start: int, labels: Int64Array
) -> bool:
    """Whether a component of ``labels`` that holds a cycle and reaches acceptance holds a state
    reachable from ``start``. The components, taken in increasing order (an edge never leads to a
    higher one), learn whether they reach acceptance from those they lead to; then a walk from
    ``start`` looks for one. Linear in the table: the listing of a hundred log lines (65,000
    states) took 3 s as Python sets."""
    n, width = transitions.shape
    count = labels.max() + 1  # a DFA has a state: its start
    first = np.zeros(count + 1, dtype=np.int64)  # the states grouped by component (counting sort)
    for s in range(n):
        first[labels[s] + 1] += 1
    for c in range(count):
        first[c + 1] += first[c]
    order = np.empty(n, dtype=np.int64)
    placed = first[:count].copy()
    for s in range(n):
        order[placed[labels[s]]] = s
        placed[labels[s]] += 1
    live = np.zeros(count, dtype=np.bool_)
    loops = np.zeros(count, dtype=np.bool_)
    for c in range(count):
        loops[c] = first[c + 1] - first[c] > 1
        for i in range(first[c], first[c + 1]):
            state = order[i]
            live[c] = live[c] or accepting[state]
            for k in range(width):
                target = transitions[state, k]
                if target == state:
                    loops[c] = True
                elif target >= 0 and live[labels[target]]:
                    live[c] = True
    seen = np.zeros(n, dtype=np.bool_)
    stack = np.empty(n, dtype=np.int64)
    stack[0], seen[start], top = start, True, 1
    while top:
        top -= 1
        state = stack[top]
        if live[labels[state]] and loops[labels[state]]:
            return True
        for k in range(width):
            target = transitions[state, k]
            if target >= 0 and not seen[target]:
                seen[target] = True
                stack[top] = target
                top += 1
    return False


def _read_only(*arrays: IntArray | BoolArray) -> None:
    # A DFA is a value shared by caches, teachers and learners: a write into its table would
    # change every holder's language at once, so numpy refuses writes from here on.
    for array in arrays:
        array.flags.writeable = False
