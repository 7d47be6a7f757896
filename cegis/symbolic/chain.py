"""A learner that asks several learners in turn and keeps the first hypothesis: "smallest first".

For a fixed set of examples a practitioner wants the smallest consistent regex when one can be
found within budget, and a consistent one in any case. The enumerative learner finds the smallest
or fails past its node and time budget; the best state-merging learner generalizes where the
enumeration gives up; the union of the positives is consistent whenever the examples are. Asked in
that order, the first proposal with a hypothesis wins, and the proposal's cost is everything asked.
Each inner learner keeps its own memo (the chain's memo, :class:`ChainMemo`, holds them in order).
"""

from __future__ import annotations

from typing import Any

import attrs

from cegis.learner import Learner, LearnerContext, LearnerCost, Proposal, ProposalFailure
from cegis.registry import REGISTRY, default_passive


@attrs.frozen
class ChainMemo:
    """The memo of each inner learner of a :class:`FirstConsistent`, in the order asked (each of
    its own type: the inner learners are any learners)."""

    memos: tuple[Any, ...]


@attrs.frozen
class FirstConsistent(Learner[ChainMemo]):
    """Asks ``learners`` in order; the first proposal carrying a hypothesis is the answer."""

    learners: tuple[Learner[Any], ...]
    name: str = "first-consistent"

    async def propose(self, context: LearnerContext[ChainMemo]) -> Proposal[ChainMemo]:
        """The first inner proposal with a hypothesis, or ``search_exhausted`` naming every failure."""
        memos = self._memos(context)
        cost = LearnerCost()
        failures = []
        for i, learner in enumerate(self.learners):
            previous = (
                None if context.previous is None else attrs.evolve(context.previous, memo=memos[i])
            )
            inner: LearnerContext[Any] = attrs.evolve(context, previous=previous)
            proposal = await learner.propose(inner)
            cost += proposal.cost
            memos = (*memos[:i], proposal.memo, *memos[i + 1 :])
            if proposal.ok:
                return attrs.evolve(
                    proposal,
                    cost=cost,
                    memo=ChainMemo(memos),
                    reasoning=f"[{learner.name}] {proposal.reasoning}",
                )
            failures.append(f"{learner.name}: {proposal.failure}")
        return Proposal(
            None,
            failure=ProposalFailure("search_exhausted", "; ".join(failures)),
            cost=cost,
            memo=ChainMemo(memos),
        )

    def _memos(self, context: LearnerContext[ChainMemo]) -> tuple[Any, ...]:
        memo = None if context.previous is None else context.previous.memo
        return (None,) * len(self.learners) if memo is None else memo.memos


def smallest_first() -> FirstConsistent:
    """The enumerative learner, then the best learner without membership queries, then the union
    of the positives (each only when registered)."""
    names = dict.fromkeys(n for n in ("enumerative", default_passive(), "union") if n in REGISTRY)
    return FirstConsistent(tuple(REGISTRY[n].build() for n in names), "smallest-first")
