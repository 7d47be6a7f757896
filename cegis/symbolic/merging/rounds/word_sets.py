"""A hypothesis's runs of a class whose length varies, listed as words where the positives show too
few distinct values for the class: ``(?:ERROR|INFO|WARN): [a-z ]+``, not ``[A-Z]+: [a-z ]+``.

Five positives ``WARN: disk``, ``ERROR: full``, ``WARN: x``, ``WARN: retry``, ``INFO: up`` read
through the class prior give ``[A-Z]+``; a person sees three words, one of them three times.
Description length prefers the class until about seven positives (a word costs its letters as
literals, each more than the class saves on a positive), and near misses reach the words only when
one puts another word of the class there (:mod:`cegis.symbolic.merging.families.run_writing`). But
repeats are evidence on their own: ``n`` values drawn from a class show at most ``k`` distinct values
with probability at most ``C(N, k) (k/N)^n ≤ k^n / (k! N^(n-k))``, where ``N`` is the number of
strings of the shortest length shown (:func:`chance`). Three distinct four-letter words in five
draws from ``[A-Z]{4}`` happen about twice in ten billion; four distinct two-letter words in five
draws from ``[a-z]{2}`` six times in a hundred. Where that chance is below :data:`SIGNIFICANCE` and
the values read as words (two to :data:`.run_writing.MOST_WORDS` of them, letters only, two to
:data:`.run_writing.LONGEST_WORD` long), the run is the words listed.

Not a run counted to one length (``[a-z]{3}``): five positives cannot tell three words from four
(``eur``, ``gbp`` three times, ``usd``: ``jpy`` unseen), and a list that misses a word rejects every
string with it, while the class counted only accepts the near misses that put another letter in a
word. On ``bench examples``' rows at 5 + 5 (seeds 0-3), listing such runs gained 0.19 of held-out
accuracy summed over five rows of three words and lost 0.46 on one row of four words; a class of
lengths that vary (``[A-Z]+``, ``[a-z]{3,}``) also accepts longer and shorter words, and listing it
gained 0.21 with no loss.

Only runs a string passes through once (not inside a repetition) are read, by matching the
positives with a group around each run. A positive that shows an earlier one's value there and at
another run too is a variation of that string (``PW574mRT``, ``PW574mzb``), not another draw
(:func:`drawn`). The result only narrows the language; it is proposed only where it still labels
every example right. For strings given up front (:mod:`.selection`'s listing cap), as
:mod:`.unbounded`."""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Sequence

from automata.core.dfa import DFA
from automata.errors import AutomataError
from cegis.hypothesis import read_hypothesis
from cegis.symbolic.merging.candidate import automaton_of
from cegis.symbolic.merging.core.run_cache import RunCache
from cegis.symbolic.merging.families.run_writing import LONGEST_WORD, MOST_WORDS
from cegis.symbolic.merging.families.separated import python_pattern
from oracle.clustered import misclassified
from oracle.examples import Counterexample
from regexlang.ast import Chars, Concat, Optional, Plus, Regex, Repeat, Star, Union, concat, union
from regexlang.ast import text as text_regex
from regexlang.charset import CharSet
from regexlang.dialects import Dialect, unparse
from regexlang.errors import RegexError

#: Largest chance (:func:`chance`) at which the values of a class run are read as a few words.
SIGNIFICANCE = 0.01

#: Where a node sits in a regex: the index of the child taken at each level from the root.
_Path = tuple[int, ...]


def listed_words_text(
    text: str,
    dfa: DFA,
    examples: Sequence[Counterexample],
    positives: Sequence[str],
    dialect: Dialect,
    universe: CharSet,
    cache: RunCache,
) -> tuple[str, DFA]:
    """The printed hypothesis ``text`` (automaton ``dfa``) with its class runs that the positives
    show as a few words listed (:func:`listed_words`), printed in ``dialect``; or as it is, when no
    run reads as words or the result mislabels an example."""
    regex = read_hypothesis(text, dialect, universe)
    narrowed = listed_words(regex, positives)
    if narrowed == regex:
        return text, dfa
    try:
        automaton = automaton_of(narrowed, universe, cache)
        if misclassified(automaton, examples):
            return text, dfa
        return unparse(narrowed, dialect, universe), automaton
    except (AutomataError, RegexError):
        return text, dfa


def listed_words(regex: Regex, positives: Sequence[str]) -> Regex:
    """``regex`` with each run of a class whose length varies, that strings pass through once, and
    whose values in the ``positives`` read as a few words too often repeated for the class
    (:func:`reads_as_words`), replaced by those words listed."""
    runs = list(_runs(regex, ()))
    if not runs:
        return regex
    pattern = re.compile(_marked(regex, (), {path for path, _, _ in runs}))
    matches = [pattern.fullmatch(p) for p in positives]
    if not all(matches):  # a print that rejects a positive: nothing to read
        return regex
    rows = [m.groups() for m in matches if m is not None]
    words: dict[_Path, Regex] = {}
    for index, (path, chars, varies) in enumerate(runs):
        values = drawn(rows, index)
        if varies and reads_as_words(values, len(chars)):
            words[path] = union(*map(text_regex, sorted(set(values))))
    return _replaced(regex, (), words) if words else regex


def drawn(rows: Sequence[Sequence[str | None]], index: int) -> list[str]:
    """The values of run ``index`` in ``rows`` (the runs' values in each positive; None: not
    passed), each positive counted once as a draw except one that shows the same value there and
    at another run as an earlier positive: a variation of that string (``PW574mRT``, ``PW574mzb``),
    not a second draw of the run."""
    kept: list[Sequence[str | None]] = []
    for row in rows:
        value = row[index]
        if value is None:
            continue
        if any(
            other[index] == value
            and any(
                a is not None and a == b for j, (a, b) in enumerate(zip(other, row)) if j != index
            )
            for other in kept
        ):
            continue
        kept.append(row)
    return [str(row[index]) for row in kept]


def reads_as_words(values: Sequence[str], class_size: int) -> bool:
    """Whether ``values`` (of a run of a class of ``class_size`` characters) read as words from a
    small set: two to :data:`.run_writing.MOST_WORDS` distinct ones, letters only, two to
    :data:`.run_writing.LONGEST_WORD` long, with fewer distinct values than the class would show
    but by :func:`chance` below :data:`SIGNIFICANCE`."""
    distinct = set(values)
    return (
        2 <= len(distinct) <= MOST_WORDS
        and len(distinct) < len(values)
        and all(2 <= len(v) <= LONGEST_WORD and v.isascii() and v.isalpha() for v in distinct)
        and chance(len(values), len(distinct), class_size ** min(map(len, distinct))) < SIGNIFICANCE
    )


def chance(draws: int, distinct: int, strings: int) -> float:
    """An upper bound on the probability that ``draws`` uniform draws from ``strings`` equally
    likely strings show at most ``distinct`` distinct ones: ``k^n / (k! N^(n-k))``."""
    log = (
        draws * math.log(distinct)
        - math.lgamma(distinct + 1)
        - (draws - distinct) * math.log(strings)
    )
    return math.exp(min(log, 0.0))


def _runs(regex: Regex, path: _Path) -> Iterator[tuple[_Path, CharSet, bool]]:
    """The runs of a class (``[0-9]{2}``, ``[A-Z]+``, ``[a-z]{4}|[a-z]{6}``) that a string passes
    through at most once (not inside a repetition), with their paths, classes, and whether their
    length varies (not ``[a-z]{3}``)."""
    match regex:
        case Repeat(Chars(chars), low, high) if len(chars) > 1:
            yield path, chars, low != high
        case Plus(Chars(chars)) | Star(Chars(chars)) if len(chars) > 1:
            yield path, chars, True
        case Union(options) if (listed := _lengths_listed(options)) is not None:
            yield path, listed, True
        case Concat(children) | Union(children):
            for index, child in enumerate(children):
                yield from _runs(child, (*path, index))
        case Optional(inner):
            yield from _runs(inner, (*path, 0))


def _lengths_listed(options: Sequence[Regex]) -> CharSet | None:
    """The class of ``options`` when they are one class counted to a few lengths
    (``[a-z]{4}|[a-z]{6}``: a run of lengths that vary), else None."""
    classes: set[CharSet] = set()
    for option in options:
        match option:
            case Chars(chars) | Repeat(Chars(chars), _, _):
                classes.add(chars)
            case _:
                return None
    chars = classes.pop() if len(classes) == 1 else CharSet.of("")
    return chars if len(chars) > 1 else None


def _marked(regex: Regex, path: _Path, marked: set[_Path]) -> str:
    """``regex`` as a Python pattern with a group around each node at a ``marked`` path (numbered
    in the order :func:`_runs` finds them)."""
    if path in marked:
        return f"({python_pattern(regex)})"
    match regex:
        case Concat(parts):
            return "".join(
                f"(?:{_marked(part, (*path, i), marked)})" for i, part in enumerate(parts)
            )
        case Union(options):
            return "|".join(
                f"(?:{_marked(option, (*path, i), marked)})" for i, option in enumerate(options)
            )
        case Optional(inner):
            return f"(?:{_marked(inner, (*path, 0), marked)})?"
    return python_pattern(regex)


def _replaced(regex: Regex, path: _Path, new: dict[_Path, Regex]) -> Regex:
    """``regex`` with the node at each path of ``new`` replaced by its value."""
    if path in new:
        return new[path]
    match regex:
        case Concat(parts):
            return concat(*(_replaced(part, (*path, i), new) for i, part in enumerate(parts)))
        case Union(options):
            return union(*(_replaced(option, (*path, i), new) for i, option in enumerate(options)))
        case Optional(inner):
            return Optional(_replaced(inner, (*path, 0), new))
    return regex
