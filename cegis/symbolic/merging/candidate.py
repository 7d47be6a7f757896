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

import contextlib
from collections.abc import Iterable, Iterator
from contextvars import ContextVar
from typing import Literal, cast

import attrs

from automata.building.compile import compile_regex
from automata.core.dfa import DFA
from automata.core.minimize import minimize
from automata.errors import AutomataError
from cegis.generalization import sized_limit
from cegis.symbolic.merging.core.run_cache import RunCache
from oracle.examples import Counterexample
from regexlang.ast import Regex
from regexlang.charset import CharSet

#: States the printed regex, or a part of a spelled regex, may compile to: far below the teacher's
#: limit, since a hypothesis that large would not print readably either. Examples longer than
#: half of it raise it for their run (:func:`sized_for`).
CHECK_STATE_LIMIT = 20_000

_RUN_LIMIT: ContextVar[int] = ContextVar("check_state_limit", default=CHECK_STATE_LIMIT)

#: What made a candidate: state merging, a family (by its module's name), the language of the
#: positives (``positives``, :func:`.families.listing.positives`) or everything but the negatives
#: (``all_but_negatives``), or the positives' long runs looped (``runs``). The rounds read it
#: (the language of the positives is tried again with its runs looped, a record's fields are
#: neither loosened nor listed as words); ``how`` is for the record.
Kind = Literal[
    "merging",
    "templates",
    "shapes",
    "separated",
    "factors",
    "anchored",
    "subsequence",
    "positives",
    "all_but_negatives",
    "runs",
    "fields",
    "records",
]

#: Compiled spelled hypotheses a run remembers: most come back the next epoch.
REMEMBERED_AUTOMATA = 512


@attrs.frozen(eq=False)
class Candidate:
    """A hypothesis the learner may propose: its (minimal) automaton, how it was found (the family
    and the details that tell it from its siblings, as the proposal's reasoning says it), its regex
    when a family spelled one (else ``None``: the automaton is printed), what made it (:data:`Kind`),
    and whether it is a *pattern of the prior* (:mod:`.families.shapes`: every run at its narrowest
    class and count), which an answer that only lists the positives never beats."""

    automaton: DFA
    how: str
    regex: Regex | None = None
    kind: Kind = "merging"
    prior_pattern: bool = False


@attrs.frozen
class Found:
    """What a family (or a round) found: candidates, and why the others it tried were dropped."""

    candidates: tuple[Candidate, ...] = ()
    problems: tuple[str, ...] = ()

    def __add__(self, other: Found) -> Found:
        return Found(self.candidates + other.candidates, self.problems + other.problems)


def spelled(
    hypotheses: Iterable[tuple[Regex, str]],
    universe: CharSet,
    kind: Kind,
    cache: RunCache,
    state_limit: int | None = None,
) -> Found:
    """The spelled ``hypotheses`` (a regex and how it was found) of ``kind`` as candidates over
    ``universe``, in order; one that does not compile within ``state_limit`` states (default:
    :func:`check_state_limit`) is a problem instead."""
    candidates, problems = [], []
    for regex, how in hypotheses:
        try:
            automaton = automaton_of(regex, universe, cache, state_limit)
            candidates.append(Candidate(automaton, how, regex, kind))
        except AutomataError as error:
            problems.append(f"{how}: {error}")
    return Found(tuple(candidates), tuple(problems))


def check_state_limit() -> int:
    """States a check may build in this run (:func:`sized_for`; else :data:`CHECK_STATE_LIMIT`)."""
    return _RUN_LIMIT.get()


@contextlib.contextmanager
def sized_for(examples: Iterable[Counterexample]) -> Iterator[None]:
    """Within it, checks may build :data:`CHECK_STATE_LIMIT` states, or twice the characters of
    the examples' representatives when that is more (:func:`cegis.generalization.sized_limit`)."""
    token = _RUN_LIMIT.set(sized_limit((e.representative() for e in examples), CHECK_STATE_LIMIT))
    try:
        yield
    finally:
        _RUN_LIMIT.reset(token)


def automaton_of(
    regex: Regex, universe: CharSet, cache: RunCache, state_limit: int | None = None
) -> DFA:
    """The minimal DFA of ``regex`` over ``universe``; raises :class:`AutomataError` past
    ``state_limit`` states (default: :func:`check_state_limit`) unless the run already holds it. Remembered in the run's
    ``cache``: the learner makes most of an epoch's spelled hypotheses again the next epoch, and
    compiles its proposal again as the next epoch's agreement."""
    run_limit = check_state_limit()
    limit = run_limit if state_limit is None else state_limit
    if limit < run_limit:  # a DFA the run's limit gave is an answer within any budget
        known = cache.known(_automaton, regex, universe, run_limit)
        if isinstance(known, DFA):
            return known
    found = cache(_automaton, regex, universe, limit, limit=REMEMBERED_AUTOMATA)
    if isinstance(found, AutomataError):
        raise found.with_traceback(None)
    if limit < run_limit:  # what fits in fewer states is what the run's limit gives
        remembered = cast("DFA | AutomataError", found)
        cache.put(
            _automaton, regex, universe, run_limit, value=remembered, limit=REMEMBERED_AUTOMATA
        )
    return found


def _automaton(regex: Regex, universe: CharSet, state_limit: int) -> DFA | AutomataError:
    try:
        return minimize(compile_regex(regex, universe, state_limit=state_limit))
    except AutomataError as error:
        return error
