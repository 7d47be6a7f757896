"""State-merging learners behind the :class:`cegis.learner.Learner` protocol (RPNI, EDSM, symbolic).

Each proposal re-learns from every example so far (an early wrong merge from sparse data is not
carried on), makes candidates with several merge orders (and, augmented, other hypothesis
families), and proposes the one of the shortest description (:mod:`.scoring`) whose printed regex
labels every example right; the search runs in a worker thread so the event loop stays free."""

from __future__ import annotations

import asyncio
import functools
import itertools
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from typing import Literal, TypeVar

import attrs
import numpy as np

from automata.alphabet import Alphabet
from automata.arrays import Int64Array
from automata.compile import compile_regex
from automata.dfa import DFA
from automata.errors import AutomataError, SizeLimitExceeded
from automata.minimize import minimize
from automata.ops import dead_state, difference, equivalent, union
from automata.pruning import pruned
from automata.readable import draft as quick
from automata.readable import readable
from cegis.gc_pause import gc_paused
from cegis.hypothesis import read_hypothesis
from cegis.learner import LearnerContext, LearnerCost, Proposal, ProposalFailure
from cegis.symbolic.merging import agreement
from cegis.symbolic.merging.anchored import anchored_hypotheses
from cegis.symbolic.merging.classes import excluded, read_classes
from cegis.symbolic.merging.exact import smallest
from cegis.symbolic.merging.factors import factor_hypotheses
from cegis.symbolic.merging.prior import lifted
from cegis.symbolic.merging.quotient import LabelConflict, Quotient
from cegis.symbolic.merging.redblue import MergeOrder, red_blue, table
from cegis.symbolic.merging.runs import looped_runs
from cegis.symbolic.merging.scoring import CHECK_STATE_LIMIT, automaton_of, score
from cegis.symbolic.merging.separated import separated_hypotheses
from cegis.symbolic.merging.subsequence import subsequence_hypotheses
from cegis.symbolic.merging.shapes import listing_last, prior_patterns, shape_hypotheses
from cegis.symbolic.merging.unbounded import loosened_text
from cegis.symbolic.merging.symbols import Granularity, SymbolicWord, distinguishing, encoder, symbol_alphabet
from cegis.symbolic.merging.words import PackedWords
from cegis.symbolic.union import as_regex as union_regex
from oracle.clustered import misclassified
from oracle.examples import ClusteredExample, Counterexample, Example
from regexlang.ast import Chars, Complement, EmptySet, Regex, Star
from regexlang.ast import union as any_of
from regexlang.ast import text as text_regex
from regexlang.charset import CharSet
from regexlang.dialects import Dialect, unparse
from regexlang.errors import RegexError

#: How a clustered example enters the prefix tree: ``tied`` (every class of a position leads to one
#: child: a guess, since the teacher groups characters by the states of the *difference* automaton,
#: not the target's, and it sometimes bloats the hypothesis) or ``representative`` (one path through
#: the largest class of each position, guessing nothing; the example is then checked universally on
#: each candidate like any example left out of the tree). The symbolic learner tries both.
TreeReading = Literal["tied", "representative"]

#: The alphabet, the prefix tree, the examples as words, and the examples left out of the tree
#: (with their words).
_Tree = tuple[Alphabet, Quotient, list[SymbolicWord], list[tuple[Counterexample, SymbolicWord]]]

#: A candidate hypothesis: its automaton first, then how it was found (and its regex, if spelled).
_Candidate = TypeVar("_Candidate", tuple[DFA, str], tuple[DFA, str, Regex])


#: Most words a clustered example is spelled out into when its tie fails.
MAX_SPELLED = 256

#: Rounds of learning again with a misclassified string of each clustered example left out of the
#: prefix tree (its *witnesses*, learned literally, as plain examples), before a reading's misses are
#: patched in as exceptions (their strings added or removed, exactly); with agreements to keep, the
#: witnesses share the call's :data:`ROUNDS` with the implied strings instead.
WITNESS_ROUNDS = 8

#: Rounds of learning again with new strings in one learner call, before the last candidates are
#: proposed as they are. A round merges the prefix tree of each reading that has new strings to
#: learn: its witnesses, when no merge order of it labels every example right, and the strings the
#: agreements of earlier hypotheses imply (:mod:`cegis.symbolic.merging.agreement`) when no
#: candidate keeps them: for each candidate that breaks one, the shortest string where it does,
#: labeled as the agreement says (facts about the target, which the memo keeps for the next epoch).
#: With agreements, the first round with a candidate that keeps them ends the call (a reading still
#: learning witnesses is not waited for); without, every reading learns its witnesses first. A
#: reading keeps its witnesses when implied strings come: agreement rounds around witness rounds
#: learned them again in every agreement round, and took 1.6 times as long on the StructuredRegex
#: shortest-protocol runs (with the same successes).
ROUNDS = 16

#: Most prefix-tree nodes the witness rounds grow a tree to: the round whose tree passes it is the
#: last (its misses patched in). Past it each round learns thousands more literal strings and
#: merges for seconds; on the held-out benchmark no proposal came from such a round (the largest
#: tree one came from had 16,559 nodes; without the cap the trees reached 91,575 nodes).
MAX_WITNESS_NODES = 20_000

#: Most states a hypothesis that lists strings (exceptions patched in, or the positives as the
#: whole language) may have: past it the list is a memorized sample, not a hypothesis, and prints
#: badly. The positives' own language competes so that a finite target is learned as the words it
#: is; the shared-factor hypotheses (:mod:`cegis.symbolic.merging.factors`: "contains
#: ``New#Zealand``", which no merge order finds from a few long positives) compete too, and those
#: that break an agreement are made again with the strings it implies, like merged ones.
MAX_LISTING_STATES = 40

#: How the language of the positives is named among the candidates.
LISTING = "the positives"

#: Most positives for which the shared-factor hypotheses are made beside templates that fit: over
#: hundreds of positives they take seconds, and where a template fits they never won (bench examples).
MOST_SPELLED_POSITIVES = 64


@attrs.frozen
class MergingLearner:
    """A passive learner: the smallest DFA that ``orders`` of red-blue merging find, printed."""

    name: str
    granularity: Granularity
    orders: tuple[MergeOrder, ...]
    search_budget: int = 0  # trial merges for the exact search below the greedy result (0: none)
    complete_alike: bool = False  # unread symbols follow the most alike read symbol, not the sink
    readings: tuple[TreeReading, ...] = ("tied",)  # how clustered examples enter the prefix tree
    # Beyond state merging: the positives' own language and the shared-factor hypotheses compete,
    # and what shortest counterexamples imply constrains the candidates (off: classic RPNI / EDSM).
    augmented: bool = False
    # Plain examples read through a prior over character classes (:mod:`.prior`) instead of as one
    # atom, when no example is clustered (the teacher's classes are better evidence).
    class_prior: bool = False
    # Never answer longer than the positives listed (plain examples read through the prior): the
    # readable answer a practitioner wants; off in the loop, where a listing only memorizes.
    listing_cap: bool = False

    async def propose(self, context: LearnerContext) -> Proposal:
        """The smallest consistent hypothesis for the context's examples (and, when the learner is
        augmented and the teacher answers with shortest counterexamples, for what they imply), or a
        typed failure; printed as a draft (the loop prints a run's last one readably). The
        previous proposal, when the teacher rejected it, is not proposed again."""
        memory = agreement.remembered(context) if self.augmented else agreement.Memory()
        previous, verdict = context.previous, context.verdict
        refuted = previous.regex if previous is not None and verdict is not None and not verdict.equivalent else None
        return await asyncio.to_thread(self.learn, context.examples, context.dialect, context.universe, memory, True, refuted)

    def learn(
        self,
        examples: Sequence[Counterexample],
        dialect: Dialect,
        universe: CharSet,
        memory: agreement.Memory = agreement.Memory(),
        draft: bool = False,
        refuted: Regex | None = None,
    ) -> Proposal:
        """:meth:`propose` without the event loop: a pure function of the examples and the memory
        of earlier proposals (their agreements and the examples those implied), which the
        proposal's memo carries on with the examples implied now. With ``draft`` the hypothesis is
        printed quickly (:func:`automata.readable.draft`), else readably. A candidate of the
        language of ``refuted`` (a hypothesis the teacher rejected) is passed over: a teacher that
        shows nothing new (every string it has labels both alike) would otherwise get it again
        while other candidates are consistent."""
        started = time.perf_counter()
        facts = {e.string: e for e in memory.implied}
        with gc_paused():
            proposal = _learn(examples, dialect, universe, self, memory.agreements, facts, draft, refuted)
        seconds = time.perf_counter() - started
        kept = agreement.Memory(memory.agreements, tuple(facts.values()))
        return attrs.evolve(proposal, cost=LearnerCost(seconds=seconds), memo=kept if kept != agreement.Memory() else None)

    def encode_memo(self, memo: object) -> object:
        """The memory as JSON data (:class:`cegis.learner.MemoCodec`)."""
        return agreement.encode(memo)

    def decode_memo(self, data: object) -> object:
        """The memory from JSON data."""
        return agreement.decode(data)


def rpni() -> MergingLearner:
    """Classic RPNI over characters (Oncina & García), breadth-first merge order, no sinks."""
    return MergingLearner("rpni", "characters", (MergeOrder("rpni", sinks=False),))


def edsm() -> MergingLearner:
    """Evidence-driven state merging over characters, with rejecting sinks."""
    return MergingLearner("edsm", "characters", (MergeOrder("edsm"),))


def symbolic() -> MergingLearner:
    """Red-blue merging over the atoms of the examples' character sets; the smallest of the EDSM
    and RPNI orders, with and without sinks."""
    orders = tuple(
        MergeOrder(strategy, sinks=sinks, unlabeled_accept=accept)
        for sinks, accept in ((True, False), (False, False), (False, True))
        for strategy in ("edsm", "rpni")
    )
    return MergingLearner(
        "symbolic",
        "atoms",
        orders,
        complete_alike=True,
        readings=("tied", "representative"),
        augmented=True,
        class_prior=True,
    )


def symbolic_exbar() -> MergingLearner:
    """:func:`symbolic`, then a backtracking search (exbar) for a smaller consistent DFA below the
    greedy result, within 20,000 trial merges."""
    return attrs.evolve(symbolic(), name="symbolic-exbar", search_budget=20_000)


def _learn(
    examples: Sequence[Counterexample],
    dialect: Dialect,
    universe: CharSet,
    learner: MergingLearner,
    agreements: Sequence[agreement.Agreement],
    facts: dict[str, Example],
    draft: bool,
    refuted: Regex | None = None,
) -> Proposal:
    problems: list[str] = []
    earlier = agreement.Agreements.compile(agreements, dialect, universe, CHECK_STATE_LIMIT)
    written = learner.class_prior and not any(isinstance(e, ClusteredExample) for e in examples)
    fitting: list[tuple[DFA, str, Regex]] = []
    if written:  # templates that fit compete with the other families, and spare the merging (the slow part)
        fitting = [c for c in _templates(examples, universe, problems, learner.listing_cap) if not misclassified(c[0], examples)]
        fitting = [c for c in fitting if not earlier.implied(c[0])]
    candidates: list[tuple[DFA, str, Regex | None]] = list(fitting)

    def read(more: Sequence[Counterexample]) -> Sequence[Counterexample]:
        return lifted([*examples, *more], universe) if written else [*examples, *more]

    def plain(more: Sequence[Counterexample]) -> Sequence[Counterexample]:
        return [*examples, *more]

    def classed(more: Sequence[Counterexample]) -> Sequence[Counterexample]:
        return read_classes([*examples, *more], universe)

    def merged(view: Callable[[Sequence[Counterexample]], Sequence[Counterexample]]) -> list[tuple[DFA, str, Regex | None]]:
        found, implied = _consistent(view, universe, learner, problems, earlier, facts)
        if implied:
            found = [(dfa, f"{how}, {implied} implied examples") for dfa, how in found]
        return [(dfa, how, None) for dfa, how in found]

    if not candidates:  # merged through the prior and through the classes the examples ask for
        for reading in (read, classed) if written else (plain,):
            candidates += merged(reading)
        if written and learner.augmented:
            candidates += [(dfa, f"{how}, read through classes", None) for dfa, how in _finite(read(()), universe, earlier, problems)]
            candidates += _excluded(classed(()), universe, earlier, problems)
    if learner.augmented:
        candidates += [(dfa, how, None) for dfa, how in _finite(examples, universe, earlier, problems)]
        if not fitting or sum(e.label for e in examples) <= MOST_SPELLED_POSITIVES:
            candidates += _spelled(examples, universe, earlier, facts, problems)
    rejected = _refuted(refuted, universe)
    return _proposed(candidates, examples, dialect, universe, learner, written, problems, earlier if agreements else None, draft, rejected, fitting)


def _spelled(
    examples: Sequence[Counterexample],
    universe: CharSet,
    earlier: agreement.Agreements,
    facts: dict[str, Example],
    problems: list[str],
) -> list[tuple[DFA, str, Regex]]:
    """The factor hypotheses (:func:`_factored`) of the examples that keep the agreements, in
    rounds with what the others imply (:func:`_agreeing`)."""
    positives = [_representative(e) for e in examples if e.label]
    negatives = [_representative(e) for e in examples if not e.label]
    classes = symbol_alphabet(examples, universe, "atoms").classes
    shown: Counter[CharSet] = Counter()
    for example in examples:
        if isinstance(example, ClusteredExample):
            shown.update(_classes_shown(example))
    order = [c for c, _ in shown.most_common()]

    def factored(implied: Sequence[Example]) -> list[tuple[DFA, str, Regex]]:
        more = [e.string for e in implied if e.label], [e.string for e in implied if not e.label]
        return _factored([*positives, *more[0]], [*negatives, *more[1]], universe, classes, order, problems)

    spelled = {candidate[2]: candidate for _, keeping, _ in _agreeing(factored, earlier, facts) for candidate in keeping}
    return list(spelled.values())


def _proposed(
    candidates: Sequence[tuple[DFA, str, Regex | None]],
    examples: Sequence[Counterexample],
    dialect: Dialect,
    universe: CharSet,
    learner: MergingLearner,
    written: bool,
    problems: list[str],
    earlier: agreement.Agreements | None = None,
    draft: bool = False,
    refuted: DFA | None = None,
    prior: Sequence[tuple[DFA, str, Regex]] = (),
) -> Proposal:
    """The candidate of the shortest description (``written``: as plain examples read through the
    class prior are scored, :func:`.scoring.score`) whose printed regex labels every example right,
    or a typed failure with every candidate's problem; the language of the positives is preceded
    by itself with long runs looped (:func:`_runs_looped`). With ``written``, the learner's
    ``listing_cap`` and no ``earlier`` agreements to keep the answer is never longer than the
    positives listed as alternatives: past that, the shortest consistent print, or the listing. With
    ``draft`` (and no listing to be shorter than) the hypothesis is printed quickly, as a draft
    (``Proposal.draft``). A candidate of the ``refuted`` language is passed over. While one of the
    patterns of the prior among ``prior`` (:func:`.shapes.prior_patterns`, candidates that label every
    example right) accepts more than the positives, a candidate that only lists them comes last,
    the cap is the shortest such pattern's spelling when that is longer, and the listing is no answer."""
    positives = [_representative(e) for e in examples if e.label]
    listed = written and learner.listing_cap and bool(positives) and earlier is None
    listing = unparse(any_of(*map(union_regex, (e for e in examples if e.label))), dialect, universe) if listed else ""
    own = _strings_of([e for e in examples if e.label], universe) if listed and prior else None
    patterns = prior_patterns(prior, own) if own is not None else []
    shortest: Proposal | None = None
    draft = draft and not listed  # a listing is compared with the readable print

    @functools.cache
    def cap() -> int:
        return max(len(listing), min((len(_spelling(c[2], dialect, universe)) for c in patterns), default=0))

    def ranked(found: Sequence[tuple[DFA, str, Regex | None]]) -> list[tuple[DFA, str, Regex | None]]:
        return sorted(found, key=lambda c: score(c[0], positives, c[2], written))

    for dfa, how, regex in listing_last(_runs_looped(ranked(candidates), ranked, earlier), examples, own if patterns else None):
        if refuted is not None and equivalent(dfa, refuted):
            problems.append(f"{how}: the teacher rejected this language")
            continue
        wrong = misclassified(dfa, examples)
        if wrong:  # its print would be too (prints are exact), and printing costs far more than this
            problems.append(f"{how}: {_misses(wrong)}")
            continue
        if listed and regex is not None and len(spelled := _spelling(regex, dialect, universe)) > len(listing) and len(spelled) > cap():
            # a template spelled longer than the list of its positives: not worth printing readably
            # (a path's template of a dozen shapes: half a minute over Unicode)
            problems.append(f"{how}: spelled longer than the positives listed")
            continue
        try:
            text = _printed(dfa, dialect, universe, examples, regex, written, draft)
            problem, drafted = _check(text, examples, dialect, universe, dfa), draft
            if problem is not None and draft:  # a draft too large to compile back: the readable print
                text = _printed(dfa, dialect, universe, examples, regex, written)
                problem, drafted = _check(text, examples, dialect, universe, dfa), False
        except SizeLimitExceeded as error:
            problems.append(f"{how}: {error}")
            continue
        if problem is None:
            if listed:  # strings given up front: bounded repetitions unbounded where the prior prefers
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
    if listed and not patterns and _check(listing, examples, dialect, universe) is None:
        return _carrying(listing, dialect, universe, "the positives listed (every shorter candidate failed)")
    return shortest or _failure("search_exhausted", "; ".join(problems) or "no merge order succeeded")


def _refuted(regex: Regex | None, universe: CharSet) -> DFA | None:
    """The automaton of a rejected hypothesis (None when there is none, or it does not compile)."""
    if regex is None:
        return None
    try:
        return automaton_of(regex, universe)
    except AutomataError:
        return None


def _carrying(text: str, dialect: Dialect, universe: CharSet, reasoning: str, draft: bool = False) -> Proposal:
    """The proposal of the printed ``text`` with the automaton :func:`_check` compiled it to (remembered)."""
    regex = read_hypothesis(text, dialect, universe)
    return Proposal(regex, text, reasoning, draft=draft, automaton=automaton_of(regex, universe))


def _runs_looped(
    ranked: Sequence[tuple[DFA, str, Regex | None]],
    rank: Callable[[Sequence[tuple[DFA, str, Regex | None]]], list[tuple[DFA, str, Regex | None]]],
    earlier: agreement.Agreements | None,
) -> Iterator[tuple[DFA, str, Regex | None]]:
    """The ``ranked`` candidates, each language of the positives preceded by itself with its long
    runs looped (:func:`.runs.looped_runs`) where they keep the ``earlier`` agreements, ranked by
    ``rank``: when no other candidate describes the positives more briefly than listing them, a
    run they show at every length up to a long one is read as a repetition, not as a bound that a
    teacher of loop-free paths raises by one an epoch. Only then: looped runs competing with every
    candidate won where merging had found the language, and lost it."""
    for candidate in ranked:
        dfa, how, _ = candidate
        if how.startswith(LISTING):
            looped = [(d, f"{how}, {runs}", None) for d, runs in looped_runs(dfa)]
            yield from rank([c for c in looped if earlier is None or not earlier.implied(c[0])])
        yield candidate


def _agreeing(
    generate: Callable[[Sequence[Example]], list[_Candidate]], earlier: agreement.Agreements, facts: dict[str, Example]
) -> Iterator[tuple[list[_Candidate], list[_Candidate], list[Example]]]:
    """Rounds of candidates that ``generate`` makes from the examples the agreements imply,
    starting with ``facts`` (those implied before): each round adds, for every candidate that
    breaks an agreement, the shortest string where it does (labeled as the earlier hypothesis
    labels it, and added to ``facts`` too), until no string is new or :data:`ROUNDS`
    are done. Per round, the candidates, those of them that keep the agreements, and the implied
    examples they were made from."""
    implied = dict(facts)
    for _ in range(ROUNDS + 1):
        found = generate(list(implied.values()))
        broken = [earlier.implied(candidate[0]) for candidate in found]
        more = {e.string: e for wrong in broken for e in wrong if e.string not in implied}
        facts.update(more)
        yield found, [candidate for candidate, wrong in zip(found, broken) if not wrong], list(implied.values())
        if not more:
            return
        implied.update(more)


def _finite(
    examples: Sequence[Counterexample], universe: CharSet, earlier: agreement.Agreements, problems: list[str]
) -> list[tuple[DFA, str]]:
    """The language of the positives, when it keeps the agreements and has at most
    :data:`MAX_LISTING_STATES` states: the hypothesis that generalizes nothing, preferred where
    merging only builds loops the positives do not pump."""
    try:
        dfa = minimize(_strings_of([e for e in examples if e.label], universe))
    except AutomataError as error:
        problems.append(f"the positives: {error}")
        return []
    return [] if dfa.n_states > MAX_LISTING_STATES or earlier.implied(dfa) else [(dfa, LISTING)]


def _excluded(
    read: Sequence[Counterexample], universe: CharSet, earlier: agreement.Agreements, problems: list[str]
) -> list[tuple[DFA, str, Regex]]:
    """Everything but the negatives read through classes (:func:`.classes.excluded`), when it keeps
    the agreements and has at most :data:`MAX_LISTING_STATES` states."""
    regex = excluded(read)
    if regex is None:
        return []
    try:
        dfa = automaton_of(regex, universe)
    except AutomataError as error:
        problems.append(f"everything but the negatives: {error}")
        return []
    return [] if dfa.n_states > MAX_LISTING_STATES or earlier.implied(dfa) else [(dfa, "everything but the negatives", regex)]


def _templates(
    examples: Sequence[Counterexample], universe: CharSet, problems: list[str], separated: bool = False
) -> list[tuple[DFA, str, Regex]]:
    """The templates of the plain examples (:mod:`cegis.symbolic.merging.templates`, and with
    ``separated``, for strings given up front, of more shapes, :mod:`.shapes`, and along a repeated
    separator, :mod:`cegis.symbolic.merging.separated`), with their automata."""
    positives = [e.string for e in examples if isinstance(e, Example) and e.label]
    negatives = [e.string for e in examples if isinstance(e, Example) and not e.label]
    out = []
    written = shape_hypotheses(positives, negatives, universe, given=separated)
    for regex, how in written + (separated_hypotheses(positives, negatives, universe) if separated else []):
        try:
            out.append((automaton_of(regex, universe), how, regex))
        except AutomataError as error:
            problems.append(f"{how}: {error}")
    return out


def _factored(
    positives: Sequence[str],
    negatives: Sequence[str],
    universe: CharSet,
    classes: Sequence[CharSet],
    shown: Sequence[CharSet],
    problems: list[str],
) -> list[tuple[DFA, str, Regex]]:
    """The hypotheses made of the positives' shared factors (:mod:`cegis.symbolic.merging.factors`), with
    their regexes (the extended dialect prints them as they are, with ``&``, instead of their
    automata's state elimination)."""
    out = []
    kinds = [*shown, *classes]
    hypotheses = factor_hypotheses(positives, negatives, universe, classes, shown) + anchored_hypotheses(positives, negatives, universe, kinds)
    hypotheses += subsequence_hypotheses(positives, negatives, universe, shown, classes)
    for regex, how in hypotheses:
        try:
            dfa = automaton_of(regex, universe)
        except AutomataError as error:
            problems.append(f"{how}: {error}")
            continue
        out.append((dfa, how, regex))
    return out


@functools.lru_cache(maxsize=1 << 12)  # every epoch counts the same examples again
def _classes_shown(example: ClusteredExample) -> Counter[CharSet]:
    """How often each class of more than one character stands at a position of ``example``."""
    return Counter(p for p in example.positions if len(p) > 1)


def _representative(example: Counterexample) -> str:
    """One string of ``example`` (a clustered one's smallest)."""
    return example.string if isinstance(example, Example) else example.representative()


def _consistent(
    view: Callable[[Sequence[Counterexample]], Sequence[Counterexample]],
    universe: CharSet,
    learner: MergingLearner,
    problems: list[str],
    earlier: agreement.Agreements,
    facts: dict[str, Example],
) -> tuple[list[tuple[DFA, str]], int]:
    """The distinct DFAs that the learner's readings and merge orders find for the examples ``view``
    gives (with the implied ``facts`` and those found now) that label every example right and keep
    the ``earlier`` agreements, in rounds (:data:`ROUNDS`); and how many implied examples they were
    learned from. The rounds stop at the first with such a DFA (without agreements, once every
    reading has learned its witnesses); when nothing new is learned or the rounds are spent, the
    last DFAs that label every example right are the answer, though they break an agreement. The
    implied strings found are added to ``facts``."""
    implied = dict(facts)
    examples = view(list(implied.values()))
    readings = {reading: _Reading() for reading in learner.readings}
    patching = ROUNDS if earlier.automata else WITNESS_ROUNDS  # rounds of witnesses before misses are patched in
    latest: list[tuple[DFA, str]] = []
    for round_ in range(ROUNDS + 1):
        found: list[tuple[DFA, str]] = []
        broken: list[list[Example]] = []
        for name, reading in readings.items():
            last = round_ == ROUNDS
            if reading.stale or last:
                reading.learn(name, examples, universe, learner, 0 if last else patching, earlier, problems)
            found += [(dfa, f"{how}, {name}") for dfa, how in reading.found]
            broken += reading.broken
        if found:
            latest = found
        kept = [candidate for candidate, wrong in zip(found, broken) if not wrong]
        if kept and (earlier.automata or not any(reading.stale for reading in readings.values())):
            return kept, len(implied)
        new = {e.string: e for wrong in broken for e in wrong if e.string not in implied}
        if not new and not any(reading.stale for reading in readings.values()):
            break
        facts.update(new)
        implied.update(new)
        if new:  # every reading learns them
            examples = view(list(implied.values()))
            for reading in readings.values():
                reading.tree, reading.stale = None, True
    return latest, len(implied)


@attrs.define
class _Reading:
    """The state of one reading across the rounds of :func:`_consistent`: its witnesses so far, its
    prefix tree, the candidates it found last with the agreements each breaks (the strings that
    show it), and whether new strings are still to be learned."""

    witnesses: list[Example] = attrs.Factory(list)
    tree: _Tree | None = None
    found: list[tuple[DFA, str]] = attrs.Factory(list)
    broken: list[list[Example]] = attrs.Factory(list)
    missed: list[Example] = attrs.Factory(list)
    stale: bool = True
    rounds: int = 0  # rounds that learned witnesses

    def learn(
        self,
        name: TreeReading,
        examples: Sequence[Counterexample],
        universe: CharSet,
        learner: MergingLearner,
        patching: int,
        earlier: agreement.Agreements,
        problems: list[str],
    ) -> None:
        """Merge the tree of ``examples`` and the witnesses (the tree of the last round grown by the
        new witnesses, in the representative reading); when no merge order labels every example
        right, the misclassified strings become witnesses for the next round. A tree that cannot be
        built ends the reading (its problem noted). After ``patching`` rounds of witnesses, or past
        :data:`MAX_WITNESS_NODES` nodes, misses are patched in as exceptions instead."""
        try:
            tree = _extended(self.tree, self.missed) if self.tree is not None and name == "representative" else None
            tree = tree or _prefix_tree([*examples, *self.witnesses, *self.missed], universe, learner.granularity, name)
        except (ValueError, LabelConflict) as error:
            problems.append(f"{name}: {error}")
            self.found, self.broken, self.missed, self.stale = [], [], [], False
            return
        self.rounds += bool(self.missed)
        self.witnesses += self.missed
        self.tree = tree
        more, missed = _candidates(tree, learner, self.rounds >= patching or tree[1].nodes > MAX_WITNESS_NODES, problems)
        self.found, self.missed = more, [] if more else missed
        self.broken = [earlier.implied(dfa) for dfa, _ in more]
        self.stale = bool(self.missed)


def _extended(built: _Tree, more: Sequence[Example]) -> _Tree | None:
    """``built`` with the plain examples ``more`` added last, as :func:`_prefix_tree` builds it from
    the examples and them when they meet no differently labeled state (in the representative
    reading every word enters the tree literally, in order, so the earlier words make the same
    tree); ``None`` when they do, or need a class the tree has no column for (build it again)."""
    alphabet, tree, words, untied = built
    encode = encoder(alphabet)
    added = [word for word in map(encode, more) if word is not None]
    if len(added) < len(more):  # a string outside the universe: the tree would number the examples otherwise
        return None
    try:
        tree.extend(added, len(words))
    except (ValueError, LabelConflict):
        return None
    return alphabet, tree, [*words, *added], untied


def _candidates(
    built: _Tree, learner: MergingLearner, patch: bool, problems: list[str]
) -> tuple[list[tuple[DFA, str]], list[Example]]:
    """The distinct DFAs the merge orders find that satisfy every example, and, for those that
    miss a clustered example left out of the prefix tree, one misclassified string of each such
    example (to learn from literally in another round). With ``patch`` such a DFA is instead
    patched with the missed examples as exceptions."""
    alphabet, tree, words, untied = built
    universe = alphabet.universe
    candidates: dict[tuple[object, ...], tuple[DFA, str]] = {}
    witnesses: dict[str, Example] = {}

    def keep(red: list[int], how: str, unlabeled_accept: bool = False) -> None:
        dfa = minimize(table(tree, red, alphabet, similar, unlabeled_accept))
        missed = checked.misses(dfa)
        wrong = [untied[w][0] for w, _ in missed]
        if wrong and not patch:
            for w, path in missed:  # many misses spell one string: build each witness once
                string = "".join(map(representatives.__getitem__, path))
                if string not in witnesses:
                    witnesses[string] = Example(string, untied[w][1].label)
            return
        if len(wrong) > MAX_LISTING_STATES:  # a list longer than any hypothesis may be: not worth building
            problems.append(f"{how}: {len(wrong)} clustered examples left out of the tree are missed")
            return
        if wrong:
            try:
                dfa = _patched(dfa, wrong, universe)
            except AutomataError as error:
                problems.append(f"{how}: {len(wrong)} clustered examples left out of the tree: {error}")
                return
            if dfa.n_states > MAX_LISTING_STATES:  # printing it would take long and read badly
                problems.append(f"{how}: {dfa.n_states} states with {len(wrong)} exceptions")
                return
            how += f"+{len(wrong)} exceptions"
        key = (dfa.transitions.shape, dfa.transitions.tobytes(), dfa.accepting.tobytes())
        candidates.setdefault(key, (dfa, how))

    checked = PackedWords.pack([word for _, word in untied])
    representatives = [alphabet.representative(k) for k in range(len(alphabet))]
    similar = _alike(words, len(alphabet)) if learner.complete_alike else None
    fewest = None
    for order in dict.fromkeys(map(_merges, learner.orders)):  # one merge run for every labeling
        mark = tree.checkpoint()
        red = red_blue(tree, order)
        if red is None:
            problems.append(f"{order.name}: more than {order.max_states} states")
        else:
            for variant in (o for o in learner.orders if _merges(o) == order):
                keep(red, variant.name, variant.unlabeled_accept)
            fewest = len(red) if fewest is None else min(fewest, len(red))
        tree.undo(mark)
    if learner.search_budget:
        mark = tree.checkpoint()
        red = smallest(tree, fewest or MergeOrder().max_states, learner.search_budget)
        if red is not None:
            keep(red, "exbar")
        tree.undo(mark)
    return list(candidates.values()), list(witnesses.values())


def _merges(order: MergeOrder) -> MergeOrder:
    """The part of ``order`` that decides the merges (the labeling of unlabeled states does not)."""
    return attrs.evolve(order, unlabeled_accept=False)


def _prefix_tree(
    examples: Sequence[Counterexample],
    universe: CharSet,
    granularity: Granularity,
    reading: TreeReading,
) -> _Tree:
    """The alphabet, the prefix tree, the examples as words, and those left out of the tree (to
    check on the hypothesis). A clustered example is read as ``reading`` says; a tie that fails is
    spelled out class by class. When two examples meet in one node with different labels, the
    characters of plain strings that tell them apart are split off their classes (atom
    granularity), or the clustered example in the way is spelled out from the start."""
    refine: set[str] = set()
    spelled: set[int] = set()
    while True:
        alphabet = symbol_alphabet(examples, universe, granularity, refine)
        encode = encoder(alphabet)
        encoded = [(e, w) for e, w in ((e, encode(e)) for e in examples) if w is not None]
        words = [w for _, w in encoded]
        represented = [] if reading == "tied" else [i for i, w in enumerate(words) if i not in spelled and w.combinations > 1]
        in_tree = list(words)
        for i in represented:
            in_tree[i] = _represented(words[i], alphabet)
        try:
            tree, left_out = Quotient.prefix_tree(in_tree, spelled, MAX_SPELLED)
        except LabelConflict as conflict:
            first, second = encoded[conflict.first][0], encoded[conflict.second][0]
            split = distinguishing(first, second, refine) if granularity == "atoms" else set()
            if split:
                refine |= split
            elif conflict.inserting not in spelled and any(len(p) > 1 for p in words[conflict.inserting].positions):
                spelled.add(conflict.inserting)
            else:
                raise
            continue
        unchecked = sorted({*left_out, *represented})
        return alphabet, tree, words, [encoded[i] for i in unchecked]


@functools.lru_cache(maxsize=1 << 14)  # every round and epoch reads the same clustered examples again
def _represented(word: SymbolicWord, alphabet: Alphabet) -> SymbolicWord:
    """``word`` with each position read as its largest class (the first on a tie)."""
    sizes = _class_sizes(alphabet)
    return SymbolicWord.literal([max(position, key=lambda k: (sizes[k], -k)) for position in word.positions], word.label)


@functools.lru_cache(maxsize=16)
def _class_sizes(alphabet: Alphabet) -> list[int]:
    return [len(c) for c in alphabet.classes]


def _patched(dfa: DFA, wrong: Sequence[Counterexample], universe: CharSet) -> DFA:
    """``dfa`` with the strings of the misclassified examples added (positives) or taken out
    (negatives). Exact for consistent examples: no positive string is a negative one, so the
    exceptions touch no other example."""
    added = [e for e in wrong if e.label]
    removed = [e for e in wrong if not e.label]
    if added:  # all at once: one product and one minimization, not one per example
        dfa = union(dfa, _strings_of(added, universe), state_limit=CHECK_STATE_LIMIT)
    if removed:
        dfa = difference(dfa, _strings_of(removed, universe), state_limit=CHECK_STATE_LIMIT)
    return dfa


def _strings_of(examples: Sequence[Counterexample], universe: CharSet) -> DFA:
    """The strings any of ``examples`` stands for, as an automaton over ``universe``."""
    return compile_regex(any_of(*map(union_regex, examples)), universe, state_limit=CHECK_STATE_LIMIT)


def _alike(words: Sequence[SymbolicWord], size: int) -> Int64Array:
    """For each class, the other classes that share clustered positions with it, most often first
    (a row per class, -1 padded)."""
    return _alike_of(tuple(word for word in words if word.combinations > 1), size)


@functools.lru_cache(maxsize=16)  # the witness rounds add plain words only: the same clustered words each round
def _alike_of(clustered: tuple[SymbolicWord, ...], size: int) -> Int64Array:
    together = np.zeros((size, size), dtype=np.int64)
    shared = Counter(members for word in clustered for members in word.positions if len(members) > 1)
    for members, count in shared.items():
        together[np.ix_(members, members)] += count
    np.fill_diagonal(together, 0)
    ranked = np.argsort(-together, axis=1, kind="stable")  # most often first, then by class
    alike = np.where(np.take_along_axis(together, ranked, axis=1) > 0, ranked, -1)
    return alike[:, : max(1, int((together > 0).sum(axis=1).max(initial=0)))]


def _printed(
    dfa: DFA,
    dialect: Dialect,
    universe: CharSet,
    examples: Sequence[Counterexample],
    spelled: Regex | None = None,
    written: bool = False,
    draft: bool = False,
) -> str:
    """``dfa`` as a regex of ``dialect``: ``spelled`` without its redundant parts
    (:func:`automata.pruning.pruned`) when the dialect writes ``&`` and ``~`` (extended) or the
    learner reads plain examples through classes (``written``) and the dialect can write it, unless
    the automaton's readable regex is shorter; else that regex (:func:`automata.readable.readable`),
    which gives up (:class:`SizeLimitExceeded`) past :data:`CHECK_STATE_LIMIT` regex nodes: a regex
    that large would not compile back within the same limit of states. With ``draft``, that
    regex is :func:`automata.readable.draft`'s quick print instead."""
    texts = []
    if spelled is not None and (dialect == "extended" or written):
        try:
            texts.append(unparse(pruned(spelled, universe), dialect, universe))
        except RegexError:
            pass
    try:
        regex = (quick if draft else readable)(dfa, size_limit=CHECK_STATE_LIMIT, dialect=dialect)
    except SizeLimitExceeded:
        if texts:
            return texts[0]
        raise
    if regex != EmptySet() or dialect == "python":
        texts.append(unparse(regex, dialect, universe))
    elif dialect == "extended":  # no spelling of the empty set, but the complement of everything
        texts.append(unparse(Complement(Star(Chars(universe))), dialect, universe))
    if texts:
        return min(texts, key=len)
    # The simple dialect cannot write the empty language: accept one string no example rejects.
    for length in range(len(examples) + 1):  # each example covers at most one length
        for word in map("".join, itertools.product(sorted(universe), repeat=length)):
            if not any(_holds(e, word) for e in examples):
                return unparse(text_regex(word), dialect, universe)
    raise AssertionError("unreachable: fewer examples than lengths")


def _spelling(regex: Regex, dialect: Dialect, universe: CharSet) -> str:
    """``regex`` as it is written in ``dialect`` (empty when the dialect cannot write it)."""
    try:
        return unparse(regex, dialect, universe)
    except RegexError:
        return ""


def _holds(example: Counterexample, word: str) -> bool:
    return word in example if isinstance(example, ClusteredExample) else word == example.string


def _check(
    text: str, examples: Sequence[Counterexample], dialect: Dialect, universe: CharSet, consistent: DFA | None = None
) -> str | None:
    """Why the printed ``text`` is not a usable hypothesis for ``examples``, or ``None``; a print of
    the language of ``consistent`` (an automaton known to label every example right) is usable
    without checking the examples again (hundreds of clustered ones take a tenth of a second)."""
    try:
        compiled = automaton_of(read_hypothesis(text, dialect, universe), universe)
    except (RegexError, AutomataError) as error:
        return f"the printed regex does not compile back: {error}"
    if consistent is not None and equivalent(compiled, consistent):
        return None
    wrong = misclassified(compiled, examples)
    return _misses(wrong) if wrong else None


def _misses(wrong: Sequence[Counterexample]) -> str:
    return f"{len(wrong)} examples misclassified, e.g. {wrong[0].text()}"


def _failure(kind: str, detail: str) -> Proposal:
    return Proposal(None, failure=ProposalFailure(kind, detail))  # type: ignore[arg-type]
