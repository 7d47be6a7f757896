"""The smallest-first chain: the first inner learner with a hypothesis answers, costs add up."""

from __future__ import annotations

import asyncio

from cegis.learner import LearnerContext, Proposal
from cegis.symbolic.chain import ChainMemo, FirstConsistent, smallest_first
from cegis.symbolic.union import UnionLearner
from oracle import Example
from regexlang import CharSet
from tests.cegis.support import FailingLearner

CONTEXT = LearnerContext("simple", CharSet.of("ab"), (Example("ab", True), Example("b", False)))


def propose(chain: FirstConsistent, context: LearnerContext = CONTEXT) -> Proposal:
    return asyncio.run(chain.propose(context))


def test_the_first_hypothesis_wins_and_every_call_is_paid_for() -> None:
    chain = FirstConsistent((FailingLearner(tokens=5), UnionLearner(), FailingLearner(tokens=7)))
    proposal = propose(chain)
    assert proposal.text == "a b" and proposal.cost.calls == 1 and proposal.cost.prompt_tokens == 5
    assert proposal.memo == ChainMemo((None, None, None)) and proposal.reasoning.startswith(
        "[union]"
    )


def test_when_every_learner_fails_the_failure_names_each() -> None:
    proposal = propose(FirstConsistent((FailingLearner("timeout"), FailingLearner("budget"))))
    assert proposal.failure is not None and proposal.failure.kind == "search_exhausted"
    assert proposal.failure.detail.count("failing: ") == 2 and "timeout" in proposal.failure.detail


def test_smallest_first_ends_with_the_union_and_answers_the_smallest() -> None:
    chain = smallest_first()
    assert chain.learners[-1].name == "union" and chain.learners[0].name == "enumerative"
    assert propose(chain).text == "a b"
