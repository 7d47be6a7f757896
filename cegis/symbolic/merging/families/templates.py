"""Hypotheses written the way a person writes a regex for plain examples: fields and separators.

Practical strings (``12345-6789``, ``#a3f0c1``, ``2023-01-05``) are runs of word characters between
punctuation. Each positive is cut into that *skeleton*; each run of a skeleton is written from the
values the positives show there (:mod:`.run_writing`), from general to specific: a class of the prior repeated without
bound or counted (``[0-9]+``, ``[0-9]{5}``), per position (``[0-2][0-9]``), or by its first
character (``0[1-9]|1[0-2]``). Runs are made specific, one at a time, only while negatives of their
skeleton are accepted; one more writing has every run at its narrowest (its value, or its class
counted from the shortest value to the longest), for negatives that only runs narrowed together
reject. A second set writes a run of a character the examples set apart as that
character (:mod:`.classes`: ``h{3,}``, not ``[a-z]{3,}``). The templates compete with the merged
hypotheses on description length."""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Sequence
from typing import Literal

import attrs
import numpy as np

from automata.algebra.ops import accepts_many
from cegis.symbolic.merging.candidate import Found, automaton_of, spelled
from cegis.symbolic.merging.core.run_cache import RunCache
from cegis.symbolic.merging.evidence import Evidence
from cegis.symbolic.merging.families.classes import inferred_classes
from cegis.symbolic.merging.families.digit_bounds import SIGNIFICANCE
from cegis.symbolic.merging.families.prior import DIGITS, LOWER, NAMED, UPPER
from cegis.symbolic.merging.families.run_writing import (
    NARROWING_EVIDENCE,
    Home,
    bounded_default,
    counted_run,
    levels,
    narrowest_run,
)
from oracle.examples import Example
from regexlang.ast import Epsilon, Optional, Regex, concat, union
from regexlang.ast import text as text_regex
from regexlang.charset import CharSet

#: Characters that make up runs (word characters); everything else separates them.
RUN_CHARS = NAMED[-1]

#: Levels of detail written for every run alike (unbounded, counted); more specific levels only
#: where negatives ask for them, since a few positives would make them memorize.
UNIFORM_LEVELS = 2

#: Most skeletons a template may list; past it the positives have no one shape.
MOST_SKELETONS = 12


#: A skeleton: separators as strings, runs as the number of their kind (:func:`_kind`).
_Skeleton = tuple[str | int, ...]

#: How finely positives are cut into runs: ``word`` runs of word characters, ``class`` runs of
#: one class each (digits, lower case, upper case: ``abcDEF12`` is three runs), ``letters`` runs of
#: digits or of letters (``abcDEF12`` is two), or ``whole``: the whole string one run.
Cut = Literal["word", "class", "letters", "whole"]
CUTS: tuple[Cut, ...] = (
    "word",
    "class",
)  # the cuts a separated slot is written in (:mod:`.separated`)
_KINDS = {"class": (DIGITS, LOWER, UPPER), "letters": (DIGITS, LOWER | UPPER)}


@attrs.frozen
class Template:
    """One template: its regex, how it was written (as a proposal's reasoning says it), the number
    of skeletons it unites, and whether every run is at its narrowest (:func:`narrowest_run`)."""

    regex: Regex
    how: str
    skeletons: int
    narrowest: bool = False


def template_hypotheses(
    positives: Sequence[str],
    negatives: Sequence[str],
    universe: CharSet,
    cut: Cut = "word",
    evidence: int = NARROWING_EVIDENCE,
    narrowest: bool = False,
    significance: float = SIGNIFICANCE,
    *,
    cache: RunCache | None = None,
) -> list[Template]:
    """The templates of the positives: every run at one of the :data:`UNIFORM_LEVELS` of detail
    (narrowed below its class from ``evidence`` values, :data:`NARROWING_EVIDENCE` for strings
    given up front, and a zero-padded field's leading digit bounded where the values show a bound
    at ``significance``, :mod:`.digit_bounds`), every run as general as the negatives of its
    skeleton allow (a field that none narrowed bounded as at the uniform levels,
    :func:`.run_writing.bounded_default`), and with
    ``narrowest`` every run at its narrowest (:func:`narrowest_run`, marked so even where it is
    another too). Positives whose skeletons differ only in the separators before the first run
    or after the last share their runs (``-?[0-9]+\\.[0-9]+``); the template is the union of the
    skeletons with their common first and last parts written once, none when there are more than
    :data:`MOST_SKELETONS`. The run's ``cache`` remembers the classes inferred and the automata
    compiled (none: nothing is kept)."""
    run_cache = cache or RunCache()
    groups: dict[_Skeleton, list[tuple[str, list[str], str]]] = defaultdict(list)
    for string in positives:
        skeleton, before, runs, after = cut_runs(string, cut)
        groups[skeleton].append((before, runs, after))
    if not groups or len(groups) > MOST_SKELETONS:
        return []
    shapes = sorted(groups, key=str)
    ends = {s: ({p for p, _, _ in groups[s]}, {x for _, _, x in groups[s]}) for s in shapes}
    against: dict[_Skeleton, list[list[str]]] = defaultdict(list)
    for string in negatives:
        skeleton, prefix, runs, suffix = cut_runs(string, cut)
        if skeleton in groups and prefix in ends[skeleton][0] and suffix in ends[skeleton][1]:
            against[skeleton].append(runs)

    def template(chosen: dict[_Skeleton, list[Regex]]) -> Regex:
        parts = [[_affix(ends[s][0]), *_written(s, chosen[s]), _affix(ends[s][1])] for s in shapes]
        return _factored([[part for part in option if part != Epsilon()] for option in parts])

    out: dict[Regex, Template] = {}

    def add(
        chosen: dict[_Skeleton, list[Regex]], written: str, home: Home, narrowest: bool = False
    ) -> None:
        """The template of the ``chosen`` runs, unless one of its language came first (the
        narrowest writing is marked so whichever came first)."""
        regex = template(chosen)
        through = ", through inferred classes" if home.classes else ""
        if narrowest or regex not in out:
            out[regex] = Template(
                regex,
                f"template ({cut} runs {written}, {len(shapes)} skeletons{through})",
                len(shapes),
                narrowest,
            )

    inferred = _inferred(positives, negatives, universe, run_cache)
    for home in (
        Home(universe, (), significance, run_cache),
        *([Home(universe, inferred, significance, run_cache)] if len(inferred) > 1 else []),
    ):
        unbounded = attrs.evolve(
            home, significance=0.0
        )  # negatives narrow a field to what its positives show
        ladders = {
            s: [
                levels([r[i] for _, r, _ in groups[s]], home, evidence=evidence)
                for i in range(len(groups[s][0][1]))
            ]
            for s in shapes
        }
        for level in range(UNIFORM_LEVELS):
            uniform = {
                s: [ladder[min(level, len(ladder) - 1)] for ladder in ladders[s]] for s in shapes
            }
            add(uniform, f"at level {level}", home)
        columns = {
            s: [[r[i] for _, r, _ in groups[s]] for i in range(len(groups[s][0][1]))]
            for s in shapes
        }
        steps = {
            s: [levels(column, unbounded, fitting=True) for column in columns[s]] for s in shapes
        }
        fitted = {
            s: [
                bounded_default(run, column, home)
                for run, column in zip(
                    _fitted(steps[s], against[s], universe, run_cache), columns[s]
                )
            ]
            for s in shapes
        }
        add(fitted, "fitted", home)
        longest = max(map(len, positives))
        horizon = {s: _horizon(s, groups[s], home, longest) for s in shapes}
        add(horizon, "counted, unbounded at the longest", home)
        if narrowest:
            tightest = {
                s: [
                    narrowest_run([r[i] for _, r, _ in groups[s]], home)
                    for i in range(len(groups[s][0][1]))
                ]
                for s in shapes
            }
            add(tightest, "at their narrowest", home, narrowest=True)
    return list(out.values())


def _horizon(
    skeleton: _Skeleton, shown: Sequence[tuple[str, list[str], str]], home: Home, longest: int
) -> list[Regex]:
    """Runs as their class counted, except a run as long as the ``longest`` positive leaves room for,
    unbounded: its bound says how long the examples are, not how long the run may be (a teacher
    whose strings end at 32 characters cannot show ``X{30}``)."""
    separators = sum(len(part) for part in skeleton if isinstance(part, str))
    totals = [
        len(before) + len(after) + separators + sum(map(len, runs)) for before, runs, after in shown
    ]
    out = []
    for i in range(len(shown[0][1])):
        values = [runs[i] for _, runs, _ in shown]
        rest = min(total - len(value) for total, value in zip(totals, values))
        out.append(
            counted_run(values, max(map(len, values)) + rest >= longest, home, bounded_below=True)
        )
    return out


def _inferred(
    positives: Sequence[str], negatives: Sequence[str], universe: CharSet, cache: RunCache
) -> tuple[CharSet, ...]:
    return inferred_classes(
        [*(Example(p, True) for p in positives), *(Example(n, False) for n in negatives)],
        universe,
        cache,
    )


def _kind(char: str, cut: Cut) -> int:
    """The kind of run ``char`` belongs to under ``cut`` (-1: a separator)."""
    if cut in ("word", "whole"):
        return 0 if cut == "whole" or char in RUN_CHARS else -1
    return next((k for k, chars in enumerate(_KINDS[cut]) if char in chars), -1)


def cut_runs(string: str, cut: Cut) -> tuple[_Skeleton, str, list[str], str]:
    """The skeleton of ``string`` from its first run to its last, the separators before and after
    it, and its runs in order."""
    skeleton: list[str | int] = []
    runs: list[str] = []
    kinds = {char: _kind(char, cut) for char in set(string)}  # long strings repeat few characters
    for kind, chars in itertools.groupby(string, kinds.__getitem__):
        if kind >= 0:
            skeleton.append(kind)
            runs.append("".join(chars))
        else:
            skeleton.extend(chars)
    if not runs:
        return (), string, [], ""
    marks = [isinstance(part, int) for part in skeleton]
    first, last = marks.index(True), len(marks) - marks[::-1].index(True)
    before, after = (
        string[:first],
        string[len(string) - (len(skeleton) - last) :] if last < len(skeleton) else "",
    )
    return tuple(skeleton[first:last]), before, runs, after


def _affix(values: set[str]) -> Regex:
    """Separators before or after the runs: the ones shown, optional when some positive has none."""
    shown = union(*(text_regex(v) for v in sorted(values) if v))
    return (
        Optional(shown)
        if "" in values and len(values) > 1
        else shown
        if len(values) > 1 or "" not in values
        else Epsilon()
    )


def _written(skeleton: _Skeleton, runs: Sequence[Regex]) -> list[Regex]:
    """The parts of one skeleton's template: separators as themselves, runs as given."""
    given = iter(runs)
    return [next(given) if isinstance(part, int) else text_regex(part) for part in skeleton]


def _fitted(
    ladders: Sequence[Sequence[Regex]],
    negatives: Sequence[Sequence[str]],
    universe: CharSet,
    cache: RunCache,
) -> list[Regex]:
    """Per run, the most general level such that no negative of the skeleton has every run
    accepted: one run at a time is made more specific, each time the run and level that leave the
    fewest negatives accepted (the most general on a tie), until none is or no run can help."""
    levels = [0] * len(ladders)
    if not negatives:
        return [ladder[0] for ladder in ladders]
    accepted = [  # automata remembered: a lone run's level is its whole template, which the learner compiles again
        [
            accepts_many(automaton_of(regex, universe, cache), [n[i] for n in negatives])
            for regex in ladder
        ]
        for i, ladder in enumerate(ladders)
    ]

    def still(chosen: Sequence[int]) -> int:
        together = np.ones(len(negatives), dtype=bool)
        for i, level in enumerate(chosen):
            together &= accepted[i][level]
        return int(together.sum())

    left = still(levels)
    while left:
        # the negatives every other run accepts at its level: a trial changes one run
        others = _all_but_each([accepted[i][level] for i, level in enumerate(levels)])
        trials = [
            (int((others[i] & accepted[i][deeper]).sum()), deeper, i)
            for i in range(len(ladders))
            for deeper in range(levels[i] + 1, len(ladders[i]))
        ]
        if not trials or min(trials)[0] >= left:
            break
        left, deeper, i = min(trials)
        levels[i] = deeper
    return [ladder[level] for ladder, level in zip(ladders, levels)]


def _all_but_each(rows: Sequence[np.ndarray]) -> list[np.ndarray]:
    """For each of ``rows`` (boolean vectors), the conjunction of all the others."""
    if not rows:
        return []
    before = [np.ones_like(rows[0])]
    for row in rows[:-1]:
        before.append(before[-1] & row)
    out = [before[-1]]
    after = np.ones_like(rows[0])
    for i in range(len(rows) - 1, 0, -1):
        after = after & rows[i]
        out.append(before[i - 1] & after)
    return out[::-1]


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
    while (
        count < shortest
        and len({parts[len(parts) - 1 - count] if from_end else parts[count] for parts in options})
        == 1
    ):
        count += 1
    return count


def candidates(evidence: Evidence) -> Found:
    """The templates of the loop's examples at every cut (:data:`CUTS`), compiled: the family of
    templates (:class:`cegis.symbolic.merging.evidence.Family`). A run is narrowed below its class
    from any number of values (strings given up front are read by :mod:`.shapes`, which narrows
    from :data:`NARROWING_EVIDENCE`): the loop's first examples are random draws whose first
    proposal the teacher refutes anyway, and read at their class (``[a-z]{2}`` for ``ao``) they drew
    counterexamples from which held-out StructuredRegex runs of the paper's protocol never recovered.
    No field's leading digit is bounded from the digits shown (:mod:`.digit_bounds`): a teacher's
    counterexamples show a bound where the target has one."""
    positives, negatives = evidence.plain
    written = [
        (t.regex, t.how)
        for cut in CUTS
        for t in template_hypotheses(
            positives,
            negatives,
            evidence.universe,
            cut,
            evidence=0,
            significance=0.0,
            cache=evidence.cache,
        )
    ]
    return spelled(written, evidence.universe, "templates", evidence.cache)
