"""A model's answer whose compile outgrows its budget is an unusable proposal with the reason, and
the run goes on (issue 50, item 6: thirty lookaheads as an answer held a unit and its worker for
minutes, the learner's budget never consulted inside the compile)."""

from __future__ import annotations

import asyncio
import string

import attrs

from cegis.config import LoopConfig
from cegis.llm.learner import LLMLearner
from cegis.llm.settings import setting_named
from cegis.llm.setup import prepare_llm_run
from cegis.loop import run
from cegis.state import Task
from cegis.symbolic.union import UnionLearner
from oracle.compiling import ANSWER_SECONDS
from tests.cegis.llm.scripted_server import Reply, Rule, ScriptedServer
from tests.llm.support import fast_retries, make_client

#: Thirty lookaheads: about 2³⁰ states, each residual an intersection of thirty-one conditions.
THIRTY = "".join(f"(?=.*{string.ascii_lowercase[i % 26]}{i % 10})" for i in range(30)) + "[a-z0-9]*"


def test_an_answer_past_the_learners_compile_budget_is_unusable_and_the_run_goes_on() -> None:
    async def scenario() -> None:
        rules = (Rule("TRAINING DATA", (Reply.answer(THIRTY),)),)
        async with ScriptedServer(rules) as scripted:
            async with make_client(scripted.base_url, retry=fast_retries(2)) as client:
                prepared = prepare_llm_run(
                    setting_named("single"),
                    Task("python", "[a-z]*0"),
                    LoopConfig(),
                    client,
                    fallbacks=(UnionLearner(),),
                )
                learner = prepared.learner
                assert isinstance(learner, LLMLearner)
                assert learner.compile_seconds == ANSWER_SECONDS
                quick = attrs.evolve(learner, compile_seconds=0.5)
                config = attrs.evolve(
                    prepared.config, budgets=attrs.evolve(prepared.config.budgets, epochs=2)
                )
                state = await run(prepared.task, quick, prepared.teacher, config)
        assert state.epoch == 2 and state.outcome == "epochs", (state.epoch, state.outcome)
        for record in state.records:
            assert record.failure is not None
            assert "took more than its 0.5 s budget" in record.failure.detail, record.failure

    asyncio.run(scenario())
