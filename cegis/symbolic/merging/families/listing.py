"""Hypotheses that list strings: the positives' own language, and everything but the negatives.

The language of the positives generalizes nothing; it competes so that a finite target is learned
as the words it is, where merging only builds loops the positives do not pump (and
:mod:`cegis.symbolic.merging.families.runs` loops its long runs). Everything but the negatives
(:func:`cegis.symbolic.merging.families.classes.excluded`) is the hypothesis for a target that
rejects a few strings, which no positive shows. Either is dropped past :data:`MAX_LISTING_STATES`
states: such a list is a memorized sample, not a hypothesis."""

from __future__ import annotations

from collections.abc import Sequence

from automata.algebra.ops import difference, is_empty
from automata.building.compile import compile_regex
from automata.core.dfa import DFA, infinite
from automata.core.minimize import minimize
from automata.errors import AutomataError, StateLimitExceeded
from cegis.symbolic.merging.candidate import Candidate, Found, check_state_limit, spelled
from cegis.symbolic.merging.evidence import Evidence
from cegis.symbolic.merging.families.classes import excluded
from cegis.symbolic.union import as_regex as union_regex
from oracle.examples import Counterexample
from regexlang.ast import union as any_of
from regexlang.charset import CharSet

#: Most states a hypothesis that lists strings (exceptions patched in, or the positives as the
#: whole language) may have: past it the list is a memorized sample, not a hypothesis, and prints
#: badly.
MAX_LISTING_STATES = 40

#: How the language of the positives is named among the candidates.
LISTING = "the positives"

#: How everything but the negatives is named among the candidates.
EXCLUDED = "everything but the negatives"


def positives(evidence: Evidence) -> Found:
    """The language of the given positives (a clustered one's every string), when it has at most
    :data:`MAX_LISTING_STATES` states: the family that generalizes nothing. A positive of ``n``
    characters alone asks for ``n + 2`` states (a state after each character, the start, and the
    dead state), so longer positives are not listed at all."""
    wanted = [e for e in evidence.examples if e.label]
    if any(len(e.representative()) + 2 > MAX_LISTING_STATES for e in wanted):
        return Found()
    try:
        dfa = minimize(strings_of(wanted, evidence.universe))
    except AutomataError as error:
        return Found(problems=(f"{LISTING}: {error}",))
    return (
        Found()
        if dfa.n_states > MAX_LISTING_STATES
        else Found((Candidate(dfa, LISTING, None, "positives"),))
    )


def all_but_negatives(evidence: Evidence) -> Found:
    """Everything but the given negatives (read through classes, :func:`.classes.excluded`), when
    it has at most :data:`MAX_LISTING_STATES` states."""
    regex = excluded(evidence.examples)
    if regex is None:
        return Found()
    found = spelled([(regex, EXCLUDED)], evidence.universe, "all_but_negatives", evidence.cache)
    return Found(
        tuple(c for c in found.candidates if c.automaton.n_states <= MAX_LISTING_STATES),
        found.problems,
    )


def strings_of(examples: Sequence[Counterexample], universe: CharSet) -> DFA:
    """The strings any of ``examples`` stands for, as an automaton over ``universe``."""
    return compile_regex(
        any_of(*map(union_regex, examples)), universe, state_limit=check_state_limit()
    )


def only_listed(dfa: DFA, listed: DFA) -> bool:
    """Whether ``dfa`` accepts no string outside ``listed`` (the positives' own language). When
    the difference is too large to build (the listing of strings thousands of characters long),
    whether ``dfa`` accepts only finitely many strings: a pattern that loops accepts others."""
    try:
        return is_empty(difference(dfa, listed, state_limit=check_state_limit()))
    except StateLimitExceeded:
        return not infinite(dfa)
