"""The client against a real aiohttp server on loopback: answers, retries, failures, discovery."""

from __future__ import annotations

import asyncio
import email.utils
import socket
from typing import Any

import pytest

from llm.chat import SamplingParams, StructuredOutput
from llm.errors import ModelDiscoveryError
from llm.results import Completion, Failed, Truncated, Usage
from tests.llm.fake_server import Answer, Delay, Drop, FakeServer, Garbage, Status, openai_error
from tests.llm.support import MESSAGES, FakeSleep, fast_retries, make_client

NOW = 1_700_000_000.0


async def _one(
    server: FakeServer, params: SamplingParams = SamplingParams(), **settings: Any
) -> Any:
    async with make_client(server.base_url, **settings) as client:
        return await client.complete(MESSAGES, params)


def test_normal_answer_and_request_shape() -> None:
    async def scenario() -> None:
        async with FakeServer() as server:
            result = await _one(server)
            assert isinstance(result, Completion)
            assert result.content == "<reasoning>easy</reasoning><ans>a*</ans>"
            assert result.reasoning is None
            assert result.choices[0].finish_reason == "stop"
            assert result.usage == Usage(prompt_tokens=11, completion_tokens=7)
            assert (result.model, result.attempts, result.from_log) == ("test-model", 1, False)
            (body,) = server.requests
            assert body == {
                "model": "test-model",
                "messages": [{"role": m.role, "content": m.content} for m in MESSAGES],
                "max_completion_tokens": 32768,
                "max_tokens": 32768,
                "temperature": 0.0,
            }
            assert server.headers[0]["Authorization"] == "Bearer sk-test-secret"

    asyncio.run(scenario())


def test_optional_sampling_fields_are_sent() -> None:
    params = SamplingParams(
        max_completion_tokens=100,
        temperature=0.7,
        seed=3,
        n=2,
        stop=("</ans>",),
        reasoning_effort="high",
        structured=StructuredOutput("regex", "<ans>[ab*]+</ans>"),
    )

    async def scenario() -> None:
        async with FakeServer() as server:
            result = await _one(server, params)
            assert isinstance(result, Completion) and len(result.choices) == 2
            body = server.requests[0]
            assert body["seed"] == 3 and body["n"] == 2 and body["stop"] == ["</ans>"]
            assert body["reasoning_effort"] == "high" and body["temperature"] == 0.7
            assert body["structured_outputs"] == {"regex": "<ans>[ab*]+</ans>"}

    asyncio.run(scenario())


@pytest.mark.parametrize("field", ["reasoning", "reasoning_content"])
def test_reasoning_channel_in_either_field(field: str) -> None:
    async def scenario() -> None:
        async with FakeServer(default=Answer(reasoning="think", reasoning_field=field)) as server:
            result = await _one(server)
            assert isinstance(result, Completion) and result.reasoning == "think"

    asyncio.run(scenario())


def test_usage_details_and_missing_usage() -> None:
    usage = {
        "prompt_tokens": 100,
        "completion_tokens": 50,
        "completion_tokens_details": {"reasoning_tokens": 40},
        "prompt_tokens_details": {"cached_tokens": 64},
    }

    async def scenario() -> None:
        async with FakeServer() as server:
            server.push(Answer(usage=usage), Answer(usage=None))
            async with make_client(server.base_url) as client:
                detailed = await client.complete(MESSAGES)
                bare = await client.complete(MESSAGES)
        assert isinstance(detailed, Completion) and isinstance(bare, Completion)
        assert detailed.usage == Usage(100, 50, reasoning_tokens=40, cached_tokens=64)
        assert bare.usage == Usage()

    asyncio.run(scenario())


def test_length_with_null_content_is_truncated() -> None:
    async def scenario() -> None:
        async with FakeServer(
            default=Answer(content=None, reasoning="long...", finish_reason="length")
        ) as server:
            result = await _one(server)
            assert isinstance(result, Truncated)
            assert result.content == "" and result.reasoning == "long..."

    asyncio.run(scenario())


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"Retry-After": "2"}, 2.0),
        ({"Retry-After": "1.5"}, 1.5),
        ({"retry-after-ms": "250"}, 0.25),
        ({"Retry-After": email.utils.formatdate(NOW + 5, usegmt=True)}, 5.0),
        ({"Retry-After": "60"}, 60.0),
    ],
)
def test_429_honours_retry_after(headers: dict[str, str], expected: float) -> None:
    async def scenario() -> None:
        sleep = FakeSleep()
        async with FakeServer() as server:
            server.push(Status(429, openai_error("slow down", "rate_limit_exceeded"), headers))
            result = await _one(server, sleep=sleep, wall_clock=NOW)
        assert isinstance(result, Completion) and result.attempts == 2
        assert sleep.delays == [pytest.approx(expected)]

    asyncio.run(scenario())


def test_server_errors_back_off_exponentially_then_succeed() -> None:
    async def scenario() -> None:
        sleep = FakeSleep()
        async with FakeServer() as server:
            server.push(
                Status(500, "Internal Server Error"),
                Status(503, openai_error("overloaded")),
                Status(502),
            )
            result = await _one(server, sleep=sleep)
        assert isinstance(result, Completion) and result.attempts == 4
        for delay, ceiling in zip(sleep.delays, [0.5, 1.0, 2.0], strict=True):
            assert 0.75 * ceiling <= delay <= ceiling

    asyncio.run(scenario())


def test_retries_exhausted_gives_typed_failure() -> None:
    async def scenario() -> None:
        sleep = FakeSleep()
        async with FakeServer(
            default=Status(503, {"object": "error", "message": "busy", "code": 503})
        ) as server:
            result = await _one(server, sleep=sleep, retry=fast_retries(3))
            assert len(server.requests) == 3
        assert result == Failed(
            "server_error",
            "busy",
            503,
            "503",
            attempts=3,
            latency_s=result.latency_s,
            max_completion_tokens=32768,
        )
        assert len(sleep.delays) == 2

    asyncio.run(scenario())


def test_quota_exhausted_is_not_retried() -> None:
    body = openai_error(
        "You exceeded your current quota", "insufficient_quota", "insufficient_quota"
    )

    async def scenario() -> None:
        sleep = FakeSleep()
        async with FakeServer(default=Status(429, body, {"Retry-After": "1"})) as server:
            result = await _one(server, sleep=sleep)
        assert (
            isinstance(result, Failed)
            and result.reason == "quota_exhausted"
            and result.attempts == 1
        )
        assert sleep.delays == []

    asyncio.run(scenario())


@pytest.mark.parametrize(
    ("status", "reason"),
    [
        (400, "bad_request"),
        (401, "auth"),
        (403, "auth"),
        (404, "not_found"),
        (422, "bad_request"),
        (418, "http_error"),
    ],
)
def test_client_errors_are_not_retried(status: int, reason: str) -> None:
    async def scenario() -> None:
        async with FakeServer(default=Status(status, openai_error("nope"))) as server:
            result = await _one(server)
            assert len(server.requests) == 1
        assert isinstance(result, Failed) and (result.reason, result.status) == (reason, status)
        assert result.message.startswith("nope")

    asyncio.run(scenario())


@pytest.mark.parametrize(
    ("status", "reason"), [(408, "server_error"), (409, "server_error"), (429, "rate_limited")]
)
def test_transient_statuses_are_retried(status: int, reason: str) -> None:
    async def scenario() -> None:
        async with FakeServer(default=Status(status, "try later")) as server:
            result = await _one(server, retry=fast_retries(2))
            assert len(server.requests) == 2
        assert (
            isinstance(result, Failed) and result.reason == reason and result.message == "try later"
        )

    asyncio.run(scenario())


def test_malformed_json_is_retried_then_fails() -> None:
    async def scenario() -> None:
        async with FakeServer() as server:
            server.push(Garbage())
            recovered = await _one(server)
            server.default = Garbage("[1, 2]")
            failed = await _one(server, retry=fast_retries(2))
        assert isinstance(recovered, Completion) and recovered.attempts == 2
        assert (
            isinstance(failed, Failed)
            and failed.reason == "malformed_response"
            and failed.attempts == 2
        )

    asyncio.run(scenario())


def test_dropped_connections_are_retried() -> None:
    async def scenario() -> None:
        async with FakeServer() as server:
            server.push(Drop(), Drop())
            recovered = await _one(server)
            server.default = Drop()
            failed = await _one(server, retry=fast_retries(2))
        assert isinstance(recovered, Completion) and recovered.attempts == 3
        assert isinstance(failed, Failed) and failed.reason == "connection"

    asyncio.run(scenario())


def test_slow_response_times_out() -> None:
    async def scenario() -> None:
        async with FakeServer() as server:
            server.push(Delay(0.3), Delay(0.3))
            result = await _one(server, total_timeout=0.1, retry=fast_retries(2))
            server.push(Delay(0.3))
            recovered = await _one(server, total_timeout=0.1, retry=fast_retries(2))
        assert isinstance(result, Failed) and result.reason == "timeout" and result.attempts == 2
        assert isinstance(recovered, Completion) and recovered.attempts == 2

    asyncio.run(scenario())


def test_connection_refused_is_a_failure() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]

    async def scenario() -> None:
        async with make_client(
            f"http://127.0.0.1:{port}/v1", model="m", retry=fast_retries(2)
        ) as client:
            result = await client.complete(MESSAGES)
        assert isinstance(result, Failed) and result.reason == "connection" and result.attempts == 2

    asyncio.run(scenario())


def test_rejected_max_completion_tokens_falls_back_and_is_remembered() -> None:
    async def scenario() -> None:
        async with FakeServer(reject_fields=frozenset({"max_completion_tokens"})) as server:
            async with make_client(server.base_url) as client:
                first = await client.complete(MESSAGES)
                second = await client.complete(MESSAGES)
                assert client.wire_options.budget_fields == ("max_tokens",)
            assert isinstance(first, Completion) and isinstance(second, Completion)
            assert ["max_completion_tokens" in body for body in server.requests] == [
                True,
                False,
                False,
            ]
            assert server.requests[1]["max_tokens"] == 32768
            assert (
                first.wire_adaptations
                == second.wire_adaptations
                == ("max_completion_tokens sent as max_tokens",)
            )

    asyncio.run(scenario())


def test_concurrent_calls_all_adapt_to_a_rejected_field() -> None:
    async def scenario() -> None:
        async with FakeServer(
            reject_fields=frozenset({"max_completion_tokens", "temperature"})
        ) as server:
            async with make_client(server.base_url) as client:
                await client.model()
                results = await asyncio.gather(*(client.complete(MESSAGES) for _ in range(20)))
        assert all(isinstance(result, Completion) for result in results)

    asyncio.run(scenario())


def test_rejected_temperature_is_omitted() -> None:
    async def scenario() -> None:
        async with FakeServer(reject_fields=frozenset({"temperature"})) as server:
            result = await _one(server)
            assert isinstance(result, Completion)
            assert ["temperature" in body for body in server.requests] == [True, False]

    asyncio.run(scenario())


def test_model_discovery_picks_the_only_model_and_clamps_the_budget() -> None:
    async def scenario() -> None:
        async with FakeServer(models=("only",), max_model_len=4096) as server:
            async with make_client(server.base_url) as client:
                assert (await client.model()).id == "only"
                await client.complete(MESSAGES)
                await client.complete(MESSAGES)
            assert server.model_requests == 1
            prompt_chars = sum(len(m.content) for m in MESSAGES)
            assert server.requests[0]["model"] == "only"
            assert server.requests[0]["max_completion_tokens"] == 4096 - prompt_chars // 2

    asyncio.run(scenario())


@pytest.mark.parametrize(
    ("served", "configured", "chosen"),
    [
        (("a", "b"), "b", "b"),
        (("a",), "a", "a"),
        (("a", "b"), None, None),
        ((), None, None),
        (("a",), "z", None),
    ],
)
def test_model_discovery_choices(
    served: tuple[str, ...], configured: str | None, chosen: str | None
) -> None:
    async def scenario() -> None:
        async with (
            FakeServer(models=served) as server,
            make_client(server.base_url, model=configured) as client,
        ):
            if chosen is not None:
                assert (await client.model()).id == chosen
                return
            with pytest.raises(ModelDiscoveryError) as caught:
                await client.complete(MESSAGES)
            assert caught.value.served == served
            for name in served:
                assert name in str(caught.value)

    asyncio.run(scenario())


def test_missing_models_endpoint_trusts_the_configured_model() -> None:
    async def scenario() -> None:
        async with FakeServer(models_status=404) as server:
            configured = await _one(server, model="gpt-x")
            unconfigured = await _one(server)
            assert server.requests[0]["model"] == "gpt-x"
        assert isinstance(configured, Completion)
        assert isinstance(unconfigured, Failed) and unconfigured.reason == "not_found"
        assert "API root" in unconfigured.message

    asyncio.run(scenario())


def test_client_outside_async_with_is_an_error() -> None:
    async def scenario() -> None:
        client = make_client("http://127.0.0.1:9/v1", model="m")
        with pytest.raises(RuntimeError, match="async with"):
            await client.complete(MESSAGES)

    asyncio.run(scenario())
