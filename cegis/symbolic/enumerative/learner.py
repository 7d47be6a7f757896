"""The enumerative learner: the smallest regex consistent with the examples, verified, or a typed failure.

:func:`synthesize` is the pure core (examples in, :class:`Synthesis` out): it builds the search
space (:mod:`cegis.symbolic.enumerative.space`), searches it by size (:mod:`cegis.symbolic.enumerative.search`) and
checks the answer on the examples themselves with :func:`oracle.misclassified` on its compiled DFA.
Plain examples are exact in the search, so only a clustered example whose atom strings were
sampled can fail that check; a witness string of the failure is then added as a plain example and
the search runs again, at most ``refinements`` times. Nothing inconsistent is ever returned.

:class:`EnumerativeLearner` wraps it in the :class:`cegis.learner.Learner` protocol and runs it in a
worker thread, so the event loop stays free. It is a baseline and a minimality reference, not the
project's best learner: the bank grows exponentially with the size of the answer, so targets whose
smallest consistent regex is past ~12 nodes end in ``budget`` or ``timeout`` failures.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence

import attrs

from automata.algebra.ops import complement, inclusion_witness
from automata.building.compile import compile_many, compile_regex
from cegis.learner import Learner, LearnerContext, LearnerCost, Proposal, ProposalFailure
from cegis.symbolic.enumerative.search import Limits, NotFound, Stats, search, warm_up
from cegis.symbolic.enumerative.space import MAX_LENGTH, Contradiction, TooLong, build
from oracle.clustered import misclassified
from oracle.examples import ClusteredExample, Counterexample, Example
from regexlang.ast import Chars, EmptySet, Regex, concat
from regexlang.charset import CharSet
from regexlang.dialects import Dialect, unparse


@attrs.frozen
class EnumerativeConfig:
    """Budgets of the enumerative learner. The node budget (candidate signatures computed) is
    deterministic and by default binds before the time budget on an idle machine, so the same
    examples give the same answer; the time budget is the backstop under load."""

    max_candidates: int = 1_000_000
    seconds: float = 5.0
    max_size: int = 40
    bank_bytes: int = 256 * 2**20
    #: Share of the node budget kept for the goal-directed search past the stored sizes (0: none).
    goal_directed_share: float = 0.5
    #: Atom strings searched per clustered example; larger products are sampled and verified.
    cluster_samples: int = 16
    #: Re-searches after a sampled clustered example fails verification.
    refinements: int = 16
    #: Largest ``n`` of the counted repetitions ``x{n}`` built (extended and python dialects; 1: none).
    max_repeat: int = 6

    def limits(self, seconds: float) -> Limits:
        """The search limits with ``seconds`` left of the time budget."""
        goal_after = int(self.max_candidates * (1 - self.goal_directed_share))
        return Limits(self.max_candidates, seconds, self.max_size, self.bank_bytes, goal_after)


@attrs.frozen
class Synthesis:
    """The outcome of :func:`synthesize`: a verified regex and its size, or a typed failure."""

    regex: Regex | None
    size: int = 0
    failure: ProposalFailure | None = None
    stats: Stats = Stats()
    searches: int = 0


def synthesize(
    examples: Sequence[Counterexample],
    dialect: Dialect,
    universe: CharSet,
    config: EnumerativeConfig = EnumerativeConfig(),
    *,
    seed: int = 0,
    clock: Callable[[], float] = time.perf_counter,
) -> Synthesis:
    """The smallest regex (in nodes, with binary ``·`` and ``|``) consistent with ``examples``."""
    warm_up()
    started = clock()
    if not any(e.label for e in examples) and dialect == "python":
        return Synthesis(EmptySet(), 1)
    witnesses: list[Example] = []
    total = Stats()
    for attempt in range(config.refinements + 1):
        try:
            space = build(
                examples,
                dialect,
                universe,
                cluster_cap=config.cluster_samples,
                max_repeat=config.max_repeat,
                seed=seed,
                extra=witnesses,
            )
        except (
            Contradiction,
            TooLong,
        ) as error:  # beyond what any search of this space can satisfy
            return Synthesis(
                None, failure=ProposalFailure("search_exhausted", str(error)), searches=attempt
            )
        outcome = search(space, config.limits(config.seconds - (clock() - started)), clock)
        total = _add(total, outcome.stats)
        if isinstance(outcome, NotFound):
            failure = ProposalFailure(outcome.kind, outcome.detail)
            return Synthesis(None, failure=failure, stats=total, searches=attempt + 1)
        wrong = misclassified(compile_regex(outcome.regex, universe), examples)
        if not wrong:
            return Synthesis(outcome.regex, outcome.size, stats=total, searches=attempt + 1)
        witnesses.extend(_witness(outcome.regex, example, universe) for example in wrong)
    detail = (
        f"still inconsistent with sampled clustered examples after {config.refinements} refinements"
    )
    return Synthesis(
        None,
        failure=ProposalFailure("budget", detail),
        stats=total,
        searches=config.refinements + 1,
    )


def _add(total: Stats, more: Stats) -> Stats:
    return Stats(
        total.computed + more.computed,
        max(total.stored, more.stored),
        more.size,
        total.seconds + more.seconds,
        total.bank_stopped or more.bank_stopped,
    )


def _witness(hypothesis: Regex, example: Counterexample, universe: CharSet) -> Example:
    """A string of the clustered ``example`` that ``hypothesis`` labels wrongly, as a plain example."""
    if not isinstance(example, ClusteredExample):
        raise AssertionError(
            f"the search is exact on plain examples, yet {example.text()} is misclassified"
        )
    strings = concat(*(Chars(p & universe) for p in example.positions))
    inside, guess = compile_many([strings, hypothesis], universe)
    found = inclusion_witness(inside, guess if example.label else complement(guess))
    if found is None or len(found.string) > MAX_LENGTH:
        raise AssertionError(f"no witness of the misclassified {example.text()}")
    return Example(found.string, example.label)


@attrs.frozen
class EnumerativeLearner(Learner[None]):
    """Best-first by size over regex trees in the task's dialect; a typed failure past its budgets.
    Each proposal searches afresh (its memo type is ``None``)."""

    config: EnumerativeConfig = EnumerativeConfig()
    name: str = "enumerative"

    async def propose(self, context: LearnerContext[None]) -> Proposal[None]:
        """The smallest regex consistent with every example of ``context``, or why there is none."""
        started = time.perf_counter()
        result = await asyncio.to_thread(
            synthesize,
            context.examples,
            context.dialect,
            context.universe,
            self.config,
            seed=context.seed,
        )
        cost = LearnerCost(seconds=time.perf_counter() - started)
        stats = result.stats
        reasoning = f"{stats.computed} candidates, {stats.stored} distinct signatures, {result.searches} searches"
        if result.regex is None:
            assert result.failure is not None
            return Proposal(None, reasoning=reasoning, failure=result.failure, cost=cost)
        text = unparse(result.regex, context.dialect, context.universe)
        which = "a small" if stats.bank_stopped else "the smallest"
        return Proposal(
            result.regex,
            text,
            f"{which} consistent regex, {result.size} nodes; {reasoning}",
            cost=cost,
        )
