"""State-merging learners behind the :class:`cegis.learner.Learner` protocol (RPNI, EDSM, symbolic).

Each proposal re-learns from every example so far (an early wrong merge from sparse data is not
carried on), makes candidates with several merge orders (and, augmented, other hypothesis
families), and proposes the one of the shortest description (:mod:`.rounds.scoring`) whose printed
regex labels every example right (:mod:`.gathering` runs one call); the search runs in a worker
thread so the event loop stays free. The factories below are the registry's learners."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence

import attrs

from cegis.gc_pause import gc_paused
from cegis.learner import LearnerContext, LearnerCost, Proposal
from cegis.symbolic.merging.core.prefix_tree import TreeReading
from cegis.symbolic.merging.core.redblue import MergeOrder
from cegis.symbolic.merging.core.symbols import Granularity
from cegis.symbolic.merging.gathering import learn as _learn
from cegis.symbolic.merging.rounds import agreement
from oracle.examples import Counterexample
from regexlang.ast import Regex
from regexlang.charset import CharSet
from regexlang.dialects import Dialect


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
    # Plain examples read through a prior over character classes (:mod:`.families.prior`) instead of as one
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
        refuted = (
            previous.regex
            if previous is not None and verdict is not None and not verdict.equivalent
            else None
        )
        return await asyncio.to_thread(
            self.learn, context.examples, context.dialect, context.universe, memory, True, refuted
        )

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
        printed quickly (:func:`automata.printing.readable.draft`), else readably. A candidate of the
        language of ``refuted`` (a hypothesis the teacher rejected) is passed over: a teacher that
        shows nothing new (every string it has labels both alike) would otherwise get it again
        while other candidates are consistent."""
        started = time.perf_counter()
        with gc_paused():
            proposal, facts = _learn(
                examples, dialect, universe, self, memory.agreements, memory.implied, draft, refuted
            )
        seconds = time.perf_counter() - started
        kept = agreement.Memory(memory.agreements, facts)
        return attrs.evolve(
            proposal,
            cost=LearnerCost(seconds=seconds),
            memo=kept if kept != agreement.Memory() else None,
        )

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
