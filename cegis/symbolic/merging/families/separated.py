"""Hypotheses written along a separator that repeats: paths, addresses, key paths.

``C:\\Users\\alice\\notes.txt``, ``fe80::a00:27ff`` and ``logging.handlers.file`` are fields
between separators, as many as each string needs. The run templates (:mod:`.templates`) see a
different skeleton for every count of fields and give up past a dozen; a person writes the field
once and the separator as a repetition: ``[A-Z]:(?:\\\\[^\\\\]+)+``,
``[a-z][a-z0-9_]*(?:\\.[a-z][a-z0-9_]*)*``.

Each positive is split at a *separator* (:func:`separators`): a run of punctuation that some
positives repeat more often than others, or that every positive has (twice or more, or two
characters long: the ``::`` of an IPv6 short form). The fields fill *slots* by a *structure*: all
alike, the first apart (a drive ``C:``), the last apart (a file name), or both. Each slot is written
on a ladder from general to specific (:func:`_ladder`): anything but the separator, the run
templates of its values, its values split again at another separator (one level deep: the groups
of an IPv6 half), the values listed. The unit repeats without bound when the positives repeat it
at least twice and not always equally often (:func:`_repeated`; one optional suffix ``-rc.1`` is no
repetition).

The candidates are the first :data:`UNIFORM_LEVELS` levels for every slot alike, and the writing
fitted to the negatives: slots made more specific a level at a time while that leaves fewer
negatives accepted (a zero-padded field that none narrowed bounded where its values show a bound,
:func:`.run_writing.bounded_default`). Fitting tries dozens of writings, so negatives are matched with Python's ``re``
(far cheaper than an automaton each); the learner checks the candidates exactly."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence

from cegis.symbolic.merging.candidate import Found, spelled
from cegis.symbolic.merging.core.run_cache import RunCache
from cegis.symbolic.merging.evidence import Evidence
from cegis.symbolic.merging.families.digit_bounds import SIGNIFICANCE
from cegis.symbolic.merging.families.run_writing import (
    MOST_VALUES,
    Home,
    bounded_default,
    run_levels,
)
from cegis.symbolic.merging.families.templates import CUTS, Cut, template_hypotheses
from regexlang.ast import (
    Chars,
    Concat,
    Epsilon,
    Optional,
    Plus,
    Regex,
    Repeat,
    Star,
    Union,
    concat,
    union,
)
from regexlang.ast import text as text_regex
from regexlang.charset import CharSet
from regexlang.metrics import node_count

#: Most separators tried, those in the most positives first.
MOST_SEPARATORS = 4

#: Levels of the slots' ladders written for every slot alike (anything but the separator, the
#: first run template, the second), besides the writing fitted to the negatives.
UNIFORM_LEVELS = 3

#: Most writings of one slot, general to specific.
MOST_LEVELS = 10

#: Most regex nodes of one slot's writing: a larger one lists its values' shapes, which is
#: neither what a person writes nor quick to fit (a path's folder names have a dozen shapes).
MOST_NODES = 24

#: Longest positive the family reads: paths, addresses and key paths are tens of characters; the
#: slots of lines hundreds of characters long (a request log's) took a minute to write on their
#: ladders, and the shapes and free fields write such lines.
MOST_LENGTH = 200

#: A value of one run of word characters.
_WORD = re.compile(r"[A-Za-z0-9_]+")

#: How the fields of one positive fill the slots, and how the slots' writings make the regex.
_Structure = tuple[
    str, Callable[[Sequence[Sequence[str]]], list[list[str]]], Callable[[Sequence[Regex]], Regex]
]


def separated_hypotheses(
    positives: Sequence[str],
    negatives: Sequence[str],
    universe: CharSet,
    *,
    cache: RunCache | None = None,
) -> list[tuple[Regex, str]]:
    """For each separator of the positives and each structure their field counts allow, the
    slots written at the first :data:`UNIFORM_LEVELS` levels alike and as fitted to the negatives;
    those that accept every positive and no negative (the others would only be compiled to be
    refused). The run's ``cache`` keeps the writings of each slot and their patterns."""
    run = cache or RunCache()
    found = separators(positives)
    given = Home(universe, significance=SIGNIFICANCE, cache=run)
    out: dict[Regex, str] = {}
    for separator in found:
        fields = [p.split(separator) for p in positives]
        inner = [s for s in found if s != separator and separator not in s]
        for name, slots_of, build in _structures(fields, text_regex(separator)):
            slots = slots_of(fields)
            for cut in CUTS:
                alike = [
                    _ladder(values, CharSet.of(separator), inner, universe, cut, True, run)
                    for values in slots
                ]
                ladders = [
                    _ladder(values, CharSet.of(separator), inner, universe, cut, False, run)
                    for values in slots
                ]
                if not all(alike) or not all(ladders):  # a slot no writing here accepts
                    break
                for level in range(UNIFORM_LEVELS):
                    uniform = build([ladder[min(level, len(ladder) - 1)] for ladder in alike])
                    out.setdefault(
                        uniform, f"template (separated by {separator!r}, {name}, level {level})"
                    )
                fitted = build(
                    [
                        bounded_default(w, v, given)
                        for w, v in zip(_fitted(ladders, build, negatives, run), slots)
                    ]
                )
                out.setdefault(
                    fitted, f"template (separated by {separator!r}, {name}, {cut} runs fitted)"
                )
    return [
        (regex, how)
        for regex, how in out.items()
        if accepts_all(regex, positives, run) and not accepts_any(regex, negatives, run)
    ]


def separators(positives: Sequence[str]) -> list[str]:
    """The runs of punctuation that some positives have more often than others, or that every
    positive has, twice or more when they are one character (the dots of ``10.0.0.1``); at most
    :data:`MOST_SEPARATORS`, those in the most positives first."""
    counts = [Counter(_runs(p)) for p in positives]
    runs = {run for count in counts for run in count}
    chosen = [
        run
        for run in runs
        if len({count[run] for count in counts}) > 1
        or all(count[run] >= (1 if len(run) > 1 else 2) for count in counts)
    ]
    return sorted(chosen, key=lambda run: (-sum(bool(count[run]) for count in counts), run))[
        :MOST_SEPARATORS
    ]


def _runs(string: str) -> list[str]:
    """The maximal runs of characters that are not field characters (word characters and space)."""
    return [run for run in re.split(r"[A-Za-z0-9_ ]+", string) if run]


def _structures(fields: Sequence[Sequence[str]], separator: Regex) -> list[_Structure]:
    """The structures the positives' field counts allow (the first and last apart only when every
    positive has two fields)."""
    counts = [len(split) for split in fields]
    low, high = min(counts), max(counts)

    def unit_first(unit: Regex) -> Regex:
        return concat(separator, unit)

    def unit_last(unit: Regex) -> Regex:
        return concat(unit, separator)

    out: list[_Structure] = [
        (
            "all alike",
            lambda fs: [[f for split in fs for f in split]],
            lambda w: concat(w[0], _repeated(unit_first(w[0]), low - 1, high - 1)),
        )
    ]
    if high >= 2:
        out.append(
            (
                "first apart",
                lambda fs: [[split[0] for split in fs], [f for split in fs for f in split[1:]]],
                lambda w: concat(w[0], _repeated(unit_first(w[1]), low - 1, high - 1)),
            )
        )
    if low >= 2:
        out.append(
            (
                "last apart",
                lambda fs: [[f for split in fs for f in split[:-1]], [split[-1] for split in fs]],
                lambda w: concat(_repeated(unit_last(w[0]), low - 1, high - 1), w[1]),
            )
        )
        if high == 2:
            out.append(
                (
                    "first and last apart",
                    lambda fs: [[s[0] for s in fs], [s[1] for s in fs]],
                    lambda w: concat(w[0], separator, w[1]),
                )
            )
        else:
            out.append(
                (
                    "first and last apart",
                    lambda fs: [
                        [s[0] for s in fs],
                        [f for s in fs for f in s[1:-1]],
                        [s[-1] for s in fs],
                    ],
                    lambda w: concat(
                        w[0], _repeated(unit_first(w[1]), low - 2, high - 2), separator, w[2]
                    ),
                )
            )
    return out


def _repeated(unit: Regex, low: int, high: int) -> Regex:
    """``unit`` repeated from ``low`` to ``high`` times as the positives show, or without bound
    when they repeat it at least twice and not always equally often (``+`` from any lower count
    shown: the fewest repeats of a few strings is no bound a person writes, ``(?:/[a-z]+)+`` for
    paths of 62 to 89 folders)."""
    if high >= 2 and high > low:
        return Star(unit) if low == 0 else Plus(unit)
    if low == high:
        return Epsilon() if low == 0 else unit if low == 1 else Repeat(unit, low, low)
    return Optional(unit) if (low, high) == (0, 1) else Repeat(unit, low, high)


def _ladder(
    values: Sequence[str],
    excluded: CharSet,
    inner: Sequence[str],
    universe: CharSet,
    cut: Cut,
    uniform: bool,
    cache: RunCache,
) -> tuple[Regex, ...]:
    """Writings of one slot that accept all its ``values``, general to specific: anything but the
    ``excluded`` separator, the run templates of ``cut`` (to fit to negatives, not ``uniform``, for
    values of one run of word characters every level the templates fit a run to,
    :func:`.run_writing.run_levels`), the values split again at an ``inner`` separator (all alike),
    the values listed; optional where a value is empty, the value itself when there is one.
    Remembered in the run's ``cache``: the structures of one separator share slots, and separators
    share fields."""
    distinct = tuple(sorted(set(values)))
    return cache(
        _ladder_of, distinct, excluded, tuple(inner), universe, cut, uniform, cache, limit=256
    )


def _ladder_of(
    values: tuple[str, ...],
    excluded: CharSet,
    inner: tuple[str, ...],
    universe: CharSet,
    cut: Cut,
    uniform: bool,
    cache: RunCache,
) -> tuple[Regex, ...]:
    distinct = list(values)
    filled = [v for v in distinct if v]
    if len(distinct) == 1:
        return (text_regex(distinct[0]),)
    options: list[Regex] = [Plus(Chars(universe - excluded))]
    if not uniform and all(_WORD.fullmatch(v) for v in filled):
        options += run_levels(filled, universe, cache)
    else:
        options += [
            t.regex
            for t in template_hypotheses(
                filled,
                (),
                universe,
                cut,
                significance=SIGNIFICANCE if uniform else 0.0,
                cache=cache,
            )
        ]
    for separator in inner:
        if any(separator in v for v in filled):
            split = [v.split(separator) for v in filled]
            counts = [len(s) for s in split]
            for field in _ladder(
                [f for s in split for f in s],
                excluded | CharSet.of(separator),
                (),
                universe,
                cut,
                uniform,
                cache,
            )[:3]:
                options.append(
                    concat(
                        field,
                        _repeated(
                            concat(text_regex(separator), field), min(counts) - 1, max(counts) - 1
                        ),
                    )
                )
    if len(filled) <= MOST_VALUES:
        options.append(union(*map(text_regex, filled)))
    small = [o for o in dict.fromkeys(options) if node_count(o) <= MOST_NODES]
    kept = [o for o in small if accepts_all(o, filled, cache)][:MOST_LEVELS]
    return tuple(_optional(o) for o in kept) if len(filled) < len(distinct) else tuple(kept)


def _optional(regex: Regex) -> Regex:
    return Star(regex.inner) if isinstance(regex, Plus) else Optional(regex)


def _fitted(
    ladders: Sequence[Sequence[Regex]],
    build: Callable[[Sequence[Regex]], Regex],
    negatives: Sequence[str],
    cache: RunCache,
) -> list[Regex]:
    """Per slot, the most general writing such that fewest negatives are accepted: one slot at a
    time made more specific, each time by one level where that leaves fewer negatives accepted
    (else by as many as it takes), the slot and level that leave the fewest (the most general on a
    tie), until none is or no slot can help. A level at a time: a per-position range that rejects
    three negatives at once is no reason to skip the class counted that rejects two."""
    levels = [0] * len(ladders)

    def accepted(chosen: Sequence[int]) -> int:
        built = build([ladder[level] for ladder, level in zip(ladders, chosen)])
        pattern = cache(_compiled, built)
        return sum(pattern.fullmatch(n) is not None for n in negatives)

    left = accepted(levels)
    while left:
        for reach in (1, max(map(len, ladders))):
            trials = [
                (accepted([*levels[:i], deeper, *levels[i + 1 :]]), deeper, i)
                for i in range(len(ladders))
                for deeper in range(levels[i] + 1, min(levels[i] + 1 + reach, len(ladders[i])))
            ]
            if trials and min(trials)[0] < left:
                break
        else:
            break
        left, deeper, i = min(trials)
        levels[i] = deeper
    return [ladder[level] for ladder, level in zip(ladders, levels)]


def accepts_all(regex: Regex, strings: Sequence[str], cache: RunCache | None = None) -> bool:
    """Whether ``regex`` (made of the nodes the template families write) accepts every string,
    matched with Python's ``re`` (the compiled pattern kept in the run's ``cache``, if given)."""
    pattern = _compiled(regex) if cache is None else cache(_compiled, regex)
    return all(pattern.fullmatch(s) is not None for s in strings)


def accepts_any(regex: Regex, strings: Sequence[str], cache: RunCache | None = None) -> bool:
    """Whether ``regex`` (as :func:`accepts_all`) accepts some string."""
    pattern = _compiled(regex) if cache is None else cache(_compiled, regex)
    return any(pattern.fullmatch(s) is not None for s in strings)


def _compiled(regex: Regex) -> re.Pattern[str]:
    """``regex`` compiled (remembered: fitting builds the same writings again and again)."""
    return re.compile(python_pattern(regex))


def python_pattern(regex: Regex) -> str:
    """``regex`` (made of the nodes this module writes) as a Python pattern with no capturing
    group, every character escaped by its code: quicker than the dialect printer, which looks for
    the shortest spelling. A node of another kind is written as a pattern that matches nothing."""
    match regex:
        case Chars(chars):
            return (
                "["
                + "".join(
                    f"\\U{lo:08x}" + (f"-\\U{hi:08x}" if hi > lo else "")
                    for lo, hi in chars.intervals
                )
                + "]"
            )
        case Concat(parts):
            return "".join(f"(?:{python_pattern(part)})" for part in parts)
        case Union(options):
            return "|".join(f"(?:{python_pattern(option)})" for option in options)
        case Star(inner):
            return f"(?:{python_pattern(inner)})*"
        case Plus(inner):
            return f"(?:{python_pattern(inner)})+"
        case Optional(inner):
            return f"(?:{python_pattern(inner)})?"
        case Repeat(inner, low, high):
            return f"(?:{python_pattern(inner)}){{{low},{'' if high is None else high}}}"
        case Epsilon():
            return ""
    return "(?!)"  # the empty set, or a node no writing here uses


def candidates(evidence: Evidence) -> Found:
    """The separated templates of the plain examples, compiled: the family of separated templates
    (:class:`cegis.symbolic.merging.evidence.Family`); none for positives past :data:`MOST_LENGTH`."""
    positives, negatives = evidence.plain
    cache = evidence.cache
    if max(map(len, positives), default=0) > MOST_LENGTH:
        return Found()
    return spelled(
        separated_hypotheses(positives, negatives, evidence.universe, cache=cache),
        evidence.universe,
        "separated",
        cache,
    )
