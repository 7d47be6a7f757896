"""A candidate hypothesis: an automaton, how it was found, and its regex when a family spelled one.

Every part of the merging learner speaks in candidates. The state-merging core finds automata
(:mod:`cegis.symbolic.merging.rounds.merges`); the hypothesis families
(:mod:`cegis.symbolic.merging.families`) write regexes and compile them here
(:func:`spelled`); the rounds (:mod:`cegis.symbolic.merging.rounds`) rank candidates by their
description length (:func:`cegis.symbolic.merging.rounds.scoring.description_length`, computed where
they are ranked, from the examples in play) and print the first that labels every example right.
A spelled candidate keeps its regex because the regex is shorter to describe and to print than its
automaton's state elimination (``.*Westbury.* & .*[0-9].*``).

A family's answer is a :class:`Found`: its candidates and, for each hypothesis that did not
compile, a problem (the learner's failure reports them, in order), so nothing is handed down to be
filled in."""

from __future__ import annotations

import functools
from collections.abc import Iterable

import attrs

from automata.building.compile import compile_regex
from automata.core.dfa import DFA
from automata.core.minimize import minimize
from automata.errors import AutomataError
from regexlang.ast import Regex
from regexlang.charset import CharSet

#: States the printed regex, or a part of a spelled regex, may compile to: far below the teacher's
#: limit, since a hypothesis that large would not print readably either.
CHECK_STATE_LIMIT = 20_000


@attrs.frozen(eq=False)
class Candidate:
    """A hypothesis the learner may propose: its (minimal) automaton, how it was found (the family
    and the details that tell it from its siblings, as the proposal's reasoning says it), its regex
    when a family spelled one (else ``None``: the automaton is printed), the family that made it,
    and whether it is a *pattern of the prior* (:mod:`.families.shapes`: every run at its narrowest
    class and count), which an answer that only lists the positives never beats."""

    automaton: DFA
    how: str
    regex: Regex | None = None
    family: str = "merging"
    prior_pattern: bool = False


@attrs.frozen
class Found:
    """What a family (or a round) found: candidates, and why the others it tried were dropped."""

    candidates: tuple[Candidate, ...] = ()
    problems: tuple[str, ...] = ()

    def __add__(self, other: Found) -> Found:
        return Found(self.candidates + other.candidates, self.problems + other.problems)


def spelled(hypotheses: Iterable[tuple[Regex, str]], universe: CharSet, family: str) -> Found:
    """The spelled ``hypotheses`` (a regex and how it was found) of ``family`` as candidates over
    ``universe``, in order; one that does not compile within :data:`CHECK_STATE_LIMIT` states is a
    problem instead."""
    candidates, problems = [], []
    for regex, how in hypotheses:
        try:
            candidates.append(Candidate(automaton_of(regex, universe), how, regex, family))
        except AutomataError as error:
            problems.append(f"{how}: {error}")
    return Found(tuple(candidates), tuple(problems))


def automaton_of(regex: Regex, universe: CharSet, state_limit: int = CHECK_STATE_LIMIT) -> DFA:
    """The minimal DFA of ``regex`` over ``universe``; raises :class:`AutomataError` past
    ``state_limit`` states. Remembered: the learner makes most of an epoch's spelled hypotheses
    again the next epoch, and compiles its proposal again as the next epoch's agreement."""
    found = _automaton(regex, universe, state_limit)
    if isinstance(found, AutomataError):
        raise found.with_traceback(None)
    return found


@functools.lru_cache(maxsize=512)
def _automaton(regex: Regex, universe: CharSet, state_limit: int) -> DFA | AutomataError:
    try:
        return minimize(compile_regex(regex, universe, state_limit=state_limit))
    except AutomataError as error:
        return error
