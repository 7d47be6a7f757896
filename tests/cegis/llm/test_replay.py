"""Determinism of LLM runs: a replayed run writes identical records, a resumed run pays no call twice."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import attrs
import pytest

from cegis.config import Budgets, LoopConfig
from cegis.learner import LearnerContext, Proposal
from cegis.llm.learner import LLMLearner
from cegis.llm.memo import LLMMemo
from cegis.llm.settings import Guard, LLMSetting, setting_named
from cegis.llm.setup import prepare_llm_run
from cegis.records import run_recorded, without_wall_clock
from cegis.state import Task
from cegis.symbolic.union import UnionLearner
from llm.calllog import CallLog
from llm.client import Mode
from tests.cegis.llm.scripted_server import Reply, Rule, ScriptedServer
from tests.llm.support import make_client

TARGET = "a (b + c)*"
SETTING = attrs.evolve(setting_named("agentic"), repair_budget=2)
RULES = (  # repair prompts of later epochs carry the reflection too, so the repair rule comes first
    Rule("REPAIR OF THE PREVIOUS ATTEMPT", (Reply.answer("a b*"),)),
    Rule("REFLECTION ON THE PREVIOUS EPOCH", (Reply.answer("a (b + c)"), Reply.answer(TARGET))),
    Rule("TRAINING DATA", (Reply.answer("a (b"),)),
)


class Killed(Exception):
    """Stands for the process dying."""


@attrs.frozen(eq=False)
class KilledAt:
    """The learner, except that the process dies right after epoch ``epoch``'s proposal was paid."""

    inner: LLMLearner
    epoch: int

    @property
    def name(self) -> str:
        return self.inner.name

    async def propose(self, context: LearnerContext[LLMMemo]) -> Proposal[LLMMemo]:
        proposal = await self.inner.propose(context)
        if context.epoch == self.epoch:
            raise Killed
        return proposal

    def encode_memo(self, memo: LLMMemo) -> object:
        return self.inner.encode_memo(memo)

    def decode_memo(self, data: object) -> LLMMemo | None:
        return self.inner.decode_memo(data)


async def _run(
    server: ScriptedServer | None,
    records: Path,
    log_path: Path | None,
    mode: Mode,
    setting: LLMSetting = SETTING,
    kill_at: int | None = None,
) -> None:
    log = None if log_path is None else CallLog(log_path)
    base_url = "http://127.0.0.1:9/v1" if server is None else server.base_url
    try:
        async with make_client(base_url, log=log, mode=mode, model="scripted-model") as client:
            prepared = prepare_llm_run(
                setting,
                Task("simple", TARGET),
                LoopConfig(evaluate=False),
                client,
                fallbacks=(UnionLearner(),),
            )
            config = attrs.evolve(prepared.config, budgets=Budgets(epochs=6))
            learner = prepared.learner if kill_at is None else KilledAt(prepared.learner, kill_at)
            await run_recorded(prepared.task, learner, prepared.teacher, config, records)
    finally:
        if log is not None:
            log.close()


def _records(path: Path) -> list[object]:
    return [without_wall_clock(json.loads(line)) for line in path.read_text().splitlines()]


@pytest.mark.parametrize("name", ["agentic", "guarded"])
def test_replay_of_a_recorded_run_writes_identical_records(tmp_path: Path, name: str) -> None:
    setting = (
        SETTING
        if name == "agentic"
        else attrs.evolve(setting_named("guarded"), guard=Guard(draws=2))
    )

    async def scenario() -> None:
        async with ScriptedServer(RULES) as server:
            await _run(
                server, tmp_path / "recorded.jsonl", tmp_path / "calls.sqlite", "record", setting
            )
            paid = server.chat_calls
        await _run(None, tmp_path / "replayed.jsonl", tmp_path / "calls.sqlite", "replay", setting)
        assert paid > 2

    asyncio.run(scenario())
    recorded, replayed = (
        _records(tmp_path / "recorded.jsonl"),
        _records(tmp_path / "replayed.jsonl"),
    )
    assert recorded == replayed and recorded[-1]["outcome"] == "equivalent"  # type: ignore[index]


def test_a_killed_run_resumes_from_records_and_call_log_without_paying_twice(
    tmp_path: Path,
) -> None:
    async def scenario() -> tuple[int, int]:
        async with ScriptedServer(RULES) as whole:
            await _run(whole, tmp_path / "whole.jsonl", None, "live")
        async with ScriptedServer(RULES) as server:
            with pytest.raises(Killed):
                await _run(
                    server,
                    tmp_path / "resumed.jsonl",
                    tmp_path / "calls.sqlite",
                    "record",
                    kill_at=1,
                )
            before = server.chat_calls
            await _run(server, tmp_path / "resumed.jsonl", tmp_path / "calls.sqlite", "record")
            assert (
                0 < before < server.chat_calls
            )  # the killed run paid epoch 1's calls; the resumed one went on
            return whole.chat_calls, server.chat_calls

    whole_calls, resumed_calls = asyncio.run(scenario())
    assert resumed_calls == whole_calls
    whole, resumed = _records(tmp_path / "whole.jsonl"), _records(tmp_path / "resumed.jsonl")
    assert resumed == whole and len(whole) >= 3
