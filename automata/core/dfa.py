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
from automata.jit._jit import kernel
from automata.jit.arrays import BoolArray, IntArray


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
    and reaching acceptance), one walk over the table (:func:`_live_cycle`)."""
    return bool(
        _live_cycle(
            np.ascontiguousarray(dfa.transitions, dtype=np.int32),
            np.ascontiguousarray(dfa.accepting, dtype=np.bool_),
            dfa.start,
        )
    )


@kernel
def _live_cycle(transitions: IntArray, accepting: BoolArray, start: int) -> bool:
    """Whether a cycle runs through a state reachable from ``start`` that reaches acceptance:
    Tarjan's strongly connected components, iteratively, from ``start``. A component is complete
    only after every component it reaches, so whether it reaches acceptance is known then (an
    accepting member, or an edge to a complete component that does); a live component with two
    members or a loop holds the cycle. Linear in the table: the listing of a hundred log lines
    (65,000 states) took 3 s as Python sets."""
    n, width = transitions.shape
    index = np.empty(n, dtype=np.int64)
    low = np.empty(n, dtype=np.int64)
    for s in range(n):  # loops: numba compiles ``np.full`` slowly
        index[s] = -1
    on_stack = np.zeros(n, dtype=np.bool_)
    done = np.zeros(n, dtype=np.bool_)
    live = np.zeros(n, dtype=np.bool_)
    members = np.empty(n, dtype=np.int64)  # Tarjan's stack
    path = np.empty(n, dtype=np.int64)  # the walk's stack: a state and its next symbol
    symbol = np.empty(n, dtype=np.int64)
    index[start] = low[start] = 0
    members[0] = path[0] = start
    on_stack[start] = True
    symbol[0] = 0
    count, n_members, depth = 1, 1, 1
    while depth:
        state = path[depth - 1]
        c = symbol[depth - 1]
        if c < width:
            symbol[depth - 1] = c + 1
            target = transitions[state, c]
            if target < 0:
                continue
            if index[target] < 0:
                index[target] = low[target] = count
                count += 1
                members[n_members] = target
                n_members += 1
                on_stack[target] = True
                path[depth] = target
                symbol[depth] = 0
                depth += 1
            elif on_stack[target] and index[target] < low[state]:
                low[state] = index[target]
            continue
        depth -= 1
        if depth and low[state] < low[path[depth - 1]]:
            low[path[depth - 1]] = low[state]
        if low[state] != index[state]:
            continue
        first = n_members - 1
        while members[first] != state:
            first -= 1
        reaches, loops = False, n_members - first > 1
        for m in range(first, n_members):
            member = members[m]
            reaches = reaches or accepting[member]
            for k in range(width):
                target = transitions[member, k]
                if target == member:
                    loops = True
                elif target >= 0 and done[target] and live[target]:
                    reaches = True
        if reaches and loops:
            return True
        for m in range(first, n_members):
            member = members[m]
            on_stack[member] = False
            done[member] = True
            live[member] = reaches
        n_members = first
    return False


def _read_only(*arrays: IntArray | BoolArray) -> None:
    # A DFA is a value shared by caches, teachers and learners: a write into its table would
    # change every holder's language at once, so numpy refuses writes from here on.
    for array in arrays:
        array.flags.writeable = False
