"""Counting the strings a DFA accepts, length by length, exactly.

A DFA's transitions over character *classes* turn counting into weighted path counting: a class
holding ``m`` characters is ``m`` parallel edges. ``table[r][s]``, the number of strings of length
``r`` accepted from state ``s``, obeys ``table[r][s] = sum_k size(k) * table[r-1][delta(s, k)]``, and
``table[n][start]`` is the number of accepted strings of length ``n``. The same table drives uniform
sampling (:mod:`automata.sampling`), which is why :func:`completions` returns all of it.

Counts grow like ``|universe| ** n``: over ``{a,b,c}`` they fit a float64 mantissa up to length 32,
over ``[A-Za-z0-9#]`` they pass 2**53 by length 9, over Unicode by length 3. So the recurrence runs
in a numba float64 kernel while it is provably exact (every row maximum below 2**53: all terms are
non-negative, so no intermediate value exceeds the row's final value), and the remaining rows are
computed in Python integers over the *grouped* edge list (one weighted edge per pair of states
instead of one per class), restricted to states that can still reach acceptance. Results are always
exact Python ``int``s.

:func:`diff_ratio` is the distance the seed paper reports: the share of strings up to a length on
which two languages disagree, among the strings either accepts.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs
import numpy as np

from automata import _count_kernels, ops
from automata.dfa import DFA, BoolArray

_EXACT_FLOAT_LIMIT = float(2**53)


@attrs.frozen(eq=False)
class Completions:
    """``rows[r][s]``: the number of strings of length ``r`` that ``dfa`` accepts from state ``s``."""

    dfa: DFA
    rows: tuple[tuple[int, ...], ...]
    per_class: bool = False

    @property
    def max_len(self) -> int:
        """The longest length counted."""
        return len(self.rows) - 1

    def count(self, length: int, state: int | None = None) -> int:
        """Accepted strings of exactly ``length`` from ``state`` (default: the start state)."""
        return self.rows[length][self.dfa.start if state is None else state]

    def by_length(self) -> list[int]:
        """Accepted strings of each length ``0..max_len`` from the start state."""
        start = self.dfa.start
        return [row[start] for row in self.rows]


def coreachable(dfa: DFA) -> BoolArray:
    """States from which some accepting state can be reached (the "live" states)."""
    live = dfa.accepting.copy()
    while True:
        grown = live | live[dfa.transitions].any(axis=1)
        if (grown == live).all():
            return live
        live = grown


def completions(dfa: DFA, max_len: int, *, per_class: bool = False) -> Completions:
    """The exact completion table of ``dfa`` for lengths ``0..max_len``.

    With ``per_class`` every class counts as one character, so the table counts the strings spelled
    with one representative per class (what the "representatives" sampling mode draws from).
    """
    if max_len < 0:
        raise ValueError(f"max_len must be non-negative, got {max_len}")
    sizes = [1] * len(dfa.alphabet) if per_class else dfa.alphabet.sizes()
    table = _count_kernels.completion_table(
        np.ascontiguousarray(dfa.transitions, dtype=np.int32),
        np.asarray(sizes, dtype=np.float64),
        np.ascontiguousarray(dfa.accepting, dtype=np.bool_),
        max_len,
    )
    too_big = np.flatnonzero(table.max(axis=1) >= _EXACT_FLOAT_LIMIT)
    exact_rows = int(too_big[0]) if too_big.size else max_len + 1
    rows: list[tuple[int, ...]] = [tuple(row) for row in table[:exact_rows].astype(np.int64).tolist()]
    if exact_rows <= max_len:
        rows.extend(_exact_rows(dfa, sizes, rows[-1], max_len - exact_rows + 1))
    return Completions(dfa=dfa, rows=tuple(rows), per_class=per_class)


def _exact_rows(dfa: DFA, sizes: Sequence[int], last: tuple[int, ...], count: int) -> list[tuple[int, ...]]:
    """``count`` more rows of the recurrence after ``last``, in Python integers."""
    n_states, n_classes = dfa.transitions.shape
    live = coreachable(dfa)
    weights = np.zeros((n_states, n_states), dtype=np.int64)
    np.add.at(weights, (np.repeat(np.arange(n_states), n_classes), dfa.transitions.ravel()), np.tile(sizes, n_states))
    weights[:, ~live] = 0
    edges = [
        [(int(t), int(weights[s, t])) for t in np.flatnonzero(weights[s])] if live[s] else [] for s in range(n_states)
    ]
    rows: list[tuple[int, ...]] = []
    prev = last
    for _ in range(count):
        prev = tuple(sum(w * prev[t] for t, w in out) for out in edges)
        rows.append(prev)
    return rows


def count_by_length(dfa: DFA, max_len: int) -> list[int]:
    """The number of accepted strings of each length ``0..max_len``."""
    return completions(dfa, max_len).by_length()


def diff_ratio(a: DFA, b: DFA, max_len: int = 32) -> float:
    """Σ_{n≤max_len} |(A △ B)_n| ÷ Σ_{n≤max_len} |(A ∪ B)_n|, and 0.0 when no string up to
    ``max_len`` is in either language (the seed paper's Diff Ratio).

    One product suffices: with ``I = A ∩ B``, ``|A ∪ B| = |A| + |B| - |I|`` and ``|A △ B| = |A ∪ B| - |I|``.
    """
    in_a, in_b, in_both = (sum(count_by_length(d, max_len)) for d in (a, b, ops.intersection(a, b)))
    either = in_a + in_b - in_both
    return (either - in_both) / either if either else 0.0
