"""One run of a template, written from general to specific (:mod:`.templates` chooses among them).

The values the positives show in one run (``07``, ``12``, ``03``) are written as a class of the
prior repeated without bound or counted (``[0-9]+``, ``[0-9]{2}``), per position (``[0-2][0-9]``), by
the first character (``0[1-9]|1[0-2]``), as the values listed (``com|org``), or as the characters
shown; a level written for every run alike narrows a run only from enough values, since a few
values show the characters they happen to use, except that a zero-padded field of digits whose
values show a bound has its leading digit bounded (``[0-4][0-9]``, :mod:`.digit_bounds`) in every
writing, for strings given up front. :func:`narrowest_run` is a run at its narrowest: its value,
or its class counted from the shortest value to the longest. A run whose values are a few words,
one shown again (``ERROR``, ``INFO``, ``ERROR``), is also written as the words listed, as a fitted
run's last level: near misses with another word there (``DEBUG``, ``WARNING``) reach it. It is no
narrowest writing: a pattern of the prior with words listed and every other run at its narrowest
count wins on description length where a person writes ``[0-9]+`` (a version tag's
``v[0-9](?:[0-9]?\\.[0-9]{1,2}|…``)."""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Sequence

import attrs

from cegis.symbolic.merging.core.run_cache import RunCache
from cegis.symbolic.merging.families.digit_bounds import bounded_field
from cegis.symbolic.merging.families.prior import DIGITS, LOWER, NAMED, UPPER
from regexlang.ast import Chars, Epsilon, Optional, Plus, Regex, Repeat, Star, concat, union
from regexlang.ast import text as text_regex
from regexlang.charset import CharSet

#: The parts a run class is made of.
_PARTS = (DIGITS, LOWER, UPPER, CharSet.of("_"))

#: Most distinct values a run may list as alternatives (``com|org|net``) instead of a class, when
#: each is shown at least twice on average.
MOST_VALUES = 4

#: Most distinct words a fitted run may list as its last resort (``mon|tue|fri``), when negatives
#: show other words of the same class there.
MOST_WORDS = 6

#: Longest word such a list holds: longer values are free text, not a word from a small set.
LONGEST_WORD = 8

#: Values of a run from which a level written for every run alike may narrow it below its class
#: (per position, ``[0-2][0-9]``): fewer show the characters they happen to use.
NARROWING_EVIDENCE = 30

#: Longest fixed-length run read by its first character (``0[1-9]|1[0-2]``).
MOST_SPLIT = 3


def run_levels(values: Sequence[str], universe: CharSet, cache: RunCache) -> list[Regex]:
    """The values of one run (word characters only) written from general to specific, as the
    templates fit a run to negatives: the class repeated, counted, per position, by the first
    character, listed, the characters shown."""
    return levels(values, Home(universe, cache=cache), fitting=True)


def bounded_default(run: Regex, values: Sequence[str], home: Home) -> Regex:
    """``run`` as fitted to negatives on an unbounded ladder (:func:`levels`), except that a
    zero-padded field fitted at its class counted, which no negative narrowed, is bounded where
    its ``values`` show a bound at ``home``'s significance (:mod:`.digit_bounds`). Negatives that
    the class accepts narrow a field to the positions its positives show (``[0-5][0-9]``), as
    without the bound; fitting from the bound instead would stop at its wider confidence limit
    (``[0-7][0-9]``), which already rejects them."""
    if not home.significance:
        return run
    return (
        counted_run(values, True, home)
        if run == counted_run(values, True, attrs.evolve(home, significance=0.0))
        else run
    )


def narrowest_run(values: Sequence[str], home: Home) -> Regex:
    """A run at its narrowest class-and-count writing: the value every positive shows there, or the
    smallest class holding the values counted from the shortest to the longest. Fitting makes one
    run more specific at a time and stops when no one run rejects more negatives; when only runs
    narrowed together reject a negative, this writing still does."""
    if len(set(values)) == 1:
        return text_regex(values[0])
    return counted_run(values, False, home, bounded_below=True)


@attrs.frozen
class Home:
    """Where run classes come from: the universe, when inferred from the examples
    (:func:`.classes.inferred_classes`) the classes that set single characters apart, and the
    significance at which a zero-padded field's leading digit is read as bounded
    (:mod:`.digit_bounds`; 0: never); and the run's cache, which keeps the classes found for the
    characters of runs (runs of one template share characters, and so do templates of one call)."""

    universe: CharSet
    classes: tuple[CharSet, ...] = ()
    significance: float = 0.0
    cache: RunCache = attrs.field(factory=RunCache, eq=False, repr=False)


def levels(
    values: Sequence[str], home: Home, fitting: bool = False, evidence: int = NARROWING_EVIDENCE
) -> list[Regex]:
    """One run written from general to specific (distinct regexes only). For a level written for
    every run alike (not ``fitting``), a run of fewer than ``evidence`` values stops
    at its class counted from one (and its values listed): narrower classes and lower bounds read
    from a few values are chance, which only a negative makes worth writing. To fit negatives, a
    run is bounded below (``h{3,}``) before above, and counted from one before from its shortest;
    its most specific levels are the characters shown, overall or first and then the rest's
    (``a[bc]+``), and lengths with gaps, unless periodic, only where each is shown twice on average.
    Remembered in ``home``'s cache (the same runs recur in the templates of every cut and affix)."""
    return list(home.cache(_levels, tuple(sorted(values)), home, fitting, evidence))


def _levels(values: tuple[str, ...], home: Home, fitting: bool, evidence: int) -> tuple[Regex, ...]:
    distinct = sorted(set(values))
    lengths = sorted({len(v) for v in distinct})
    if fitting:
        options: list[Regex] = [
            counted_run(distinct, True, home),
            counted_run(distinct, True, home, bounded_below=True),
            counted_run(distinct, False, home),
            counted_run(distinct, False, home, bounded_below=True),
        ]
    else:
        options = [
            counted_run(distinct, True, home),
            counted_run(distinct, False, home, bounded_below=len(values) >= evidence),
        ]
    counted = len(options)
    narrowed = fitting or len(values) >= evidence
    if narrowed and len(lengths) == 1:
        options.append(_grouped([Chars(_snapped(CharSet.of(c), home)) for c in zip(*distinct)]))
        options.append(_grouped([Chars(_span(CharSet.of(c), home)) for c in zip(*distinct)]))
        if lengths[0] <= MOST_SPLIT:
            options.append(_by_first(distinct, home))
    elif narrowed:
        firsts = Chars(_first_class(distinct, home))
        options.append(concat(firsts, counted_run([v[1:] for v in distinct], True, home)))
        options.append(_split_single(distinct, home))
    if len(distinct) <= MOST_VALUES and len(values) >= 2 * len(distinct):
        # Values of one character set apart (``O|OO|OOO``) read as a count (``O{1,3}``) first.
        options.insert(
            counted if _set_apart(CharSet.of("".join(distinct)), home) else 0,
            union(*map(text_regex, distinct)),
        )
    if (
        narrowed
        and lengths[-1] - lengths[0] >= len(lengths)
        and (_periodic(lengths) or len(values) >= 2 * len(lengths))
    ):
        options.append(_gapped(Chars(_smallest(CharSet.of("".join(distinct)), home)), lengths))
    if narrowed:
        options.append(
            _shown(distinct, home)
        )  # the most specific class: only where negatives ask for it
    if narrowed and len(lengths) > 1:  # the first characters shown, then the rest's (``a[bc]+``)
        shown_firsts = Chars(_span(CharSet.of("".join(v[0] for v in distinct)), home, snap=False))
        options.append(concat(shown_firsts, _shown([v[1:] for v in distinct], home)))
    if fitting and _words(values):
        options.append(union(*map(text_regex, distinct)))
    return tuple(dict.fromkeys(options))


def _words(values: Sequence[str]) -> bool:
    """Whether ``values`` read as words from a small set (``ERROR``, ``WARN``, ``INFO``): two to
    :data:`MOST_WORDS` distinct values of letters only, two to :data:`LONGEST_WORD` long, one of
    them shown again (values each shown once are as likely a free field's)."""
    distinct = set(values)
    return (
        2 <= len(distinct) <= MOST_WORDS
        and len(distinct) < len(values)
        and all(2 <= len(v) <= LONGEST_WORD and v.isascii() and v.isalpha() for v in distinct)
    )


def _periodic(lengths: Sequence[int]) -> bool:
    """Whether the lengths are three or more evenly spaced (``0, 2, 4, 6``): a period repeated."""
    return len(lengths) >= 3 and len({b - a for a, b in itertools.pairwise(lengths)}) == 1


def _gapped(cls: Regex, lengths: Sequence[int]) -> Regex:
    """``cls`` repeated as often as the lengths shown, which have gaps: periodic lengths
    (:func:`_periodic`) as a period repeated without bound (``(?:[ab]{2})*``), else each as shown
    (``[a-z]{3}|[a-z]{5}``). Lengths each shown once are no levels but the positives' lengths
    listed (``.{10}|.{12}|.{26}|.{29}`` for four positives): :func:`levels` asks each level to be
    shown twice on average, as it asks of values listed."""

    def times(n: int) -> Regex:
        return Epsilon() if n == 0 else cls if n == 1 else Repeat(cls, n, n)

    if _periodic(lengths):
        period = Star(times(lengths[1] - lengths[0]))
        return period if lengths[0] == 0 else concat(times(lengths[0]), period)
    return union(*map(times, lengths))


def _shown(values: Sequence[str], home: Home) -> Regex:
    """The values as the range of characters they show inside their run class, repeated without
    bound (``[01]+`` for binary digits): narrower than the class, for when a negative forbids it."""
    chars = CharSet.of("".join(values))
    return _repeated(
        Chars(_span(chars, home, snap=False) if len(chars) > 1 else chars), values, True
    )


def _grouped(parts: Sequence[Regex]) -> Regex:
    """The parts in order, equal neighbours counted (``[0-9][0-9][0-9]`` as ``[0-9]{3}``)."""
    out: list[Regex] = []
    for part, same in itertools.groupby(parts):
        count = len(list(same))
        out.append(part if count == 1 else Repeat(part, count, count))
    return concat(*out)


def counted_run(
    values: Sequence[str], open_ended: bool, home: Home, bounded_below: bool = False
) -> Regex:
    """The values as the smallest run class holding them (or their one character set apart),
    repeated as their lengths say (:func:`_repeated`); a zero-padded field of digits whose values
    show its leading digit bounded (:func:`.digit_bounds.bounded_field`) with that digit bounded
    (``[0-4][0-9]``)."""
    chars = CharSet.of("".join(values))
    cls = chars if _set_apart(chars, home) else _smallest(chars, home)
    bounded = (
        bounded_field(values, home.significance)
        if home.significance and cls == DIGITS & home.universe
        else None
    )
    if bounded is not None:
        return _grouped([Chars(bounded & home.universe), *[Chars(cls)] * (len(values[0]) - 1)])
    return _repeated(Chars(cls), values, open_ended, bounded_below)


def _repeated(
    cls: Regex, values: Sequence[str], open_ended: bool, bounded_below: bool = False
) -> Regex:
    """``cls`` repeated as the values' lengths say: when they vary, up to the longest or, when
    ``open_ended``, any number of times; from the shortest length when ``bounded_below``, else at
    least once unless a value is empty (the shortest of a few values is no bound a person writes:
    IPv6 groups of three and four hex digits are ``[0-9a-f]{1,4}``)."""
    lengths = sorted({len(v) for v in values})
    low, high = lengths[0], lengths[-1]
    if low == high:
        return cls if low == 1 else Repeat(cls, low, low)
    low = low if bounded_below else min(low, 1)
    if not open_ended:
        return Optional(cls) if (low, high) == (0, 1) else Repeat(cls, low, high)
    if low > 1:
        return Repeat(cls, low, None)
    return Star(cls) if low == 0 else Plus(cls)


def _set_apart(chars: CharSet, home: Home) -> bool:
    """Whether ``chars`` is one character the inferred classes set apart: a run of it is written as
    itself (``h{3,}``; wider inferred classes narrow nothing: from a few examples they are chance)."""
    return len(chars) == 1 and chars in home.classes


def _split_single(values: Sequence[str], home: Home) -> Regex:
    """Single characters apart from longer values, whose first character is read as the range the
    positives show (``0|[1-9][0-9]*`` for numbers without leading zeros)."""
    singles = [v for v in values if len(v) == 1]
    longer = [v for v in values if len(v) > 1]
    if not singles or not longer:
        return counted_run(values, True, home)
    firsts = Chars(_span(CharSet.of("".join(v[0] for v in longer)), home, snap=False))
    return union(
        Chars(_smallest(CharSet.of("".join(singles)), home)),
        concat(firsts, counted_run([v[1:] for v in longer], True, home)),
    )


def _first_class(values: Sequence[str], home: Home) -> CharSet:
    """The smallest run class of the values' first characters; all letters when those are letters
    and the rest show both cases (``#[A-Za-z][A-Za-z0-9]*``: five hashtags that happened to start in
    lower case are no rule that they do)."""
    firsts = _smallest(CharSet.of("".join(v[0] for v in values)), home)
    rest = CharSet.of("".join(v[1:] for v in values))
    letters = (LOWER | UPPER) & home.universe
    if firsts.issubset(letters) and rest & LOWER and rest & UPPER:
        return letters
    return firsts


def _by_first(values: Sequence[str], home: Home) -> Regex:
    """Fixed-length values as alternatives by their first character, the rest per position, first
    characters with the same rest joined (``0[1-9]|[12][0-9]|3[01]``)."""
    rests: dict[str, list[str]] = defaultdict(list)
    for value in values:
        rests[value[0]].append(value[1:])
    by_rest: dict[tuple[CharSet, ...], list[str]] = defaultdict(list)
    for first, tails in rests.items():
        by_rest[
            tuple(_span(CharSet.of(column), home, snap=False) for column in zip(*tails))
        ].append(first)
    return union(
        *(concat(Chars(CharSet.of(firsts)), *map(Chars, rest)) for rest, firsts in by_rest.items())
    )


def _smallest(chars: CharSet, home: Home) -> CharSet:
    """The smallest run class holding ``chars`` (within the universe) that the characters show
    each part of: digits, lower case, upper case, underscore (``[a-c]`` is not read as hex digits);
    else the smallest holding them (the class a person names, not the characters seen).
    Remembered in ``home``'s cache."""
    return home.cache(_smallest_in, chars, home.universe, home.cache)


def _smallest_in(chars: CharSet, universe: CharSet, cache: RunCache) -> CharSet:
    holding = [
        (within, parts)
        for named, within, parts in cache(_named_within, universe, limit=16)
        if chars.issubset(named)
    ]
    fitting = [h for h in holding if all(chars & part for part in h[1])] or holding
    return min(fitting, key=lambda h: len(h[0]))[0] if fitting else chars


def _named_within(universe: CharSet) -> tuple[tuple[CharSet, CharSet, tuple[CharSet, ...]], ...]:
    """Each class of the prior, its characters within ``universe``, and the parts those touch."""
    within = [c & universe for c in NAMED]
    return tuple((c, w, tuple(p for p in _PARTS if w & p)) for c, w in zip(NAMED, within))


def _snapped(chars: CharSet, home: Home) -> CharSet:
    """The smallest run class holding ``chars``, for a single character only itself."""
    return chars if len(chars) == 1 else _smallest(chars, home)


def _span(chars: CharSet, home: Home, snap: bool = True) -> CharSet:
    """``chars`` widened to the range they span inside the smallest run class holding them (people
    write ``[0-5]``, not ``[0-35]``), or, with ``snap``, to that class when the range is most of it."""
    whole = _smallest(chars, home)
    if len(chars) == 1:
        return chars
    span = CharSet.range(min(chars), max(chars)) & whole
    if snap and 5 * len(span) >= 4 * len(whole):
        return whole
    return span if len(span) <= 3 * len(chars) else whole
