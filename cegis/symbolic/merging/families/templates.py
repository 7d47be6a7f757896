"""Hypotheses written the way a person writes a regex for plain examples: fields and separators.

Practical strings (``12345-6789``, ``#a3f0c1``, ``2023-01-05``) are runs of word characters between
punctuation. Each positive is cut into that *skeleton*; each run of a skeleton is written from the
values the positives show there, from general to specific: a class of the prior repeated without
bound or counted (``[0-9]+``, ``[0-9]{5}``), per position (``[0-2][0-9]``), or by its first
character (``0[1-9]|1[0-2]``). Runs are made specific, one at a time, only while negatives of their
skeleton are accepted; one more writing has every run at its narrowest (its value, or its class
counted from the shortest value to the longest), for negatives that only runs narrowed together
reject. A second set writes a run of a character the examples set apart as that
character (:mod:`.classes`: ``h{3,}``, not ``[a-z]{3,}``). The templates compete with the merged
hypotheses on description length."""

from __future__ import annotations

import functools
import itertools
from collections import defaultdict
from collections.abc import Sequence
from typing import Literal

import attrs
import numpy as np

from automata.ops import accepts_many
from cegis.symbolic.merging.candidate import Found, automaton_of, spelled
from cegis.symbolic.merging.evidence import Evidence
from cegis.symbolic.merging.families.classes import inferred_classes
from cegis.symbolic.merging.families.prior import DIGITS, LOWER, NAMED, UPPER
from oracle.examples import Example
from regexlang.ast import Chars, Epsilon, Optional, Plus, Regex, Repeat, Star, concat, union
from regexlang.ast import text as text_regex
from regexlang.charset import CharSet

#: The parts a run class is made of.
_PARTS = (DIGITS, LOWER, UPPER, CharSet.of("_"))

#: Characters that make up runs (word characters); everything else separates them.
RUN_CHARS = NAMED[-1]

#: Most distinct values a run may list as alternatives (``com|org|net``) instead of a class, when
#: each is shown at least twice on average.
MOST_VALUES = 4

#: Levels of detail written for every run alike (unbounded, counted); more specific levels only
#: where negatives ask for them, since a few positives would make them memorize.
UNIFORM_LEVELS = 2

#: Values of a run from which a level written for every run alike may narrow it below its class
#: (per position, ``[0-2][0-9]``): fewer show the characters they happen to use.
NARROWING_EVIDENCE = 30

#: Longest fixed-length run read by its first character (``0[1-9]|1[0-2]``).
MOST_SPLIT = 3

#: Most skeletons a template may list; past it the positives have no one shape.
MOST_SKELETONS = 12

#: How the writing of every run at its narrowest is named (:func:`_narrowest`).
NARROWEST = "at their narrowest"

#: A skeleton: separators as strings, runs as the number of their kind (:func:`_kind`).
_Skeleton = tuple[str | int, ...]

#: How finely positives are cut into runs: ``word`` runs of word characters, ``class`` runs of
#: one class each (digits, lower case, upper case: ``abcDEF12`` is three runs), ``letters`` runs of
#: digits or of letters (``abcDEF12`` is two), or ``whole``: the whole string one run.
Cut = Literal["word", "class", "letters", "whole"]
CUTS: tuple[Cut, ...] = ("word", "class")  # the cuts a separated slot is written in (:mod:`.separated`)
_KINDS = {"class": (DIGITS, LOWER, UPPER), "letters": (DIGITS, LOWER | UPPER)}


def template_hypotheses(
    positives: Sequence[str],
    negatives: Sequence[str],
    universe: CharSet,
    cut: Cut = "word",
    evidence: int = NARROWING_EVIDENCE,
    narrowest: bool = False,
) -> list[tuple[Regex, str]]:
    """The templates of the positives: every run at one of the :data:`UNIFORM_LEVELS` of detail
    (narrowed below its class from ``evidence`` values, :data:`NARROWING_EVIDENCE` for strings
    given up front), every run as general as the negatives of its skeleton allow, and with
    ``narrowest`` every run at its narrowest (:func:`_narrowest`, named :data:`NARROWEST` even where
    it is another too). Positives whose skeletons differ only in the separators before the first run
    or after the last share their runs (``-?[0-9]+\\.[0-9]+``); the template is the union of the skeletons with their common first
    and last parts written once, none when there are more than :data:`MOST_SKELETONS`."""
    groups: dict[_Skeleton, list[tuple[str, list[str], str]]] = defaultdict(list)
    for string in positives:
        skeleton, before, runs, after = _cut(string, cut)
        groups[skeleton].append((before, runs, after))
    if not groups or len(groups) > MOST_SKELETONS:
        return []
    shapes = sorted(groups, key=str)
    ends = {s: ({p for p, _, _ in groups[s]}, {x for _, _, x in groups[s]}) for s in shapes}
    against: dict[_Skeleton, list[list[str]]] = defaultdict(list)
    for string in negatives:
        skeleton, prefix, runs, suffix = _cut(string, cut)
        if skeleton in groups and prefix in ends[skeleton][0] and suffix in ends[skeleton][1]:
            against[skeleton].append(runs)

    def template(chosen: dict[_Skeleton, list[Regex]]) -> Regex:
        parts = [[_affix(ends[s][0]), *_written(s, chosen[s]), _affix(ends[s][1])] for s in shapes]
        return _factored([[part for part in option if part != Epsilon()] for option in parts])

    out: dict[Regex, str] = {}
    inferred = _inferred(positives, negatives, universe)
    for home in (_Home(universe), *([_Home(universe, inferred)] if len(inferred) > 1 else [])):
        through = ", through inferred classes" if home.classes else ""
        ladders = {s: [_levels([r[i] for _, r, _ in groups[s]], home, evidence=evidence) for i in range(len(groups[s][0][1]))] for s in shapes}
        for level in range(UNIFORM_LEVELS):
            uniform = {s: [ladder[min(level, len(ladder) - 1)] for ladder in ladders[s]] for s in shapes}
            out.setdefault(template(uniform), f"template ({cut} runs at level {level}, {len(shapes)} skeletons{through})")
        steps = {s: [_levels([r[i] for _, r, _ in groups[s]], home, fitting=True) for i in range(len(groups[s][0][1]))] for s in shapes}
        fitted = {s: _fitted(steps[s], against[s], universe) for s in shapes}
        out.setdefault(template(fitted), f"template ({cut} runs fitted, {len(shapes)} skeletons{through})")
        longest = max(map(len, positives))
        horizon = {s: _horizon(s, groups[s], home, longest) for s in shapes}
        out.setdefault(template(horizon), f"template ({cut} runs counted, unbounded at the longest, {len(shapes)} skeletons{through})")
        if narrowest:
            tightest = {s: [_narrowest([r[i] for _, r, _ in groups[s]], home) for i in range(len(groups[s][0][1]))] for s in shapes}
            out[template(tightest)] = f"template ({cut} runs {NARROWEST}, {len(shapes)} skeletons{through})"
    return list(out.items())


def _narrowest(values: Sequence[str], home: _Home) -> Regex:
    """A run at its narrowest class-and-count writing: the value every positive shows there, or the
    smallest class holding the values counted from the shortest to the longest. Fitting makes one
    run more specific at a time and stops when no one run rejects more negatives; when only runs
    narrowed together reject a negative, this writing still does."""
    if len(set(values)) == 1:
        return text_regex(values[0])
    return _counted(values, False, home, bounded_below=True)


def run_levels(values: Sequence[str], universe: CharSet) -> list[Regex]:
    """The values of one run (word characters only) written from general to specific, as the
    templates fit a run to negatives: the class repeated, counted, per position, by the first
    character, listed, the characters shown."""
    return _levels(values, _Home(universe), fitting=True)


def _horizon(skeleton: _Skeleton, shown: Sequence[tuple[str, list[str], str]], home: _Home, longest: int) -> list[Regex]:
    """Runs as their class counted, except a run as long as the ``longest`` positive leaves room for,
    unbounded: its bound says how long the examples are, not how long the run may be (a teacher
    whose strings end at 32 characters cannot show ``X{30}``)."""
    separators = sum(len(part) for part in skeleton if isinstance(part, str))
    totals = [len(before) + len(after) + separators + sum(map(len, runs)) for before, runs, after in shown]
    out = []
    for i in range(len(shown[0][1])):
        values = [runs[i] for _, runs, _ in shown]
        rest = min(total - len(value) for total, value in zip(totals, values))
        out.append(_counted(values, max(map(len, values)) + rest >= longest, home, bounded_below=True))
    return out


@attrs.frozen
class _Home:
    """Where run classes come from: the universe and, when inferred from the examples
    (:func:`.classes.inferred_classes`), the classes that set single characters apart."""

    universe: CharSet
    classes: tuple[CharSet, ...] = ()


def _inferred(positives: Sequence[str], negatives: Sequence[str], universe: CharSet) -> tuple[CharSet, ...]:
    return inferred_classes([*(Example(p, True) for p in positives), *(Example(n, False) for n in negatives)], universe)


def _kind(char: str, cut: Cut) -> int:
    """The kind of run ``char`` belongs to under ``cut`` (-1: a separator)."""
    if cut in ("word", "whole"):
        return 0 if cut == "whole" or char in RUN_CHARS else -1
    return next((k for k, chars in enumerate(_KINDS[cut]) if char in chars), -1)


def _cut(string: str, cut: Cut) -> tuple[_Skeleton, str, list[str], str]:
    """The skeleton of ``string`` from its first run to its last, the separators before and after
    it, and its runs in order."""
    skeleton: list[str | int] = []
    runs: list[str] = []
    for kind, chars in itertools.groupby(string, lambda c: _kind(c, cut)):
        if kind >= 0:
            skeleton.append(kind)
            runs.append("".join(chars))
        else:
            skeleton.extend(chars)
    if not runs:
        return (), string, [], ""
    marks = [isinstance(part, int) for part in skeleton]
    first, last = marks.index(True), len(marks) - marks[::-1].index(True)
    before, after = string[:first], string[len(string) - (len(skeleton) - last) :] if last < len(skeleton) else ""
    return tuple(skeleton[first:last]), before, runs, after


def _affix(values: set[str]) -> Regex:
    """Separators before or after the runs: the ones shown, optional when some positive has none."""
    shown = union(*(text_regex(v) for v in sorted(values) if v))
    return Optional(shown) if "" in values and len(values) > 1 else shown if len(values) > 1 or "" not in values else Epsilon()


def _written(skeleton: _Skeleton, runs: Sequence[Regex]) -> list[Regex]:
    """The parts of one skeleton's template: separators as themselves, runs as given."""
    given = iter(runs)
    return [next(given) if isinstance(part, int) else text_regex(part) for part in skeleton]


def _fitted(ladders: Sequence[Sequence[Regex]], negatives: Sequence[Sequence[str]], universe: CharSet) -> list[Regex]:
    """Per run, the most general level such that no negative of the skeleton has every run
    accepted: one run at a time is made more specific, each time the run and level that leave the
    fewest negatives accepted (the most general on a tie), until none is or no run can help."""
    levels = [0] * len(ladders)
    if not negatives:
        return [ladder[0] for ladder in ladders]
    accepted = [  # automata remembered: a lone run's level is its whole template, which the learner compiles again
        [accepts_many(automaton_of(regex, universe), [n[i] for n in negatives]) for regex in ladder]
        for i, ladder in enumerate(ladders)
    ]

    def still(chosen: Sequence[int]) -> int:
        together = np.ones(len(negatives), dtype=bool)
        for i, level in enumerate(chosen):
            together &= accepted[i][level]
        return int(together.sum())

    left = still(levels)
    while left:
        trials = [
            (still([*levels[:i], deeper, *levels[i + 1 :]]), deeper, i)
            for i in range(len(ladders))
            for deeper in range(levels[i] + 1, len(ladders[i]))
        ]
        if not trials or min(trials)[0] >= left:
            break
        left, deeper, i = min(trials)
        levels[i] = deeper
    return [ladder[level] for ladder, level in zip(ladders, levels)]


def _levels(values: Sequence[str], home: _Home, fitting: bool = False, evidence: int = NARROWING_EVIDENCE) -> list[Regex]:
    """One run written from general to specific (distinct regexes only). For a level written for
    every run alike (not ``fitting``), a run of fewer than ``evidence`` values stops
    at its class counted from one (and its values listed): narrower classes and lower bounds read
    from a few values are chance, which only a negative makes worth writing. To fit negatives, a
    run is bounded below (``h{3,}``) before above, and counted from one before from its shortest;
    its most specific levels are the characters shown, overall or first and then the rest's
    (``a[bc]+``), and lengths with gaps, unless periodic, only where each is shown twice on average."""
    distinct = sorted(set(values))
    lengths = sorted({len(v) for v in distinct})
    if fitting:
        options: list[Regex] = [
            _counted(distinct, True, home),
            _counted(distinct, True, home, bounded_below=True),
            _counted(distinct, False, home),
            _counted(distinct, False, home, bounded_below=True),
        ]
    else:
        options = [_counted(distinct, True, home), _counted(distinct, False, home, bounded_below=len(values) >= evidence)]
    counted = len(options)
    narrowed = fitting or len(values) >= evidence
    if narrowed and len(lengths) == 1:
        options.append(_grouped([Chars(_snapped(CharSet.of(c), home)) for c in zip(*distinct)]))
        options.append(_grouped([Chars(_span(CharSet.of(c), home)) for c in zip(*distinct)]))
        if lengths[0] <= MOST_SPLIT:
            options.append(_by_first(distinct, home))
    elif narrowed:
        firsts = Chars(_smallest(CharSet.of("".join(v[0] for v in distinct)), home))
        options.append(concat(firsts, _counted([v[1:] for v in distinct], True, home)))
        options.append(_split_single(distinct, home))
    if len(distinct) <= MOST_VALUES and len(values) >= 2 * len(distinct):
        # Values of one character set apart (``O|OO|OOO``) read as a count (``O{1,3}``) first.
        options.insert(counted if _set_apart(CharSet.of("".join(distinct)), home) else 0, union(*map(text_regex, distinct)))
    if narrowed and lengths[-1] - lengths[0] >= len(lengths) and (_periodic(lengths) or len(values) >= 2 * len(lengths)):
        options.append(_gapped(Chars(_smallest(CharSet.of("".join(distinct)), home)), lengths))
    if narrowed:
        options.append(_shown(distinct, home))  # the most specific class: only where negatives ask for it
    if narrowed and len(lengths) > 1:  # the first characters shown, then the rest's (``a[bc]+``)
        shown_firsts = Chars(_span(CharSet.of("".join(v[0] for v in distinct)), home, snap=False))
        options.append(concat(shown_firsts, _shown([v[1:] for v in distinct], home)))
    return list(dict.fromkeys(options))


def _periodic(lengths: Sequence[int]) -> bool:
    """Whether the lengths are three or more evenly spaced (``0, 2, 4, 6``): a period repeated."""
    return len(lengths) >= 3 and len({b - a for a, b in itertools.pairwise(lengths)}) == 1


def _gapped(cls: Regex, lengths: Sequence[int]) -> Regex:
    """``cls`` repeated as often as the lengths shown, which have gaps: periodic lengths
    (:func:`_periodic`) as a period repeated without bound (``(?:[ab]{2})*``), else each as shown
    (``[a-z]{3}|[a-z]{5}``). Lengths each shown once are no levels but the positives' lengths
    listed (``.{10}|.{12}|.{26}|.{29}`` for four positives): :func:`_levels` asks each level to be
    shown twice on average, as it asks of values listed."""
    def times(n: int) -> Regex:
        return Epsilon() if n == 0 else cls if n == 1 else Repeat(cls, n, n)

    if _periodic(lengths):
        period = Star(times(lengths[1] - lengths[0]))
        return period if lengths[0] == 0 else concat(times(lengths[0]), period)
    return union(*map(times, lengths))


def _shown(values: Sequence[str], home: _Home) -> Regex:
    """The values as the range of characters they show inside their run class, repeated without
    bound (``[01]+`` for binary digits): narrower than the class, for when a negative forbids it."""
    chars = CharSet.of("".join(values))
    return _repeated(Chars(_span(chars, home, snap=False) if len(chars) > 1 else chars), values, True)


def _grouped(parts: Sequence[Regex]) -> Regex:
    """The parts in order, equal neighbours counted (``[0-9][0-9][0-9]`` as ``[0-9]{3}``)."""
    out: list[Regex] = []
    for part, same in itertools.groupby(parts):
        count = len(list(same))
        out.append(part if count == 1 else Repeat(part, count, count))
    return concat(*out)


def _counted(values: Sequence[str], open_ended: bool, home: _Home, bounded_below: bool = False) -> Regex:
    """The values as the smallest run class holding them (or their one character set apart),
    repeated as their lengths say (:func:`_repeated`)."""
    chars = CharSet.of("".join(values))
    return _repeated(Chars(chars if _set_apart(chars, home) else _smallest(chars, home)), values, open_ended, bounded_below)


def _repeated(cls: Regex, values: Sequence[str], open_ended: bool, bounded_below: bool = False) -> Regex:
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


def _set_apart(chars: CharSet, home: _Home) -> bool:
    """Whether ``chars`` is one character the inferred classes set apart: a run of it is written as
    itself (``h{3,}``; wider inferred classes narrow nothing: from a few examples they are chance)."""
    return len(chars) == 1 and chars in home.classes


def _split_single(values: Sequence[str], home: _Home) -> Regex:
    """Single characters apart from longer values, whose first character is read as the range the
    positives show (``0|[1-9][0-9]*`` for numbers without leading zeros)."""
    singles = [v for v in values if len(v) == 1]
    longer = [v for v in values if len(v) > 1]
    if not singles or not longer:
        return _counted(values, True, home)
    firsts = Chars(_span(CharSet.of("".join(v[0] for v in longer)), home, snap=False))
    return union(Chars(_smallest(CharSet.of("".join(singles)), home)), concat(firsts, _counted([v[1:] for v in longer], True, home)))


def _by_first(values: Sequence[str], home: _Home) -> Regex:
    """Fixed-length values as alternatives by their first character, the rest per position, first
    characters with the same rest joined (``0[1-9]|[12][0-9]|3[01]``)."""
    rests: dict[str, list[str]] = defaultdict(list)
    for value in values:
        rests[value[0]].append(value[1:])
    by_rest: dict[tuple[CharSet, ...], list[str]] = defaultdict(list)
    for first, tails in rests.items():
        by_rest[tuple(_span(CharSet.of(column), home, snap=False) for column in zip(*tails))].append(first)
    return union(*(concat(Chars(CharSet.of(firsts)), *map(Chars, rest)) for rest, firsts in by_rest.items()))


@functools.lru_cache(maxsize=4096)  # runs of one template share characters, and so do templates of one call
def _smallest(chars: CharSet, home: _Home) -> CharSet:
    """The smallest run class holding ``chars`` (within the universe) that the characters show
    each part of: digits, lower case, upper case, underscore (``[a-c]`` is not read as hex digits);
    else the smallest holding them (the class a person names, not the characters seen)."""
    holding = [c & home.universe for c in NAMED if chars.issubset(c)]
    fitting = [c for c in holding if all(chars & part for part in _PARTS if c & part)] or holding
    return min(fitting, key=len) if fitting else chars


def _snapped(chars: CharSet, home: _Home) -> CharSet:
    """The smallest run class holding ``chars``, for a single character only itself."""
    return chars if len(chars) == 1 else _smallest(chars, home)


def _span(chars: CharSet, home: _Home, snap: bool = True) -> CharSet:
    """``chars`` widened to the range they span inside the smallest run class holding them (people
    write ``[0-5]``, not ``[0-35]``), or, with ``snap``, to that class when the range is most of it."""
    whole = _smallest(chars, home)
    if len(chars) == 1:
        return chars
    span = CharSet.range(min(chars), max(chars)) & whole
    if snap and 5 * len(span) >= 4 * len(whole):
        return whole
    return span if len(span) <= 3 * len(chars) else whole


def _factored(options: Sequence[Sequence[Regex]]) -> Regex:
    """The union of the part sequences, with their common first and last parts written once (an
    option that is all common parts makes the rest optional)."""
    if len(options) == 1:
        return concat(*options[0])
    head = _common(options, False)
    rest = [parts[head:] for parts in options]
    tail = _common(rest, True)
    middles = [concat(*parts[: len(parts) - tail]) for parts in rest if len(parts) > tail]
    middle = union(*middles) if middles else Epsilon()
    if middles and len(middles) < len(rest):
        middle = Optional(middle)
    return concat(*options[0][:head], middle, *rest[0][len(rest[0]) - tail :])


def _common(options: Sequence[Sequence[Regex]], from_end: bool) -> int:
    """How many parts all options share at their start (or end)."""
    shortest = min(map(len, options))
    count = 0
    while count < shortest and len({parts[len(parts) - 1 - count] if from_end else parts[count] for parts in options}) == 1:
        count += 1
    return count


def candidates(evidence: Evidence) -> Found:
    """The templates of the loop's examples at every cut (:data:`CUTS`), compiled: the family of
    templates (:class:`cegis.symbolic.merging.evidence.Family`). A run is narrowed below its class
    from any number of values (strings given up front are read by :mod:`.shapes`, which narrows
    from :data:`NARROWING_EVIDENCE`): the loop's first examples are random draws whose first
    proposal the teacher refutes anyway, and read at their class (``[a-z]{2}`` for ``ao``) they drew
    counterexamples from which held-out StructuredRegex runs of the paper's protocol never recovered."""
    positives, negatives = evidence.plain
    written = [t for cut in CUTS for t in template_hypotheses(positives, negatives, evidence.universe, cut, evidence=0)]
    return spelled(written, evidence.universe, "templates")
