"""The verified fallback of the guarded LLM learner (SEVerA Sec. 4.2, 6.4).

When every draw of the guarded learner fails its contract, a symbolic learner supplies the
hypothesis instead, so the epoch still ends with a valid hypothesis consistent with every example.
The fallback's answer is *checked*, not trusted: it must parse, compile and satisfy every example
(clustered ones universally), as any draw must. The fallbacks are tried in order and the first
whose hypothesis meets the whole contract wins. The regularization bounds are the one part of the
contract a consistent hypothesis cannot always meet (the union of the positives grows with the
data), so when no fallback meets them, the first fallback that is valid and consistent wins and
the bounds stay violated; with no valid, consistent fallback at all (contradictory labels) the
proposal is the typed failure of the last one tried.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from cegis.llm.contract import GUARD_CHECKS, REPAIR_CHECKS, assess
from cegis.learner import Learner, LearnerContext, LearnerCost, Proposal, ProposalFailure
from cegis.llm.answers import ParsedAnswer
from cegis.llm.prompts import Regularization


async def fallback(
    learners: Sequence[Learner], context: LearnerContext, *, bounds: Regularization | None, state_limit: int
) -> tuple[Proposal, str] | ProposalFailure:
    """The first fallback hypothesis meeting the guard's contract (else the first valid and
    consistent one) with the fallback's name, or the last failure."""
    failure = ProposalFailure("search_exhausted", "no fallback learner was configured")
    consistent: tuple[Proposal, str] | None = None
    spent = LearnerCost()
    for learner in learners:
        proposal = await learner.propose(context)
        spent += proposal.cost
        if proposal.regex is None:
            failure = proposal.failure or failure
            continue
        answer = ParsedAnswer(proposal.text, proposal.regex)
        judged = await asyncio.to_thread(
            assess,
            answer,
            "",
            context.examples,
            dialect=context.dialect,
            universe=context.universe,
            bounds=bounds,
            state_limit=state_limit,
            reading=context.reading,
        )
        if judged.meets(GUARD_CHECKS):
            return _with_cost(proposal, spent), learner.name
        if judged.meets(REPAIR_CHECKS) and consistent is None:
            consistent = (proposal, learner.name)
        failure = ProposalFailure(judged.failure_kind(GUARD_CHECKS) or "inconsistent", judged.feedback(GUARD_CHECKS))
    if consistent is not None:
        return _with_cost(consistent[0], spent), consistent[1]
    return failure


def _with_cost(proposal: Proposal, cost: LearnerCost) -> Proposal:
    return Proposal(proposal.regex, proposal.text, proposal.reasoning, None, cost, None)
