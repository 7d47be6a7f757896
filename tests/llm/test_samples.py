"""Which calls are the same sample (one rule in live, record and replay), replies whose choices
finished differently, and prompts that leave no room for a completion."""

from __future__ import annotations

import asyncio
import math
from pathlib import Path

import pytest

from llm.calllog import CallLog
from llm.chat import Message, ModelInfo, Request, SamplingParams, fit_budget
from llm.client import Mode
from llm.results import Choice, Completion, Failed, Result, Truncated
from tests.llm.fake_server import Answer, Choices, Delay, FakeServer
from tests.llm.support import MESSAGES, make_client

WARM = SamplingParams(temperature=0.7)


def _content(result: Result) -> str:
    assert not isinstance(result, Failed), result
    return result.content


@pytest.mark.parametrize("mode", ["live", "record"])
def test_two_identical_calls_above_temperature_zero_are_two_samples_in_every_mode(
    mode: Mode, tmp_path: Path
) -> None:
    async def scenario() -> None:
        async with FakeServer(default=Answer(content="s", numbered=True)) as server:
            with CallLog(tmp_path / "calls.sqlite") as log:
                async with make_client(server.base_url, log=log, mode=mode) as client:
                    first = await client.complete(MESSAGES, WARM)
                    second = await client.complete(MESSAGES, WARM)
            assert len(server.requests) == 2
        assert [_content(first), _content(second)] == ["s #0", "s #1"]

    asyncio.run(scenario())


def test_repeats_are_part_of_the_key_and_zero_keeps_the_old_key() -> None:
    base = Request("m", MESSAGES, WARM, sample_index=3)
    assert Request("m", MESSAGES, WARM, sample_index=3, repeat=0).key() == base.key()
    assert "repeat" not in base.canonical()
    assert Request("m", MESSAGES, WARM, sample_index=3, repeat=1).key() != base.key()


@pytest.mark.parametrize("mode", ["live", "record"])
def test_concurrent_identical_greedy_calls_share_one_exchange(mode: Mode, tmp_path: Path) -> None:
    async def scenario() -> None:
        async with FakeServer(delay=0.05) as server:
            with CallLog(tmp_path / "calls.sqlite") as log:
                async with make_client(server.base_url, log=log, mode=mode) as client:
                    results = await asyncio.gather(*(client.complete(MESSAGES) for _ in range(20)))
                    rows = len(log)
            assert len(server.requests) == 1
        assert rows == (1 if mode == "record" else 0)
        assert all(result == results[0] for result in results) and isinstance(
            results[0], Completion
        )

    asyncio.run(scenario())


def test_a_cancelled_leader_hands_the_call_to_a_waiting_duplicate() -> None:
    async def scenario() -> None:
        async with FakeServer() as server:
            server.push(Delay(1.0))
            async with make_client(server.base_url) as client:
                await client.model()
                leader = asyncio.ensure_future(client.complete(MESSAGES))
                while not server.requests:
                    await asyncio.sleep(0.01)
                follower = asyncio.ensure_future(client.complete(MESSAGES))
                await asyncio.sleep(0.01)
                leader.cancel()
                result = await follower
            assert len(server.requests) == 2
        assert leader.cancelled() and isinstance(result, Completion)

    asyncio.run(scenario())


def test_a_truncated_first_choice_never_becomes_the_content() -> None:
    async def scenario() -> None:
        async with FakeServer() as server:
            server.push(Choices((("cut sho", "length"), ("<ans>b</ans>", "stop"))))
            server.push(Choices((("cut", "length"), ("also cut", "length"))))
            async with make_client(server.base_url) as client:
                mixed = await client.complete(MESSAGES, SamplingParams(n=2))
                cut = await client.complete(MESSAGES, SamplingParams(n=2), sample_index=1)
        assert isinstance(mixed, Completion)
        assert mixed.content == "<ans>b</ans>" and [c.finish_reason for c in mixed.choices] == [
            "length",
            "stop",
        ]
        assert mixed.finished == (Choice("<ans>b</ans>", finish_reason="stop"),)
        assert isinstance(cut, Truncated) and cut.finished == ()

    asyncio.run(scenario())


def test_content_follows_the_first_finished_choice() -> None:
    choices = (Choice("a", "ra", "length"), Choice("b", "rb", "stop"), Choice("c", None, "stop"))
    reply = Completion("m", choices)
    assert (reply.content, reply.reasoning, reply.primary) == ("b", "rb", choices[1])
    assert Truncated("m", (Choice("x", None, "length"),)).content == "x"


def test_a_prompt_that_nearly_fills_the_context_is_not_sent(tmp_path: Path) -> None:
    huge = (Message("user", "ab, 1\n" * 11_000),)  # 66,000 characters against 32,768 tokens

    async def scenario() -> None:
        async with FakeServer(max_model_len=32_768) as server:
            with CallLog(tmp_path / "calls.sqlite") as log:
                async with make_client(server.base_url, log=log, mode="record") as client:
                    result = await client.complete(huge)
                    rows = len(log)
            assert server.requests == []
        assert (
            isinstance(result, Failed)
            and result.reason == "context_overflow"
            and result.attempts == 0
        )
        assert rows == 0

    asyncio.run(scenario())


@pytest.mark.parametrize(
    ("prompt_chars", "asked", "floor", "budget"),
    [
        (2_000, 500, 1024, 500),  # fits
        (2_000, 9_000, 1024, 8_192 - 1_000),  # fitted to the room left
        (14_000, 9_000, 1024, 8_192 - 7_000),  # room 1192 >= floor: still fitted
        (15_000, 9_000, 1024, None),  # room 692 < floor: not sent
        (15_000, 600, 1024, 600),  # a small budget that fits is below the floor on purpose
        (16_382, 600, 1024, None),  # room 1 token
        (20_000, 600, 1, None),  # no room at all
    ],
)
def test_fit_budget(prompt_chars: int, asked: int, floor: int, budget: int | None) -> None:
    params = SamplingParams(max_completion_tokens=asked)
    fitted = fit_budget(params, prompt_chars // 2, ModelInfo("m", 8_192), floor)
    assert (None if fitted is None else fitted.max_completion_tokens) == budget


def test_an_unknown_context_length_leaves_the_budget_alone() -> None:
    params = SamplingParams(max_completion_tokens=10**6)
    assert fit_budget(params, 10**6, ModelInfo("m"), 1024) == params


@pytest.mark.parametrize(("floor", "sent"), [(64, True), (100, False)])
def test_the_floor_is_a_client_setting(floor: int, sent: bool) -> None:
    async def scenario() -> None:
        async with FakeServer(max_model_len=4_096) as server:
            async with make_client(server.base_url, min_completion_budget=floor) as client:
                result = await client.complete((Message("user", "x" * 8_000),))  # leaves 96 tokens
        assert isinstance(result, Completion if sent else Failed)
        assert [body["max_completion_tokens"] for body in server.requests] == ([96] if sent else [])

    asyncio.run(scenario())

    asyncio.run(scenario())


def test_without_a_tokenizer_the_prompt_is_estimated_from_earlier_usage() -> None:
    # the fake server has no /tokenize; its replies report 11 prompt tokens for 8,000 characters
    prompt = (Message("user", "x" * 8_000),)

    async def scenario() -> None:
        async with FakeServer(max_model_len=10_000) as server:
            async with make_client(server.base_url) as client:
                first = await client.complete(prompt, sample_index=0)
                second = await client.complete(prompt, sample_index=1)
        budgets = [body["max_completion_tokens"] for body in server.requests]
        assert budgets == [
            10_000 - 4_000,
            10_000 - math.ceil(11 * 1.1),
        ]  # two characters per token, then usage
        assert isinstance(first, Completion) and first.max_completion_tokens == 6_000
        assert isinstance(second, Completion) and second.max_completion_tokens == budgets[1]

    asyncio.run(scenario())
