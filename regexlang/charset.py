"""Character sets as immutable, sorted, disjoint code-point intervals.

Every character-level construct of every dialect (a literal, ``[a-z]``, ``\\w``, ``.``) becomes a
:class:`CharSet`. Keeping them as interval lists rather than Python ``set``s makes ``\\w`` over all
of Unicode a few hundred intervals instead of a hundred thousand characters, and gives the set
algebra that ``automata`` needs to split an alphabet into equivalence classes: two characters
belong to the same class exactly when every ``CharSet`` in play contains both or neither.

Intervals are inclusive ``(lo, hi)`` pairs, sorted, non-overlapping and non-adjacent, so equal
sets have equal representations and ``==``/``hash`` are structural.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import attrs

MAX_CODE_POINT = 0x10FFFF

Interval = tuple[int, int]


def _normalize(intervals: Iterable[Interval]) -> tuple[Interval, ...]:
    merged: list[list[int]] = []
    for lo, hi in sorted(intervals):
        if lo > hi:
            raise ValueError(f"empty interval ({lo}, {hi})")
        if lo < 0 or hi > MAX_CODE_POINT:
            raise ValueError(f"interval ({lo}, {hi}) outside the code-point range")
        if merged and lo <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], hi)
        else:
            merged.append([lo, hi])
    return tuple((lo, hi) for lo, hi in merged)


@attrs.frozen(order=False, cache_hash=True)
class CharSet:
    """An immutable set of code points stored as canonical inclusive intervals."""

    intervals: tuple[Interval, ...] = attrs.field(converter=_normalize, default=())

    @classmethod
    def of(cls, chars: Iterable[str]) -> CharSet:
        """The set of the given characters (each distinct one normalized once: a run of
        hundreds of characters holds a few dozen)."""
        return cls((ord(c), ord(c)) for c in set(chars))

    @classmethod
    def range(cls, first: str, last: str) -> CharSet:
        """The characters from ``first`` to ``last`` inclusive."""
        return cls([(ord(first), ord(last))])

    @classmethod
    def everything(cls) -> CharSet:
        """All of Unicode."""
        return cls([(0, MAX_CODE_POINT)])

    def union(self, other: CharSet) -> CharSet:
        """Characters in either set."""
        return CharSet(self.intervals + other.intervals)

    def intersection(self, other: CharSet) -> CharSet:
        """Characters in both sets."""
        result: list[Interval] = []
        i = j = 0
        a, b = self.intervals, other.intervals
        while i < len(a) and j < len(b):
            lo = max(a[i][0], b[j][0])
            hi = min(a[i][1], b[j][1])
            if lo <= hi:
                result.append((lo, hi))
            if a[i][1] < b[j][1]:
                i += 1
            else:
                j += 1
        return CharSet(result)

    def complement(self, universe: CharSet | None = None) -> CharSet:
        """Characters of ``universe`` (default: all of Unicode) not in this set."""
        gaps: list[Interval] = []
        nxt = 0
        for lo, hi in self.intervals:
            if lo > nxt:
                gaps.append((nxt, lo - 1))
            nxt = hi + 1
        if nxt <= MAX_CODE_POINT:
            gaps.append((nxt, MAX_CODE_POINT))
        full = CharSet(gaps)
        return full if universe is None else full.intersection(universe)

    def difference(self, other: CharSet) -> CharSet:
        """Characters in this set and not in ``other``."""
        return self.intersection(other.complement())

    def __or__(self, other: CharSet) -> CharSet:
        return self.union(other)

    def __and__(self, other: CharSet) -> CharSet:
        return self.intersection(other)

    def __sub__(self, other: CharSet) -> CharSet:
        return self.difference(other)

    def __contains__(self, char: object) -> bool:
        if isinstance(char, str):
            if len(char) != 1:
                return False
            code = ord(char)
        elif isinstance(char, int):
            code = char
        else:
            return False
        lo_i, hi_i = 0, len(self.intervals)
        while lo_i < hi_i:
            mid = (lo_i + hi_i) // 2
            lo, hi = self.intervals[mid]
            if code < lo:
                hi_i = mid
            elif code > hi:
                lo_i = mid + 1
            else:
                return True
        return False

    def __bool__(self) -> bool:
        return bool(self.intervals)

    def __len__(self) -> int:
        return sum(hi - lo + 1 for lo, hi in self.intervals)

    def __iter__(self) -> Iterator[str]:
        for lo, hi in self.intervals:
            for code in range(lo, hi + 1):
                yield chr(code)

    def is_empty(self) -> bool:
        """Whether the set has no characters."""
        return not self.intervals

    def is_single(self) -> bool:
        """Whether the set has exactly one character."""
        return len(self.intervals) == 1 and self.intervals[0][0] == self.intervals[0][1]

    def issubset(self, other: CharSet) -> bool:
        """Whether every character of this set is in ``other``: each interval lies within one of
        ``other``'s (they are maximal, so a run of its characters cannot span two)."""
        theirs, j = other.intervals, 0
        for lo, hi in self.intervals:
            while j < len(theirs) and theirs[j][1] < lo:
                j += 1
            if j == len(theirs) or theirs[j][0] > lo or theirs[j][1] < hi:
                return False
        return True

    def first(self) -> str:
        """The smallest character (the canonical representative of the set)."""
        if not self.intervals:
            raise ValueError("empty character set has no representative")
        return chr(self.intervals[0][0])

    def __repr__(self) -> str:
        parts = []
        for lo, hi in self.intervals[:8]:
            parts.append(repr(chr(lo)) if lo == hi else f"{chr(lo)!r}-{chr(hi)!r}")
        more = ", ..." if len(self.intervals) > 8 else ""
        return f"CharSet({', '.join(parts)}{more})"


EMPTY = CharSet()
UNICODE = CharSet.everything()
SIMPLE_ALPHABET = CharSet.of("abc")
EXTENDED_ALPHABET = CharSet(
    [(ord("A"), ord("Z")), (ord("a"), ord("z")), (ord("0"), ord("9")), (ord("#"), ord("#"))]
)
