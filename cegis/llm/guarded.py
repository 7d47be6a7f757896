"""The verified fallback of the guarded LLM learner (SEVerA Sec. 4.2, 6.4).

When every draw of the guarded learner fails its contract, a symbolic learner supplies the
hypothesis instead. The fallback's answer is *checked*, not trusted, against the whole contract
a draw must meet: it parses, compiles, stays in the alphabet and within the regularization bounds,
and satisfies every example (clustered ones universally). The fallbacks are tried in order and
the first whose hypothesis meets the contract wins. When none does (the union of the positives
outgrows the length bound, or the labels contradict each other), the proposal is a typed failure
that names the violated checks: the guard never passes off a hypothesis outside its contract.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import attrs

from cegis.learner import Learner, LearnerContext, LearnerCost, Proposal, ProposalFailure
from cegis.llm.answers import ParsedAnswer
from cegis.llm.contract import GUARD_CHECKS, assess
from cegis.llm.prompts import Regularization


async def fallback(
    learners: Sequence[Learner],
    context: LearnerContext,
    *,
    bounds: Regularization | None,
    state_limit: int,
) -> tuple[Proposal, str] | ProposalFailure:
    """The first fallback hypothesis meeting the guard's whole contract, with the fallback's name;
    else the last failure (a contract violation names the fallback and the failing checks)."""
    failure = ProposalFailure("search_exhausted", "no fallback learner was configured")
    spent = LearnerCost()
    # The previous proposal is the model's: a fallback sees its regex (refuted or not), never the
    # model's memo, whose type is the LLM learner's own.
    previous = context.previous
    own = (
        context
        if previous is None
        else attrs.evolve(context, previous=attrs.evolve(previous, memo=None))
    )
    for learner in learners:
        proposal = await learner.propose(own)
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
        violated = "; ".join(v.detail for v in judged.failing(GUARD_CHECKS))
        detail = (
            f"the fallback {learner.name}'s {proposal.text!r} violates the contract: {violated}"
        )
        failure = ProposalFailure(judged.failure_kind(GUARD_CHECKS) or "inconsistent", detail)
    return failure


def _with_cost(proposal: Proposal, cost: LearnerCost) -> Proposal:
    return Proposal(
        proposal.regex,
        proposal.text,
        proposal.reasoning,
        None,
        cost,
        None,
        automaton=proposal.automaton,
    )
