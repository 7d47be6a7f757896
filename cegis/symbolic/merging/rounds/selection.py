"""Choosing among the candidates: the shortest description whose print labels every example right.

The candidates of every family are ranked by description length
(:func:`cegis.symbolic.merging.rounds.scoring.description_length`) and tried in that order: one that
misclassifies an example is passed over before it is printed (a print is exact, and printing costs
far more than checking), one of the language the teacher just rejected too; the first whose print
(:mod:`.printing`) compiles back and labels every example right is the proposal, carrying the
automaton its print compiled to. The language of the positives is preceded by itself with its long
runs looped (:mod:`cegis.symbolic.merging.families.runs`). With the learner's ``listing_cap`` (a
practitioner's plain examples, no agreements), the answer is never longer than the positives
listed, and bounded repetitions are unbounded where the prior prefers (:mod:`.unbounded`)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Sequence

from automata.algebra.ops import dead_state, equivalent
from automata.core.dfa import DFA
from automata.errors import AutomataError, SizeLimitExceeded
from cegis.hypothesis import read_hypothesis
from cegis.learner import Proposal, ProposalFailure
from cegis.symbolic.merging.candidate import Candidate, automaton_of
from cegis.symbolic.merging.evidence import representative
from cegis.symbolic.merging.families.listing import LISTING, only_listed, strings_of
from cegis.symbolic.merging.families.runs import looped_runs
from cegis.symbolic.merging.rounds.agreement import Agreements
from cegis.symbolic.merging.rounds.printing import check, misses, printed, spelling
from cegis.symbolic.merging.rounds.scoring import description_length
from cegis.symbolic.merging.rounds.unbounded import loosened_text
from cegis.symbolic.merging.settings import Settings
from cegis.symbolic.union import as_regex as union_regex
from oracle.clustered import misclassified
from oracle.examples import Counterexample
from regexlang.ast import Regex
from regexlang.ast import union as any_of
from regexlang.charset import CharSet
from regexlang.dialects import Dialect, unparse


def proposed(
    candidates: Sequence[Candidate],
    examples: Sequence[Counterexample],
    dialect: Dialect,
    universe: CharSet,
    learner: Settings,
    written: bool,
    problems: Sequence[str] = (),
    earlier: Agreements | None = None,
    draft: bool = False,
    refuted: DFA | None = None,
    prior: Sequence[Candidate] = (),
) -> Proposal:
    """The candidate of the shortest description (``written``: as plain examples read through the
    class prior are scored) whose printed regex labels every example right, or a typed failure
    with every candidate's problem (after the ``problems`` found while making them); the language
    of the positives is preceded by itself with long runs looped (:func:`_runs_looped`). With
    ``written``, the learner's ``listing_cap`` and no ``earlier`` agreements to keep the answer is
    never longer than the positives listed as alternatives: past that, the shortest consistent
    print, or the listing. With ``draft`` (and no listing to be shorter than) the hypothesis is
    printed quickly, as a draft (``Proposal.draft``). A candidate of the ``refuted`` language is
    passed over. While a pattern of the prior among ``prior`` (candidates that label every example
    right, :attr:`.Candidate.prior_pattern`) accepts more than the positives, a candidate that only
    lists them comes last, the length cap is the shortest such pattern's spelling when that is
    longer, and the listing is no answer."""
    problems = list(problems)
    positives = [representative(e) for e in examples if e.label]
    listed = written and learner.listing_cap and bool(positives) and earlier is None
    listing = (
        unparse(any_of(*map(union_regex, (e for e in examples if e.label))), dialect, universe)
        if listed
        else ""
    )
    own = strings_of([e for e in examples if e.label], universe) if listed and prior else None
    patterns = (
        [c for c in prior if c.prior_pattern and not only_listed(c.automaton, own)]
        if own is not None
        else []
    )
    shortest: Proposal | None = None
    draft = draft and not listed  # a listing is compared with the readable print

    @functools.cache
    def cap() -> int:
        return max(
            len(listing),
            min(
                (
                    len(spelling(c.regex, dialect, universe))
                    for c in patterns
                    if c.regex is not None
                ),
                default=0,
            ),
        )

    def ranked(found: Sequence[Candidate]) -> list[Candidate]:
        return sorted(found, key=lambda c: description_length(c, positives, written))

    in_order = _listing_last(
        _runs_looped(ranked(candidates), ranked, earlier), examples, own if patterns else None
    )
    for dfa, how, regex in ((c.automaton, c.how, c.regex) for c in in_order):
        if refuted is not None and equivalent(dfa, refuted):
            problems.append(f"{how}: the teacher rejected this language")
            continue
        wrong = misclassified(dfa, examples)
        if (
            wrong
        ):  # its print would be too (prints are exact), and printing costs far more than this
            problems.append(f"{how}: {misses(wrong)}")
            continue
        if (
            listed
            and regex is not None
            and len(spelled := spelling(regex, dialect, universe)) > len(listing)
            and len(spelled) > cap()
        ):
            # a template spelled longer than the list of its positives: not worth printing readably
            # (a path's template of a dozen shapes: half a minute over Unicode)
            problems.append(f"{how}: spelled longer than the positives listed")
            continue
        try:
            text = printed(dfa, dialect, universe, examples, regex, written, draft)
            problem, drafted = check(text, examples, dialect, universe, dfa), draft
            if (
                problem is not None and draft
            ):  # a draft too large to compile back: the readable print
                text = printed(dfa, dialect, universe, examples, regex, written)
                problem, drafted = check(text, examples, dialect, universe, dfa), False
        except SizeLimitExceeded as error:
            problems.append(f"{how}: {error}")
            continue
        if problem is None:
            if (
                listed
            ):  # strings given up front: bounded repetitions unbounded where the prior prefers
                text, dfa = loosened_text(text, dfa, examples, positives, dialect, universe)
            states = dfa.n_states - (dead_state(dfa) is not None)
            reasoning = f"{how} over {len(dfa.alphabet)} {learner.granularity}: {states} states"
            proposal = _carrying(text, dialect, universe, reasoning, drafted)
            if not listed or len(text) <= len(listing) or len(text) <= cap():
                return proposal
            if shortest is None or len(text) < len(shortest.text):
                shortest = proposal
            continue
        problems.append(f"{how}: {problem}")
    if listed and not patterns and check(listing, examples, dialect, universe) is None:
        return _carrying(
            listing, dialect, universe, "the positives listed (every shorter candidate failed)"
        )
    return shortest or _failure(
        "search_exhausted", "; ".join(problems) or "no merge order succeeded"
    )


def refuted_automaton(regex: Regex | None, universe: CharSet) -> DFA | None:
    """The automaton of a rejected hypothesis (None when there is none, or it does not compile)."""
    if regex is None:
        return None
    try:
        return automaton_of(regex, universe)
    except AutomataError:
        return None


def _failure(kind: str, detail: str) -> Proposal:
    """A proposal that is a typed failure."""
    return Proposal(None, failure=ProposalFailure(kind, detail))  # type: ignore[arg-type]


def _carrying(
    text: str, dialect: Dialect, universe: CharSet, reasoning: str, draft: bool = False
) -> Proposal:
    """The proposal of the printed ``text`` with the automaton :func:`.printing.check` compiled it to
    (remembered)."""
    regex = read_hypothesis(text, dialect, universe)
    return Proposal(regex, text, reasoning, draft=draft, automaton=automaton_of(regex, universe))


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
        if candidate.how.startswith(LISTING):
            looped = [
                Candidate(d, f"{candidate.how}, {runs}", None, "runs")
                for d, runs in looped_runs(candidate.automaton)
            ]
            yield from rank(
                [c for c in looped if earlier is None or not earlier.implied(c.automaton)]
            )
        yield candidate


def _listing_last(
    candidates: Iterable[Candidate], examples: Sequence[Counterexample], listed: DFA | None
) -> Iterator[Candidate]:
    """The ``candidates`` in order, except that those labeling every example right that accept no
    string outside ``listed`` (the positives' own language; None: no candidate is moved) come after
    all others."""
    later = []
    for candidate in candidates:
        if (
            listed is not None
            and not misclassified(candidate.automaton, examples)
            and only_listed(candidate.automaton, listed)
        ):
            later.append(candidate)
        else:
            yield candidate
    yield from later
