"""State-merging learners behind the :class:`cegis.learner.Learner` protocol (RPNI, EDSM, symbolic).

Each proposal re-learns from every example so far (an early wrong merge from sparse data is not
carried on), makes candidates with several merge orders (and, augmented, other hypothesis
families), and proposes the one of the shortest description (:mod:`.rounds.scoring`) whose printed
regex labels every example right (:mod:`.gathering` runs one call); the search runs in a worker
thread so the event loop stays free. The learner's memo (:class:`MergingMemo`) carries the
agreements from one proposal to the next and the run's cache (:class:`.core.run_cache.RunCache`),
so the work an epoch repeats is remembered for the run and dropped with it. The factories below are
the registry's learners."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence

import attrs

from cegis.gc_pause import gc_paused
from cegis.learner import LearnerContext, LearnerCost, Proposal, RestartableLearner
from cegis.symbolic.merging.candidate import sized_for
from cegis.symbolic.merging.core.prefix_tree import TreeReading
from cegis.symbolic.merging.core.redblue import MergeOrder
from cegis.symbolic.merging.core.run_cache import RunCache
from cegis.symbolic.merging.core.symbols import Granularity
from cegis.symbolic.merging.gathering import learn as _learn
from cegis.symbolic.merging.rounds import agreement
from oracle.examples import Counterexample
from regexlang.ast import Regex
from regexlang.charset import CharSet
from regexlang.dialects import Dialect


@attrs.frozen
class MergingMemo:
    """What a merging learner carries from one proposal to the next: the agreements and the
    examples they implied (``memory``, what a restart keeps), and the run's ``cache`` (work
    remembered for the run, never recorded: a resumed run starts with an empty one)."""

    memory: agreement.Memory = agreement.Memory()
    cache: RunCache = attrs.field(factory=RunCache, eq=False, repr=False)


@attrs.frozen
class MergingLearner(RestartableLearner[MergingMemo]):
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
    # Plain examples read through a prior over character classes (:mod:`.families.prior`) instead of as one
    # atom, when no example is clustered (the teacher's classes are better evidence).
    class_prior: bool = False
    # Never answer longer than the positives listed (plain examples read through the prior): the
    # readable answer a practitioner wants; off in the loop, where a listing only memorizes.
    listing_cap: bool = False

    async def propose(self, context: LearnerContext[MergingMemo]) -> Proposal[MergingMemo]:
        """The smallest consistent hypothesis for the context's examples (and, when the learner is
        augmented and the teacher answers with shortest counterexamples, for what they imply), or a
        typed failure; printed as a draft (the loop prints a run's last one readably). The
        previous proposal, when the teacher rejected it, is not proposed again."""
        previous, verdict = context.previous, context.verdict
        memo = previous.memo if previous is not None and previous.memo is not None else None
        memo = memo or MergingMemo()
        memory = (
            agreement.remembered(memo.memory, context) if self.augmented else agreement.Memory()
        )
        refuted = (
            previous.regex
            if previous is not None and verdict is not None and not verdict.equivalent
            else None
        )
        return await asyncio.to_thread(
            self.learn,
            context.examples,
            context.dialect,
            context.universe,
            memory,
            True,
            refuted,
            memo.cache,
        )

    def learn(
        self,
        examples: Sequence[Counterexample],
        dialect: Dialect,
        universe: CharSet,
        memory: agreement.Memory = agreement.Memory(),
        draft: bool = False,
        refuted: Regex | None = None,
        cache: RunCache | None = None,
    ) -> Proposal[MergingMemo]:
        """:meth:`propose` without the event loop: a pure function of the examples and the memory
        of earlier proposals (their agreements and the examples those implied), which the
        proposal's memo carries on with the examples implied now. With ``draft`` the hypothesis is
        printed quickly (:func:`automata.printing.readable.draft`), else readably. A candidate of the
        language of ``refuted`` (a hypothesis the teacher rejected) is passed over: a teacher that
        shows nothing new (every string it has labels both alike) would otherwise get it again
        while other candidates are consistent. ``cache`` is the run's (a call without one is a run
        of its own), which the proposal's memo carries on."""
        started = time.perf_counter()
        cache = cache or RunCache()
        with gc_paused(), sized_for(examples):
            proposal, facts = _learn(
                examples,
                dialect,
                universe,
                self,
                memory.agreements,
                memory.implied,
                draft,
                cache,
                refuted,
            )
        seconds = time.perf_counter() - started
        kept = MergingMemo(agreement.Memory(memory.agreements, facts), cache)
        return Proposal(
            proposal.regex,
            proposal.text,
            proposal.reasoning,
            proposal.failure,
            LearnerCost(seconds=seconds),
            kept,
            proposal.candidates,
            proposal.draft,
            proposal.automaton,
        )

    def encode_memo(self, memo: MergingMemo) -> object:
        """The agreements as JSON data (:class:`cegis.learner.MemoCodec`); ``None`` when there are
        none (the cache is never recorded)."""
        return None if memo.memory == agreement.Memory() else agreement.encode(memo.memory)

    def decode_memo(self, data: object) -> MergingMemo | None:
        """The memo from JSON data, with an empty cache."""
        memory = agreement.decode(data)
        return None if memory is None else MergingMemo(memory)


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
