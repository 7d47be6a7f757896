"""HTTP conventions over real sockets: x-should-retry, long Retry-After, one deadline per call,
the connect timeout, proxies from the environment, jitter, and the API key kept out of failures."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import attrs
import pytest

from llm.calllog import CallLog
from llm.config import ClientConfig
from llm.results import Completion, Failed
from llm.retry import RetryPolicy
from llm.transport import REDACTED, REFUSED, _refused
from tests.llm.fake_server import Delay, FakeServer, Status, openai_error
from tests.llm.support import (
    API_KEY,
    MESSAGES,
    FakeSleep,
    fast_retries,
    make_client,
    unaccepting_port,
)

PROXY_VARIABLES = (
    "HTTP_PROXY",
    "http_proxy",
    "HTTPS_PROXY",
    "https_proxy",
    "NO_PROXY",
    "no_proxy",
    "ALL_PROXY",
    "all_proxy",
)


@pytest.mark.parametrize(
    ("status", "header", "requests", "outcome"),
    [
        (400, "true", 2, Completion),  # the server says a 400 is worth another try
        (503, "false", 1, Failed),  # the server says a 503 is not
        (503, "maybe", 2, Completion),  # no verdict: the status rules
    ],
)
def test_x_should_retry_overrides_the_status_rules(
    status: int, header: str, requests: int, outcome: type
) -> None:
    async def scenario() -> None:
        async with FakeServer() as server:
            server.push(Status(status, openai_error("hmm"), {"x-should-retry": header}))
            async with make_client(server.base_url) as client:
                result = await client.complete(MESSAGES)
            assert len(server.requests) == requests
        assert isinstance(result, outcome)

    asyncio.run(scenario())


def test_a_retry_after_beyond_the_cap_fails_fast_with_the_wait() -> None:
    async def scenario() -> None:
        sleep = FakeSleep()
        async with FakeServer() as server:
            server.push(
                Status(
                    429, openai_error("slow down", "rate_limit_exceeded"), {"Retry-After": "3600"}
                )
            )
            async with make_client(server.base_url, sleep=sleep) as client:
                result = await client.complete(MESSAGES)
            assert len(server.requests) == 1
        assert sleep.delays == []
        assert (
            isinstance(result, Failed) and result.reason == "rate_limited" and result.attempts == 1
        )
        assert "3600 s" in result.message and "max_retry_after = 60 s" in result.message

    asyncio.run(scenario())


def test_retries_stop_at_the_call_deadline() -> None:
    async def scenario() -> None:
        sleep = FakeSleep()
        retry = RetryPolicy(max_attempts=100)
        async with FakeServer(default=Status(503, "busy")) as server:
            async with make_client(
                server.base_url, sleep=sleep, clock=sleep.clock, retry=retry, call_deadline=10.0
            ) as client:
                result = await client.complete(MESSAGES)
            attempts = len(server.requests)
        assert isinstance(result, Failed) and result.reason == "deadline"
        assert "call_deadline 10 s" in result.message and "busy" in result.message
        assert sum(sleep.delays) <= 10.0 and attempts == len(sleep.delays) + 1 < 10

    asyncio.run(scenario())


def test_the_call_deadline_counts_the_model_discovery_the_call_waited_for() -> None:
    async def scenario() -> None:
        sleep = FakeSleep()
        retry = RetryPolicy(max_attempts=100)
        busy = Status(503, "busy")
        async with FakeServer(
            default=busy, models_action=busy
        ) as server:  # the listing and the chat both fail
            async with make_client(
                server.base_url,
                sleep=sleep,
                clock=sleep.clock,
                retry=retry,
                call_deadline=10.0,
                model="test-model",
            ) as client:
                result = await client.complete(MESSAGES)
        assert (
            isinstance(result, Failed)
            and result.reason == "deadline"
            and "call_deadline 10 s" in result.message
        )
        assert sum(sleep.delays) <= 10.0, (
            "the chat got a deadline of its own after the discovery used the call's"
        )

    asyncio.run(scenario())


def test_an_attempt_is_cut_at_the_call_deadline() -> None:
    async def scenario() -> None:
        async with FakeServer() as server:
            server.push(Delay(1.0))
            async with make_client(
                server.base_url, total_timeout=60.0, call_deadline=0.2
            ) as client:
                result = await client.complete(MESSAGES)
        assert isinstance(result, Failed) and result.reason == "deadline" and result.attempts == 1

    asyncio.run(scenario())


def test_waiting_for_a_concurrency_slot_does_not_count_against_the_deadline() -> None:
    async def scenario() -> None:
        async with FakeServer(delay=0.15) as server:
            async with make_client(server.base_url, concurrency=1, call_deadline=0.5) as client:
                await client.model()
                results = await asyncio.gather(
                    *(client.complete(MESSAGES, sample_index=i) for i in range(5))
                )
        assert all(
            isinstance(result, Completion) for result in results
        )  # 0.75 s of queue, 0.15 s each

    asyncio.run(scenario())


def test_a_hanging_connect_fails_at_the_connect_timeout() -> None:
    async def scenario() -> None:
        with unaccepting_port() as port:
            async with make_client(
                f"http://127.0.0.1:{port}/v1",
                model="m",
                connect_timeout=0.2,
                total_timeout=3.0,
                retry=fast_retries(1),
            ) as client:
                result = await client.complete(MESSAGES)
        assert isinstance(result, Failed) and result.reason == "timeout"
        assert "connect_timeout 0.2 s" in result.message

    asyncio.run(scenario())


def test_requests_go_through_the_proxy_of_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in PROXY_VARIABLES:
        monkeypatch.delenv(name, raising=False)

    async def scenario() -> None:
        async with FakeServer() as proxy:
            monkeypatch.setenv("HTTP_PROXY", proxy.proxy_url)
            async with make_client("http://llm.invalid:8000/v1", model="test-model") as client:
                proxied = await client.complete(MESSAGES)
            monkeypatch.setenv("NO_PROXY", "llm.invalid")
            async with make_client(
                "http://llm.invalid:8000/v1", model="test-model", retry=fast_retries(1)
            ) as client:
                bypassed = await client.complete(MESSAGES)
            assert proxy.targets == [
                "http://llm.invalid:8000/v1/models",
                "http://llm.invalid:8000/v1/chat/completions",
            ]
        assert isinstance(proxied, Completion)
        assert isinstance(bypassed, Failed) and bypassed.reason == "connection"

    asyncio.run(scenario())


def test_backoff_waits_differ_between_clients() -> None:
    async def waits(seed: int) -> list[float]:
        sleep = FakeSleep()
        async with FakeServer(default=Status(503, "busy")) as server:
            async with make_client(
                server.base_url, sleep=sleep, seed=seed, retry=fast_retries(4)
            ) as client:
                await client.complete(MESSAGES)
        return sleep.delays

    first, second = asyncio.run(waits(1)), asyncio.run(waits(2))
    assert len(first) == len(second) == 3 and first != second
    for delay, ceiling in zip(first, [0.5, 1.0, 2.0], strict=True):
        assert 0.75 * ceiling <= delay <= ceiling


def test_an_echoed_api_key_is_redacted_from_failures_and_the_log(tmp_path: Path) -> None:
    path = tmp_path / "calls.sqlite"

    async def scenario() -> None:
        echo = openai_error(f"Incorrect API key provided: {API_KEY}.", f"invalid_api_key:{API_KEY}")
        async with FakeServer(default=Status(401, echo)) as server:
            with CallLog(path) as log:
                async with make_client(server.base_url, log=log, mode="record") as client:
                    result = await client.complete(MESSAGES)
        assert isinstance(result, Failed) and result.reason == "auth"
        assert API_KEY not in result.message and REDACTED in result.message
        assert result.error_code is not None and API_KEY not in result.error_code

    asyncio.run(scenario())
    assert API_KEY.encode() not in b"".join(p.read_bytes() for p in tmp_path.iterdir())


def test_a_key_read_with_its_newline_works() -> None:
    async def scenario() -> None:
        async with FakeServer() as server:
            config = ClientConfig.resolve(
                server.base_url, environ={"OPENAI_API_KEY": API_KEY + "\n"}
            )
            async with make_client(server.base_url, api_key=config.api_key) as client:
                result = await client.complete(MESSAGES)
            assert server.headers[0]["Authorization"] == f"Bearer {API_KEY}"
        assert isinstance(result, Completion)

    asyncio.run(scenario())


def _closed_port() -> int:
    with socket.socket() as probe:  # bound, never listening: connections to it are refused
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize(("retry_refused", "attempts"), [(True, 3), (False, 1)])
def test_a_refused_connection_is_retried_unless_the_policy_says_not(
    retry_refused: bool, attempts: int
) -> None:
    async def scenario() -> None:
        sleep = FakeSleep()
        policy = attrs.evolve(fast_retries(3), retry_refused=retry_refused)
        async with make_client(
            f"http://127.0.0.1:{_closed_port()}/v1", model="m", sleep=sleep, retry=policy
        ) as client:
            result = await client.complete(MESSAGES)
        assert (
            isinstance(result, Failed)
            and result.reason == "connection"
            and result.error_code == REFUSED
        )
        assert result.attempts == attempts and (sleep.delays == []) == (
            not retry_refused
        )  # model listing too

    asyncio.run(scenario())


def test_every_address_refusing_counts_as_refused_and_anything_else_does_not() -> None:
    both = OSError(
        "Multiple exceptions: [Errno 111] Connect call failed ('::1', 8000, 0, 0), "
        "[Errno 111] Connect call failed ('127.0.0.1', 8000)"
    )
    mixed = OSError(
        "Multiple exceptions: [Errno 111] Connect call failed ('::1', 8000, 0, 0), "
        "[Errno 110] Connect call failed ('127.0.0.1', 8000)"
    )
    assert _refused(ConnectionRefusedError(111, "refused")) and _refused(both)
    assert (
        not _refused(mixed) and not _refused(OSError("no route")) and not _refused(TimeoutError())
    )
