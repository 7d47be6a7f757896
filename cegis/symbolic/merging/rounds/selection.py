"""Choosing among the candidates: the shortest description whose print labels every example right.

How to choose is one value, a :class:`SelectionPolicy`, built once per learner call
(:meth:`SelectionPolicy.of`). The choice has two steps. :func:`ranked` puts the candidates of every
family in order of description length
(:func:`cegis.symbolic.merging.rounds.scoring.description_length`); the language of the positives
is preceded by itself with its long runs looped (:mod:`cegis.symbolic.merging.families.runs`).
:func:`first_printed` tries them in that order: one that misclassifies an example is passed over
before it is printed (a print is exact, and printing costs far more than checking), one of the
language the teacher just rejected too; the first whose print (:mod:`.printing`) compiles back and
labels every example right is the proposal, carrying the automaton its print compiled to. With a
listing cap (a practitioner's plain examples, no agreements), the answer is never longer than the
positives listed, bounded repetitions are unbounded where the prior prefers (:mod:`.unbounded`), and
class runs whose values repeat too often for the class are the words listed (:mod:`.word_sets`);
not in a record (:mod:`..families.records`), whose fields' counts and word sets are its own."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence

import attrs

from automata.algebra.ops import dead_state, equivalent
from automata.core.dfa import DFA
from automata.errors import AutomataError, SizeLimitExceeded
from cegis.hypothesis import read_hypothesis
from cegis.learner import Proposal, ProposalFailure
from cegis.symbolic.merging.candidate import Candidate, automaton_of
from cegis.symbolic.merging.core.run_cache import RunCache
from cegis.symbolic.merging.core.symbols import Granularity
from cegis.symbolic.merging.evidence import representative
from cegis.symbolic.merging.families.listing import only_listed, strings_of
from cegis.symbolic.merging.families.runs import looped_runs
from cegis.symbolic.merging.rounds.agreement import Agreements
from cegis.symbolic.merging.rounds.printing import check, misses, printed, spelling
from cegis.symbolic.merging.rounds.scoring import description_length
from cegis.symbolic.merging.rounds.unbounded import loosened_text
from cegis.symbolic.merging.rounds.word_sets import listed_words_text
from cegis.symbolic.merging.settings import Settings
from cegis.symbolic.union import as_regex as union_regex
from oracle.clustered import misclassified
from oracle.examples import Counterexample
from regexlang.ast import Regex
from regexlang.ast import union as any_of
from regexlang.charset import CharSet
from regexlang.dialects import Dialect, unparse


@attrs.frozen
class SelectionPolicy:
    """How one learner call chooses among its candidates.

    ``written``: plain examples read through the class prior, scored and printed as such.
    ``listing_cap``: the answer is never longer than the positives listed as alternatives (the
    learner's ``listing_cap`` with ``written`` examples, some positives and no agreements to keep):
    past that, the shortest consistent print, or the listing. ``draft``: the hypothesis is printed
    quickly (never under a listing cap: a listing is compared with the readable print).
    ``refuted``: the language the teacher just rejected, passed over. ``earlier``: the agreements
    to keep, when there are any (looped runs that break one are dropped). ``granularity``: what
    the proposal's reasoning says the automaton reads."""

    written: bool
    listing_cap: bool
    draft: bool
    refuted: DFA | None
    earlier: Agreements | None
    granularity: Granularity

    @classmethod
    def of(
        cls,
        learner: Settings,
        examples: Sequence[Counterexample],
        *,
        written: bool,
        earlier: Agreements | None,
        draft: bool,
        refuted: DFA | None,
    ) -> SelectionPolicy:
        """The policy of a call of ``learner`` on ``examples``."""
        capped = written and learner.listing_cap and any(e.label for e in examples)
        capped = capped and earlier is None
        return cls(written, capped, draft and not capped, refuted, earlier, learner.granularity)


def proposed(
    candidates: Sequence[Candidate],
    examples: Sequence[Counterexample],
    dialect: Dialect,
    universe: CharSet,
    policy: SelectionPolicy,
    cache: RunCache,
    *,
    problems: Sequence[str] = (),
    prior: Sequence[Candidate] = (),
) -> Proposal:
    """The candidate of the shortest description whose printed regex labels every example right
    (:func:`ranked`, then :func:`first_printed`), or a typed failure with every candidate's problem
    (after the ``problems`` found while making them). ``prior`` are candidates that label every
    example right; while a pattern of the prior among them (:attr:`.Candidate.prior_pattern`)
    accepts more than the positives under a listing cap, a candidate that only lists them comes
    last, the cap is the shortest such pattern's spelling when that is longer, and the listing is
    no answer. The run's ``cache`` remembers the scores and automata."""
    own = (
        strings_of([e for e in examples if e.label], universe)
        if policy.listing_cap and prior
        else None
    )
    patterns = (
        [c for c in prior if c.prior_pattern and not only_listed(c.automaton, own)]
        if own is not None
        else []
    )
    noted = list(problems)
    in_order = ranked(candidates, examples, policy, cache, own if patterns else None, noted)
    return first_printed(in_order, examples, dialect, universe, policy, cache, noted, patterns)


def ranked(
    candidates: Sequence[Candidate],
    examples: Sequence[Counterexample],
    policy: SelectionPolicy,
    cache: RunCache,
    listed: DFA | None = None,
    problems: list[str] | None = None,
) -> Iterator[Candidate]:
    """The ``candidates`` that label every example right by description length (as ``policy``
    scores them), each language of the positives preceded by itself with its long runs looped
    (:func:`_runs_looped`); those that accept no string outside ``listed`` (the positives' own
    language) come after all others. A candidate that mislabels an example is never scored (its
    print would mislabel it too, and scoring a template of long lines costs more than checking
    it): its problem is added to ``problems``."""
    positives = [representative(e) for e in examples if e.label]
    noted = [] if problems is None else problems

    def rank(found: Sequence[Candidate]) -> list[Candidate]:
        right = []
        for candidate in found:
            wrong = misclassified(candidate.automaton, examples)
            if wrong:
                noted.append(f"{candidate.how}: {misses(wrong)}")
            else:
                right.append(candidate)
        return sorted(right, key=lambda c: description_length(c, positives, cache, policy.written))

    return _listing_last(_runs_looped(rank(candidates), rank, policy.earlier), listed)


def first_printed(
    in_order: Iterable[Candidate],
    examples: Sequence[Counterexample],
    dialect: Dialect,
    universe: CharSet,
    policy: SelectionPolicy,
    cache: RunCache,
    problems: list[str],
    patterns: Sequence[Candidate] = (),
) -> Proposal:
    """The first candidate ``in_order`` (each labeling every example right: :func:`ranked`) whose
    print labels every example right too, or a typed
    failure with every candidate's problem (added to ``problems``). Under a listing cap a print
    longer than the positives listed (and than the spelling of each of ``patterns``) is kept only
    as a fallback, and the listing is the answer when every candidate fails and no pattern of the
    prior is in play."""
    positives = [representative(e) for e in examples if e.label]
    listing = (
        unparse(any_of(*map(union_regex, (e for e in examples if e.label))), dialect, universe)
        if policy.listing_cap
        else ""
    )
    shortest: Proposal | None = None
    cap: int | None = None  # the length a print may reach, found when first needed

    def within(length: int) -> bool:
        nonlocal cap
        if length <= len(listing):
            return True
        if cap is None:
            spellings = (
                len(spelling(c.regex, dialect, universe)) for c in patterns if c.regex is not None
            )
            cap = max(len(listing), min(spellings, default=0))
        return length <= cap

    for candidate in in_order:
        dfa, how, regex = candidate.automaton, candidate.how, candidate.regex
        if policy.refuted is not None and equivalent(dfa, policy.refuted):
            problems.append(f"{how}: the teacher rejected this language")
            continue
        if (
            policy.listing_cap
            and regex is not None
            and not within(len(spelling(regex, dialect, universe)))
        ):
            # a template spelled longer than the list of its positives: not worth printing readably
            # (a path's template of a dozen shapes: half a minute over Unicode)
            problems.append(f"{how}: spelled longer than the positives listed")
            continue
        draft, written = policy.draft, policy.written
        try:
            text = printed(dfa, dialect, universe, examples, regex, written, draft)
            problem, drafted = check(text, examples, dialect, universe, cache, dfa), draft
            if problem is not None and draft:  # a draft too large to compile back: readably
                text = printed(dfa, dialect, universe, examples, regex, written)
                problem, drafted = check(text, examples, dialect, universe, cache, dfa), False
        except SizeLimitExceeded as error:
            problems.append(f"{how}: {error}")
            continue
        if problem is not None:
            problems.append(f"{how}: {problem}")
            continue
        if (
            policy.listing_cap and candidate.kind != "records"
        ):  # strings given up front: repetitions unbounded where the prior prefers, words listed
            text, dfa = loosened_text(text, dfa, examples, positives, dialect, universe, cache)
            text, dfa = listed_words_text(text, dfa, examples, positives, dialect, universe, cache)
        states = dfa.n_states - (dead_state(dfa) is not None)
        reasoning = f"{how} over {len(dfa.alphabet)} {policy.granularity}: {states} states"
        proposal = _carrying(text, dialect, universe, reasoning, cache, drafted)
        if not policy.listing_cap or within(len(text)):
            return proposal
        if shortest is None or len(text) < len(shortest.text):
            shortest = proposal
    if (
        policy.listing_cap
        and not patterns
        and check(listing, examples, dialect, universe, cache) is None
    ):
        return _carrying(
            listing,
            dialect,
            universe,
            "the positives listed (every shorter candidate failed)",
            cache,
        )
    return shortest or _failure(
        "search_exhausted", "; ".join(problems) or "no merge order succeeded"
    )


def refuted_automaton(regex: Regex | None, universe: CharSet, cache: RunCache) -> DFA | None:
    """The automaton of a rejected hypothesis (None when there is none, or it does not compile)."""
    if regex is None:
        return None
    try:
        return automaton_of(regex, universe, cache)
    except AutomataError:
        return None


def _failure(kind: str, detail: str) -> Proposal:
    """A proposal that is a typed failure."""
    return Proposal(None, failure=ProposalFailure(kind, detail))  # type: ignore[arg-type]


def _carrying(
    text: str,
    dialect: Dialect,
    universe: CharSet,
    reasoning: str,
    cache: RunCache,
    draft: bool = False,
) -> Proposal:
    """The proposal of the printed ``text`` with the automaton :func:`.printing.check` compiled it to
    (remembered in ``cache``)."""
    regex = read_hypothesis(text, dialect, universe)
    automaton = automaton_of(regex, universe, cache)
    return Proposal(regex, text, reasoning, draft=draft, automaton=automaton)


def _runs_looped(
    ranked: Sequence[Candidate],
    rank: Callable[[Sequence[Candidate]], list[Candidate]],
    earlier: Agreements | None,
) -> Iterator[Candidate]:
    """The ``ranked`` candidates, each language of the positives preceded by itself with its long
    runs looped (:func:`.runs.looped_runs`) where they keep the ``earlier`` agreements, ranked by
    ``rank``: when no other candidate describes the positives more briefly than listing them, a
    run they show at every length up to a long one is read as a repetition, not as a bound that a
    teacher of loop-free paths raises by one an epoch. Only then: looped runs competing with every
    candidate won where merging had found the language, and lost it."""
    for candidate in ranked:
        if candidate.kind == "positives":
            looped = [
                Candidate(d, f"{candidate.how}, {runs}", None, "runs")
                for d, runs in looped_runs(candidate.automaton)
            ]
            yield from rank(
                [c for c in looped if earlier is None or not earlier.implied(c.automaton)]
            )
        yield candidate


def _listing_last(candidates: Iterable[Candidate], listed: DFA | None) -> Iterator[Candidate]:
    """The ``candidates`` in order, except that those that accept no string outside ``listed``
    (the positives' own language; None: no candidate is moved) come after all others."""
    later = []
    for candidate in candidates:
        if listed is not None and only_listed(candidate.automaton, listed):
            later.append(candidate)
        else:
            yield candidate
    yield from later
