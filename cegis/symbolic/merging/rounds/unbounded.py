"""A hypothesis's bounded repetitions, unbounded where the examples and the prior allow.

Merging a few hundred strings whose middle repeats one to four times (``a-b``, ``a-b-c-d``) leaves
a chain of states that reads the unit at most four times, printed as a nest of optional groups
``x(?:-x(?:-x(?:-x)?)?)?``; from a few positives the template families count a class ``[0-9]{1,4}``.
A person writes ``x(?:-x)*`` and ``[0-9]+``: the bound is how long the examples happened to be.
:func:`automata.printing.readable.unbounded_nests` writes the unbounded form; it is proposed instead when it
still labels every example right (a negative with five repeats keeps the bound) and the prior
prefers it: its description length (:func:`.scoring.score`, plain examples read through the class
prior) is no longer than the bounded one's. The regex term falls (a star instead of nested copies,
no bound to name) and the data term rises by what naming each positive among more strings of its
length costs; so the unbounded form wins where the counts seen run from 0 or 1 to the bound
without gaps and the unit is cheap, and loses where few lengths are shown for a wide unit."""

from __future__ import annotations

from collections.abc import Sequence

from automata.core.dfa import DFA
from automata.errors import AutomataError
from automata.printing.readable import unbounded_nests
from cegis.hypothesis import read_hypothesis
from cegis.symbolic.merging.candidate import automaton_of
from cegis.symbolic.merging.rounds.scoring import score
from oracle.clustered import misclassified
from oracle.examples import Counterexample
from regexlang.ast import Regex
from regexlang.charset import CharSet
from regexlang.dialects import Dialect, unparse
from regexlang.errors import RegexError


def loosened(
    regex: Regex,
    dfa: DFA,
    examples: Sequence[Counterexample],
    positives: Sequence[str],
    universe: CharSet,
) -> tuple[Regex, DFA] | None:
    """``regex`` (with automaton ``dfa``) with its bounded repetitions unbounded, and its automaton,
    when that labels every example right and scores no worse; else None."""
    loose = unbounded_nests(regex)
    if loose == regex:
        return None
    try:
        wider = automaton_of(loose, universe)
    except AutomataError:
        return None
    if misclassified(wider, examples):
        return None
    if score(wider, positives, loose, True)[0] > score(dfa, positives, regex, True)[0]:
        return None
    return loose, wider


def loosened_text(
    text: str,
    dfa: DFA,
    examples: Sequence[Counterexample],
    positives: Sequence[str],
    dialect: Dialect,
    universe: CharSet,
) -> tuple[str, DFA]:
    """The printed hypothesis ``text`` (automaton ``dfa``) loosened (:func:`loosened`) and printed
    in ``dialect``, or as it is."""
    found = loosened(read_hypothesis(text, dialect, universe), dfa, examples, positives, universe)
    if found is None:
        return text, dfa
    try:
        return unparse(found[0], dialect, universe), found[1]
    except RegexError:
        return text, dfa
