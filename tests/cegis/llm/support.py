"""One way for the LLM learner's tests to run the real loop and client against a scripted loopback
server: ``learn(rules, setting, check=...)`` answers by ``rules`` and hands ``check`` the server
(its requests) and the final state."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import attrs

from cegis.config import LoopConfig
from cegis.llm.settings import LLMSetting
from cegis.llm.setup import prepare_llm_run
from cegis.loop import run
from cegis.state import EpochState, Task
from cegis.symbolic.union import UnionLearner
from tests.cegis.llm.scripted_server import Rule, ScriptedServer
from tests.llm.support import fast_retries, make_client

TARGET = "a (b + c)*"


def learn(
    rules: tuple[Rule, ...],
    setting: LLMSetting,
    *,
    target: str = TARGET,
    epochs: int = 4,
    config: LoopConfig = LoopConfig(),
    check: Callable[[ScriptedServer, EpochState], None],
    **server: Any,
) -> None:
    """Run the loop on ``target`` with ``setting`` (at most ``epochs``) against a server answering
    by ``rules`` (``server`` holds more :class:`ScriptedServer` options, e.g. ``vllm=True``)."""

    async def scenario() -> None:
        async with ScriptedServer(rules, **server) as scripted:
            async with make_client(scripted.base_url, retry=fast_retries(2)) as client:
                prepared = prepare_llm_run(
                    setting, Task("simple", target), config, client, fallbacks=(UnionLearner(),)
                )
                loop = attrs.evolve(
                    prepared.config, budgets=attrs.evolve(prepared.config.budgets, epochs=epochs)
                )
                state = await run(prepared.task, prepared.learner, prepared.teacher, loop)
                check(scripted, state)

    asyncio.run(scenario())
