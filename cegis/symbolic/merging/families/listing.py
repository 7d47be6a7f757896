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
from automata.core.dfa import DFA
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
    :data:`MAX_LISTING_STATES` states: the family that generalizes nothing."""
    try:
        dfa = minimize(strings_of([e for e in evidence.examples if e.label], evidence.universe))
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


def infinite(dfa: DFA) -> bool:
    """Whether ``dfa`` accepts infinitely many strings: a cycle among its live states (reachable
    and reaching acceptance), found by peeling off live states without live predecessors."""
    table = dfa.transitions.tolist()
    reached = {dfa.start}
    frontier = [dfa.start]
    while frontier:
        state = frontier.pop()
        for target in set(table[state]) - reached:
            reached.add(target)
            frontier.append(target)
    sources: dict[int, set[int]] = {state: set() for state in reached}
    for state in reached:
        for target in table[state]:
            sources[target].add(state)
    live = {state for state in reached if dfa.accepting[state]}
    frontier = list(live)
    while frontier:
        state = frontier.pop()
        for source in sources[state] - live:
            live.add(source)
            frontier.append(source)
    incoming = {state: 0 for state in live}
    for state in live:
        for target in set(table[state]) & live:
            incoming[target] += 1
    ready = [state for state, count in incoming.items() if not count]
    peeled = 0
    while ready:
        state = ready.pop()
        peeled += 1
        for target in set(table[state]) & live:
            incoming[target] -= 1
            if not incoming[target]:
                ready.append(target)
    return peeled < len(live)
