"""A hypothesis's bounded repetitions, unbounded where the examples and the prior allow.

Merging a few hundred strings whose middle repeats one to four times (``a-b``, ``a-b-c-d``) leaves
a chain of states that reads the unit at most four times, printed as a nest of optional groups
``x(?:-x(?:-x(?:-x)?)?)?``; from a few positives the template families count a class ``[0-9]{1,4}``.
A person writes ``x(?:-x)*`` and ``[0-9]+``: the bound is how long the examples happened to be.
:func:`unbounded_nests` writes the unbounded form (here, not with the prints of
:mod:`automata.printing`: it changes the language); it is proposed instead when it still labels
every example right (a negative with five repeats keeps the bound) and the prior prefers it: its
description length (:func:`.scoring.score`, plain examples read through the class prior) is no
longer than the bounded one's. The regex term falls (a star instead of nested copies, no bound to
name) and the data term rises by what naming each positive among more strings of its length costs;
so the unbounded form wins where the counts seen run from 0 or 1 to the bound without gaps and the
unit is cheap, and loses where few lengths are shown for a wide unit."""

from __future__ import annotations

from collections.abc import Sequence

from automata.core.dfa import DFA
from automata.errors import AutomataError
from cegis.hypothesis import read_hypothesis
from cegis.symbolic.merging.candidate import automaton_of
from cegis.symbolic.merging.core.run_cache import RunCache
from cegis.symbolic.merging.rounds.scoring import score
from oracle.clustered import misclassified
from oracle.examples import Counterexample
from regexlang.ast import Concat, Optional, Plus, Regex, Repeat, Star, Union, concat, union
from regexlang.charset import CharSet
from regexlang.dialects import Dialect, unparse
from regexlang.errors import RegexError


def loosened(
    regex: Regex,
    dfa: DFA,
    examples: Sequence[Counterexample],
    positives: Sequence[str],
    universe: CharSet,
    cache: RunCache,
) -> tuple[Regex, DFA] | None:
    """``regex`` (with automaton ``dfa``) with its bounded repetitions unbounded, and its automaton,
    when that labels every example right and scores no worse; else None."""
    loose = unbounded_nests(regex)
    if loose == regex:
        return None
    try:
        wider = automaton_of(loose, universe, cache)
    except AutomataError:
        return None
    if misclassified(wider, examples):
        return None
    if (
        score(wider, positives, cache, loose, True)[0]
        > score(dfa, positives, cache, regex, True)[0]
    ):
        return None
    return loose, wider


def loosened_text(
    text: str,
    dfa: DFA,
    examples: Sequence[Counterexample],
    positives: Sequence[str],
    dialect: Dialect,
    universe: CharSet,
    cache: RunCache,
) -> tuple[str, DFA]:
    """The printed hypothesis ``text`` (automaton ``dfa``) loosened (:func:`loosened`) and printed
    in ``dialect``, or as it is."""
    regex = read_hypothesis(text, dialect, universe)
    found = loosened(regex, dfa, examples, positives, universe, cache)
    if found is None:
        return text, dfa
    try:
        return unparse(found[0], dialect, universe), found[1]
    except RegexError:
        return text, dfa


def unbounded_nests(regex: Regex) -> Regex:
    """``regex`` with every bounded nest of optional repeats of one unit unbounded:
    ``(?:U(?:U)?)?`` and ``(?:U(?:U)*)?`` as ``U*`` (so ``x(?:-x(?:-x(?:-x)?)?)?`` as
    ``x(?:-x)*``), and ``U{0,n}``, ``U{1,n}`` (n ≥ 2) as ``U*``, ``U+``. A single optional ``U?``
    stays: one occurrence is no repetition. Unlike a print this changes the language (it only
    grows), so :func:`loosened` proposes the result only where it still labels every example right and the
    prior prefers it."""
    match regex:
        case Concat(parts):
            return concat(*map(unbounded_nests, parts))
        case Union(options):
            return union(*map(unbounded_nests, options))
        case Star(inner):
            return Star(unbounded_nests(inner))
        case Plus(inner):
            return Plus(unbounded_nests(inner))
        case Repeat(inner, low, high) if low <= 1 and high is not None and high >= 2:
            return (Star if low == 0 else Plus)(unbounded_nests(inner))
        case Repeat(inner, low, high):
            return Repeat(unbounded_nests(inner), low, high)
        case Optional(inner):
            loose = unbounded_nests(inner)
            unit = _nested_unit(loose)
            return Optional(loose) if unit is None else Star(unit)
        case _:
            return regex


def _nested_unit(regex: Regex) -> Regex | None:
    """``U`` when ``regex`` is ``U`` followed by ``U?`` or ``U*``, else None."""
    parts = regex.parts if isinstance(regex, Concat) else (regex,)
    if len(parts) < 2 or not isinstance(parts[-1], (Optional, Star)):
        return None
    unit = concat(*parts[:-1])
    return unit if parts[-1].inner == unit else None
