"""Counting the strings a DFA accepts, length by length, exactly.

A DFA's transitions over character *classes* turn counting into weighted path counting: a class
holding ``m`` characters is ``m`` parallel edges. ``table[r][s]``, the number of strings of length
``r`` accepted from state ``s``, obeys ``table[r][s] = sum_k size(k) * table[r-1][delta(s, k)]``,
and ``table[n][start]`` is the number of accepted strings of length ``n``. The same table drives
uniform sampling (:mod:`automata.strings.sampling`), which is why :func:`completions` returns all of it.

Counts grow like ``|universe| ** n``: over ``{a,b,c}`` they fit a float64 mantissa up to length
32, over ``[A-Za-z0-9#]`` they pass 2**53 by length 9, over Unicode 2**64 by length 4. Exactness
comes first, so the recurrence runs in a numba kernel on multi-digit integers
(:mod:`automata.strings._count_kernels`), sized from the bound ``|universe| ** max_len``; the digits become
Python ``int``s only when a count is read, and only for the rows read. Every result is an exact
``int``, and a whole table over a few dozen states costs tens of microseconds.

:func:`diff_ratio` is the distance the seed paper reports: the share of strings up to a length on
which two languages disagree, among the strings either accepts.
"""

from __future__ import annotations

import attrs
import numpy as np

from automata.algebra import ops
from automata.core.dfa import DFA
from automata.errors import SizeLimitExceeded
from automata.jit.arrays import Int64Array
from automata.strings import _count_kernels

#: The largest completion table :func:`completions` allocates, in bytes.
MAX_TABLE_BYTES = 512 * 2**20


@attrs.frozen(eq=False)
class Completions:
    """How many strings of each length ``0..max_len`` the DFA accepts from each state.

    With ``per_class`` every class counts as one character: the table then counts the strings
    spelled with one representative per class.
    """

    dfa: DFA
    digits: Int64Array  # [length, state, digit]: base-2**32 digits, little-endian
    per_class: bool = False
    _rows: dict[int, tuple[int, ...]] = attrs.field(factory=dict, init=False, repr=False)

    @property
    def max_len(self) -> int:
        """The longest length counted."""
        return int(self.digits.shape[0]) - 1

    def row(self, length: int) -> tuple[int, ...]:
        """Accepted strings of exactly ``length`` from every state."""
        if length not in self._rows:
            self._rows[length] = tuple(_to_ints(self.digits[length]))
        return self._rows[length]

    def count(self, length: int, state: int | None = None) -> int:
        """Accepted strings of exactly ``length`` from ``state`` (default: the start state)."""
        return _to_ints(self.digits[length, [self.dfa.start if state is None else state]])[0]

    def by_length(self) -> list[int]:
        """Accepted strings of each length ``0..max_len`` from the start state."""
        return _to_ints(self.digits[:, self.dfa.start])

    def int64_rows(self) -> int:
        """How many leading rows hold only counts below 2**63."""
        big = (self.digits[:, :, 2:] != 0).any(axis=(1, 2)) | (self.digits[:, :, 1] >= 2**31).any(
            axis=1
        )
        return int(np.argmax(big)) if big.any() else self.max_len + 1

    def int64_table(self, rows: int) -> Int64Array:
        """The first ``rows`` rows as an int64 array (rows below :meth:`int64_rows` only)."""
        head = self.digits[:rows]
        return head[:, :, 0] | (head[:, :, 1] << _count_kernels.DIGIT_BITS)


def _to_ints(digits: Int64Array) -> list[int]:
    """Python ints from rows of base-2**32 digits."""
    if not digits[:, 2:].any():
        low, high = digits[:, 0].astype(np.uint64), digits[:, 1].astype(np.uint64)
        return (low | (high << np.uint64(32))).tolist()  # type: ignore[no-any-return]
    raw = digits.astype("<u4").tobytes()
    width = 4 * digits.shape[1]
    return [int.from_bytes(raw[i : i + width], "little") for i in range(0, len(raw), width)]


def completions(
    dfa: DFA, max_len: int, *, per_class: bool = False, max_bytes: int = MAX_TABLE_BYTES
) -> Completions:
    """The exact completion table of ``dfa`` for lengths ``0..max_len``.

    The table takes ``(max_len + 1) × states × digits`` int64 words, and the digits grow with
    ``max_len`` too; past ``max_bytes`` it raises :class:`SizeLimitExceeded` before allocating.
    """
    if max_len < 0:
        raise ValueError(f"max_len must be non-negative, got {max_len}")
    sizes = [1] * len(dfa.alphabet) if per_class else dfa.alphabet.sizes()
    bound_bits = (
        max_len * sum(sizes).bit_length() + 1
    )  # every count is at most sum(sizes) ** max_len
    n_digits = max(2, bound_bits // _count_kernels.DIGIT_BITS + 2)
    needed = (max_len + 1) * dfa.n_states * (n_digits + 1) * 8  # the digits, and the digits in use
    if needed > max_bytes:
        raise SizeLimitExceeded(
            f"counting the strings of lengths 0..{max_len} of a {dfa.n_states}-state DFA",
            needed,
            max_bytes,
            "bytes",
            "use a smaller max_len",
        )
    digits = _count_kernels.completion_table(
        np.ascontiguousarray(dfa.transitions, dtype=np.int32),
        np.asarray(sizes, dtype=np.int64),
        np.ascontiguousarray(dfa.accepting, dtype=np.bool_),
        max_len,
        n_digits,
    )
    return Completions(dfa=dfa, digits=digits, per_class=per_class)


def count_by_length(dfa: DFA, max_len: int) -> list[int]:
    """The number of accepted strings of each length ``0..max_len``."""
    return completions(dfa, max_len).by_length()


def log_count_by_length(dfa: DFA, max_len: int) -> list[float | None]:
    """The log2 of the number of accepted strings of each length ``0..max_len`` (None: none),
    carried as floats scaled at every length (:func:`automata.strings._count_kernels.scaled_counts`):
    no table, so any ``max_len`` is affordable (examples of thousands of characters), in time
    linear in ``max_len`` and in the edges that lead to an accepting state."""
    if max_len < 0:
        raise ValueError(f"max_len must be non-negative, got {max_len}")
    logs, reached = _count_kernels.scaled_counts(
        np.ascontiguousarray(dfa.transitions, dtype=np.int32),
        np.asarray(dfa.alphabet.sizes(), dtype=np.int64),
        np.ascontiguousarray(dfa.accepting, dtype=np.bool_),
        dfa.start,
        max_len,
    )
    return [log if any_ else None for log, any_ in zip(logs.tolist(), reached.tolist())]


def diff_ratio(a: DFA, b: DFA, max_len: int = 32) -> float:
    """Σ_{n≤max_len} |(A △ B)_n| ÷ Σ_{n≤max_len} |(A ∪ B)_n|, and 0.0 when no string up to
    ``max_len`` is in either language (the seed paper's Diff Ratio).

    One product suffices: with ``I = A ∩ B``, ``|A ∪ B| = |A| + |B| - |I|`` and ``|A △ B| = |A ∪ B| - |I|``.
    """
    in_a, in_b, in_both = (sum(count_by_length(d, max_len)) for d in (a, b, ops.intersection(a, b)))
    either = in_a + in_b - in_both
    return (either - in_both) / either if either else 0.0
