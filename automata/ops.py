"""The algebra of regular languages on DFAs: boolean operations, decisions, membership.

Binary operations work over the common refinement of the two alphabets: the kernels read each
table through a map from refined class to original column instead of copying it (:func:`align`
materializes the re-indexed DFAs for callers that need them), and explore the *reachable* part of
the product breadth-first. Boolean operations minimize the product, so every DFA
this module returns is canonical (see :mod:`automata.core.minimize`).

Decisions never build the product: :func:`equivalence_witness` and :func:`inclusion_witness` search
it on the fly and stop at the first pair of states that answers the question. Breadth-first order
with classes tried in index order makes the witness the shortest string and, among those, the one
whose class sequence is smallest; classes are numbered by their smallest character, so that is the
lexicographically smallest string of representatives. Complement is relative to the universe:
characters outside it never occur, so flipping the accepting bits of a complete DFA is exact.

Two shortcuts. Canonical DFAs (``DFA.canonical``: everything :func:`minimize` returns) have equal
languages exactly when their arrays are equal over the common alphabet, so :func:`equivalent`
compares arrays and never searches. And small pairs (:func:`automata.algebra._small_pairs.small`) explore
their product in plain Python, the same breadth-first walk as the kernels, because a fresh process
would otherwise compile those kernels before answering its first question about two tiny automata.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Literal

import attrs
import numpy as np

from automata.algebra import _kernels, _small_pairs
from automata.core.alphabet import Alphabet, common_refinement, identity_map
from automata.core.dfa import DFA
from automata.core.minimize import minimize
from automata.errors import DEFAULT_STATE_LIMIT, StateLimitExceeded
from automata.jit.arrays import BoolArray, IntArray

#: Which (left accepts, right accepts) pairs a search looks for.
_SYMMETRIC = ((False, True), (True, False))
_LEFT_ONLY = ((False, False), (True, False))


@attrs.frozen
class Witness:
    """A shortest string on which two automata disagree, and the side that accepts it."""

    string: str
    classes: tuple[int, ...]
    alphabet: Alphabet
    accepted_by: Literal["left", "right"]


def align(left: DFA, right: DFA) -> tuple[DFA, DFA]:
    """Both automata over the common refinement of their alphabets (the same object)."""
    if left.alphabet is right.alphabet:
        return left, right
    alphabet, (left_map, right_map) = common_refinement([left.alphabet, right.alphabet])
    return _reindex(left, alphabet, left_map), _reindex(right, alphabet, right_map)


def _reindex(dfa: DFA, alphabet: Alphabet, columns: IntArray) -> DFA:
    if dfa.alphabet is alphabet:
        return dfa
    transitions = np.ascontiguousarray(dfa.transitions[:, columns])
    return DFA(transitions, dfa.accepting, dfa.start, alphabet, canonical=dfa.canonical)


def _columns(left: DFA, right: DFA) -> tuple[Alphabet, IntArray, IntArray]:
    """The common alphabet and, for each side, the column each of its classes reads: the kernels
    re-index on the fly instead of copying the tables."""
    if left.alphabet is right.alphabet:  # compiled together (the usual case): nothing to refine
        identity = identity_map(len(left.alphabet))
        return left.alphabet, identity, identity
    alphabet, (left_map, right_map) = common_refinement([left.alphabet, right.alphabet])
    return alphabet, left_map, right_map


def complement(dfa: DFA) -> DFA:
    """The strings of the universe that ``dfa`` rejects."""
    return minimize(DFA(dfa.transitions, ~dfa.accepting, dfa.start, dfa.alphabet))


def intersection(left: DFA, right: DFA, *, state_limit: int = DEFAULT_STATE_LIMIT) -> DFA:
    """Strings both accept."""
    return _boolean(left, right, lambda a, b: a & b, "the intersection", state_limit)


def union(left: DFA, right: DFA, *, state_limit: int = DEFAULT_STATE_LIMIT) -> DFA:
    """Strings either accepts."""
    return _boolean(left, right, lambda a, b: a | b, "the union", state_limit)


def difference(left: DFA, right: DFA, *, state_limit: int = DEFAULT_STATE_LIMIT) -> DFA:
    """Strings ``left`` accepts and ``right`` rejects."""
    return _boolean(left, right, lambda a, b: a & ~b, "the difference", state_limit)


def symmetric_difference(left: DFA, right: DFA, *, state_limit: int = DEFAULT_STATE_LIMIT) -> DFA:
    """Strings exactly one of the two accepts."""
    return _boolean(left, right, lambda a, b: a ^ b, "the symmetric difference", state_limit)


def _boolean(
    left: DFA,
    right: DFA,
    combine: Callable[[BoolArray, BoolArray], BoolArray],
    what: str,
    state_limit: int,
) -> DFA:
    alphabet, left_columns, right_columns = _columns(left, right)
    lefts: IntArray | list[int]
    rights: IntArray | list[int]
    if _small_pairs.small(left, right, len(alphabet)):
        rows, left_states, right_states, status = _small_pairs.product(
            left.transitions.tolist(),
            left_columns.tolist(),
            left.start,
            right.transitions.tolist(),
            right_columns.tolist(),
            right.start,
            state_limit,
        )
        table = np.array(rows, dtype=np.int32).reshape(len(rows), len(alphabet))
        lefts, rights = left_states, right_states
    else:
        table, lefts, rights, status = _kernels.product(
            left.transitions,
            left_columns,
            left.start,
            right.transitions,
            right_columns,
            right.start,
            state_limit,
        )
    if status != _kernels.OK:
        raise StateLimitExceeded(f"the product automaton for {what}", state_limit)
    accepting = combine(left.accepting[lefts], right.accepting[rights])
    return minimize(DFA(table, accepting, 0, alphabet))


def equivalence_witness(
    left: DFA, right: DFA, *, state_limit: int = DEFAULT_STATE_LIMIT
) -> Witness | None:
    """A shortest string in exactly one of the two languages, or None when they are equal (for
    canonical DFAs, decided by :func:`equivalent` without a search)."""
    # Canonical DFAs of one language have as many states (over any common alphabet): sizes that
    # differ already say "search", without re-indexing the tables to compare them.
    if (
        left.canonical
        and right.canonical
        and left.n_states == right.n_states
        and equivalent(left, right)
    ):
        return None
    return _search(left, right, _SYMMETRIC, state_limit)


def inclusion_witness(
    left: DFA, right: DFA, *, state_limit: int = DEFAULT_STATE_LIMIT
) -> Witness | None:
    """A shortest string ``left`` accepts and ``right`` rejects, or None when ``left ⊆ right``."""
    return _search(left, right, _LEFT_ONLY, state_limit)


def equivalent(left: DFA, right: DFA, *, state_limit: int = DEFAULT_STATE_LIMIT) -> bool:
    """Whether the two automata accept the same language.

    Canonical DFAs (every DFA :func:`minimize` returns, so every compiled one) are compared as
    arrays, with no product search and so no ``state_limit`` to hit: equal languages have minimal
    DFAs of the same size, and over the common alphabet identical tables (re-indexing columns onto
    a finer alphabet keeps the canonical numbering, because classes are numbered by their smallest
    character and every old class first appears, in the finer order, at its own smallest one).
    """
    if not (left.canonical and right.canonical):
        return equivalence_witness(left, right, state_limit=state_limit) is None
    same_shape = left.n_states == right.n_states and _same(left.accepting, right.accepting)
    if (
        left.alphabet is right.alphabet
    ):  # the usual case (compiled together): no refinement to look up
        return same_shape and _same(left.transitions, right.transitions)
    _, left_columns, right_columns = _columns(left, right)  # raises on different universes
    return same_shape and _same(
        left.transitions[:, left_columns], right.transitions[:, right_columns]
    )


def _same(left: BoolArray | IntArray, right: BoolArray | IntArray) -> bool:
    """``np.array_equal`` for integer or bool arrays, a fifth of its cost on the small ones a teacher
    compares: equal shapes and dtypes hold equal values exactly when they hold equal bytes."""
    if left.shape != right.shape or left.dtype != right.dtype:
        return bool(np.array_equal(left, right))
    return left.tobytes() == right.tobytes()


def is_subset(left: DFA, right: DFA, *, state_limit: int = DEFAULT_STATE_LIMIT) -> bool:
    """Whether every string ``left`` accepts, ``right`` accepts too."""
    return inclusion_witness(left, right, state_limit=state_limit) is None


def _search(
    left: DFA, right: DFA, wanted: tuple[tuple[bool, bool], ...], state_limit: int
) -> Witness | None:
    alphabet, left_columns, right_columns = _columns(left, right)
    if _small_pairs.small(left, right, len(alphabet)):
        one = left.alphabet is right.alphabet  # no columns to map: the tables are read as they are
        status, found, steps, in_left = _small_pairs.shortest_distinction(
            left.transitions.tolist(),
            None if one else left_columns.tolist(),
            left.accepting.tolist(),
            left.start,
            right.transitions.tolist(),
            None if one else right_columns.tolist(),
            right.accepting.tolist(),
            right.start,
            wanted,
            state_limit,
        )
    else:
        status, found, path, in_left = _kernels.shortest_distinction(
            left.transitions,
            left_columns,
            left.accepting,
            left.start,
            right.transitions,
            right_columns,
            right.accepting,
            right.start,
            np.array(wanted),
            state_limit,
        )
        steps = path.tolist()
    if status != _kernels.OK:
        raise StateLimitExceeded(
            "searching the product automaton for a distinguishing string", state_limit
        )
    if not found:
        return None
    representatives = alphabet.representatives
    return Witness(
        "".join([representatives[c] for c in steps]),
        tuple(steps),
        alphabet,
        "left" if in_left else "right",
    )


def is_empty(dfa: DFA) -> bool:
    """Whether ``dfa`` accepts no string."""
    return not bool(dfa.accepting[_reachable(dfa)].any())


def is_universal(dfa: DFA) -> bool:
    """Whether ``dfa`` accepts every string over its universe."""
    return bool(dfa.accepting[_reachable(dfa)].all())


def _reachable(dfa: DFA) -> BoolArray | slice:
    """The reachable states (all of them in a canonical DFA, which has no other kind)."""
    if dfa.canonical:
        return slice(None)
    reachable: BoolArray = _kernels.reachable(dfa.transitions, dfa.start)
    return reachable


def accepts(dfa: DFA, string: str) -> bool:
    """Whether ``dfa`` accepts ``string`` (characters outside the universe reject)."""
    return dfa.accepts(string)


def accepts_many(dfa: DFA, strings: Iterable[str]) -> BoolArray:
    """Membership of every string, as a bool array, in one pass of a compiled loop."""
    batch = list(strings)
    if not batch:
        return np.zeros(0, dtype=np.bool_)
    offsets = np.zeros(len(batch) + 1, dtype=np.int64)
    np.cumsum([len(s) for s in batch], out=offsets[1:])
    classes = dfa.alphabet.encode("".join(batch))
    result: BoolArray = _kernels.run_many(
        dfa.transitions, dfa.accepting, dfa.start, classes, offsets
    )
    return result


def dead_state(dfa: DFA) -> int | None:
    """The first rejecting state whose every transition loops back to it, or None (in a minimal
    DFA: the dead state)."""
    transitions = dfa.transitions
    loops = (transitions == np.arange(transitions.shape[0])[:, None]).all(axis=1)
    sinks = np.flatnonzero(loops & ~dfa.accepting)
    return int(sinks[0]) if sinks.size else None


def num_states(dfa: DFA) -> int:
    """States of the minimal DFA without the dead state: the ``#States`` of the seed paper."""
    minimal = minimize(dfa)
    return minimal.n_states - (dead_state(minimal) is not None)
