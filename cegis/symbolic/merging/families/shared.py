"""What every positive example shares: a common prefix and suffix and the factors (substrings)
between them, each with the fewest times a positive holds it. The hypotheses of
:mod:`cegis.symbolic.merging.families.factors` and :mod:`cegis.symbolic.merging.families.sequences` are built from it.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence

import attrs

from cegis.symbolic.merging.core.run_cache import RunCache
from cegis.symbolic.merging.families.pieces import Piece, contains, starts_of
from regexlang.ast import Chars, Regex, Star, concat
from regexlang.ast import text as text_regex
from regexlang.charset import CharSet

#: Fewest characters of a shared factor (a shared single character is too often a coincidence).
SHORTEST_FACTOR = 2

Hypotheses = list[tuple[Regex, str]]
"""Hypotheses, each with a short description of how it was made."""


def shared_factors(strings: Sequence[str], shortest: int = SHORTEST_FACTOR) -> dict[str, int]:
    """The substrings of at least ``shortest`` characters that every one of ``strings`` contains,
    each with the fewest times a string contains it without overlaps, keeping only those that
    another does not imply (``ugug`` once implies ``ug`` twice, not ``ug`` four times); longest
    first.

    Linear in the shortest string's length times a logarithm, not cubic (examples of thousands of
    characters): a longer factor is held no more often, so from each start of the shortest string
    only the longest factor of each count is a candidate (found by bisection), and a candidate is
    implied exactly when a factor one character longer is held as often (that one lies inside any
    longer factor that implies it)."""
    if not strings:
        return {}
    base = min(strings, key=len)
    held = _Held(strings)
    candidates: dict[str, int] = {}
    for start in range(len(base) - shortest + 1):
        end, times = start + shortest, held(base[start : start + shortest])
        while times:
            end = _longest(base, start, end, times, held)
            candidates[base[start:end]] = times
            times = held(base[start : end + 1]) if end < len(base) else 0
            end += 1
    kept = {w: n for w, n in candidates.items() if not _implied(w, n, base, held)}
    return dict(sorted(kept.items(), key=lambda item: (-len(item[0]), item[0])))


class _Held:
    """The fewest times one of ``strings`` holds a factor without overlaps (0: one lacks it),
    remembered for the call: bisections from neighbouring starts ask for the same factors."""

    def __init__(self, strings: Sequence[str]) -> None:
        self.strings, self.known = strings, dict[str, int]()

    def __call__(self, factor: str) -> int:
        known = self.known.get(factor)
        if known is None:
            known = self.known[factor] = min(s.count(factor) for s in self.strings)
        return known


def _longest(base: str, start: int, end: int, times: int, held: _Held) -> int:
    """The largest ``e`` from ``end`` on with ``base[start:e]`` held ``times`` times, given that
    ``base[start:end]`` is (a longer factor is held no more often: bisection)."""
    low, high = end, len(base)
    while low < high:
        middle = (low + high + 1) // 2
        low, high = (middle, high) if held(base[start:middle]) >= times else (low, middle - 1)
    return low


def _implied(word: str, times: int, base: str, held: _Held) -> bool:
    """Whether a factor one character longer than ``word`` (each is in ``base``, which every
    shared factor is) is held at least ``times`` times."""
    longer, width, at = set[str](), len(word), base.find(word)
    while at >= 0:
        longer |= {base[max(at - 1, 0) : at + width], base[at : at + width + 1]}
        at = base.find(word, at + 1)
    longer.discard(word)
    return any(held(w) >= times for w in longer)


@attrs.frozen(eq=False)
class Shared:
    """What every positive has: a common prefix and suffix, and the factors (with the fewest times
    a positive holds each) between them. Made once per positives and universe in a run (:meth:`of`),
    which come back every epoch and agreement round, it is compared by identity: what is found
    from it and the positives alone is remembered by it in the run's ``cache``
    (:mod:`cegis.symbolic.merging.families.sequences`)."""

    prefix: str
    suffix: str
    inner: dict[str, int]
    universe: CharSet
    characters: list[str]  # those every positive has, besides the ones the words spell
    cache: RunCache = attrs.field(repr=False)

    @staticmethod
    def of(positives: Sequence[str], universe: CharSet, cache: RunCache) -> Shared:
        """What ``positives`` share, as strings over ``universe`` (remembered in ``cache``)."""
        return cache(_shared, tuple(positives), universe, cache, limit=64)

    @property
    def dot(self) -> Regex:
        """Any one character."""
        return Chars(self.universe)

    @property
    def anything(self) -> Regex:
        """Any string."""
        return Star(self.dot)

    @property
    def spelled(self) -> str:
        """The characters of the shared words."""
        return "".join([self.prefix, self.suffix, *self.inner])

    def parts(self, besides: str = "") -> list[Regex]:
        """The languages the conjunction intersects: the prefix and suffix, and each factor (but
        ``besides``): made once per shared factors, asked for by most hypotheses."""
        return list(self.cache(_parts, self, besides, limit=256))

    def names(self) -> list[str]:
        """The parts, described."""
        named = [f"starts {self.prefix}"] if self.prefix else []
        named += [w if n == 1 else f"{w} ×{n}" for w, n in self.inner.items()]
        return named + ([f"ends {self.suffix}"] if self.suffix else [])

    def framed(self, middle: Regex) -> Regex:
        """``middle`` after the prefix and before the suffix."""
        starts = [text_regex(self.prefix)] if self.prefix else []
        ends = [text_regex(self.suffix)] if self.suffix else []
        return concat(*starts, middle, *ends)

    def held(self, strings: Iterable[str]) -> list[str]:
        """Those of ``strings`` in the conjunction, in order: most are negatives (hundreds), so they
        pass through each condition in turn (the prefix, the suffix after it, each factor's count)."""
        prefix, suffix, least = self.prefix, self.suffix, len(self.prefix) + len(self.suffix)
        kept = [s for s in strings if s.startswith(prefix)] if prefix else list(strings)
        if suffix:
            kept = [s for s in kept if s.endswith(suffix) and len(s) >= least]
        for word, times in self.inner.items():
            kept = [s for s in kept if s.count(word) >= times]
        return kept

    def match(self, string: str, order: Sequence[Piece], tight: bool = True) -> list[int] | None:
        """Where ``string`` holds the pieces of ``order`` one after another between the prefix and
        the suffix (:func:`starts_of`), or None."""
        if not self._frames(string):
            return None
        end = len(string) - len(self.suffix)
        return starts_of(string, order, self.cache, len(self.prefix), end, tight)

    def apart(self) -> list[str]:
        """The factors every positive holds once besides their occurrences inside the longer shared
        words (``and`` twice beside ``sand`` once is one ``and`` apart); none when one is held more
        often."""
        words = [self.prefix, self.suffix, *self.inner]
        counts = [1, 1, *self.inner.values()]
        alone = {
            w: n - sum(m * v.count(w) for v, m in zip(words, counts) if len(v) > len(w))
            for w, n in self.inner.items()
        }
        return [] if any(n > 1 for n in alone.values()) else [w for w, n in alone.items() if n == 1]

    @property
    def once(self) -> list[str]:
        """The factors every positive holds (at least) once."""
        return [w for w, n in self.inner.items() if n == 1]

    def _frames(self, string: str) -> bool:
        return (
            len(string) >= len(self.prefix) + len(self.suffix)
            and string.startswith(self.prefix)
            and string.endswith(self.suffix)
        )


def _shared(positives: tuple[str, ...], universe: CharSet, cache: RunCache) -> Shared:
    """What ``positives`` share (:meth:`Shared.of`)."""
    prefix = os.path.commonprefix(list(positives))
    suffix = os.path.commonprefix([s[::-1] for s in positives])[::-1]
    if min(map(len, positives)) < len(prefix) + len(suffix):  # a positive is all prefix and suffix
        suffix = ""
    factors = shared_factors(positives)
    inner = {w: n for w, n in factors.items() if n > 1 or (w not in prefix and w not in suffix)}
    characters = sorted(
        set.intersection(*map(set, positives)) - set("".join([prefix, suffix, *inner]))
    )
    return Shared(prefix, suffix, inner, universe, characters, cache)


def _parts(shared: Shared, besides: str) -> tuple[Regex, ...]:
    """:meth:`Shared.parts`, made once per shared factors."""
    framed = [shared.framed(shared.anything)] if shared.prefix or shared.suffix else []
    return (
        *framed,
        *(
            contains(text_regex(w), n, shared.anything)
            for w, n in shared.inner.items()
            if w != besides
        ),
    )
