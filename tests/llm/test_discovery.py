"""Model discovery: a resumed run is served from its log without a server, concurrent callers
share one discovery and its failure, and a configured model survives a broken model listing."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import pytest

from llm.calllog import CallLog
from llm.chat import Message
from llm.errors import ModelDiscoveryError
from llm.results import Completion, Failed
from tests.llm.fake_server import (
    Action,
    Answer,
    Delay,
    Drop,
    FakeServer,
    Garbage,
    Status,
    openai_error,
)
from tests.llm.support import MESSAGES, fast_retries, make_client

OTHER = (Message("user", "not asked before"),)


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@pytest.mark.parametrize("configured", ["m1", None])
def test_a_resumed_record_run_is_served_from_its_log_with_the_server_down(
    configured: str | None, tmp_path: Path
) -> None:
    async def scenario() -> None:
        with CallLog(tmp_path / "calls.sqlite") as log:
            async with FakeServer(models=("m1",), max_model_len=50_000) as server:
                async with make_client(
                    server.base_url, log=log, mode="record", model=configured
                ) as client:
                    recorded = await client.complete(MESSAGES)
            down = f"http://127.0.0.1:{_closed_port()}/v1"
            async with make_client(
                down, log=log, mode="record", model=configured, retry=fast_retries(2)
            ) as client:
                resumed = await client.complete(MESSAGES)
                missing = await client.complete(OTHER)
        assert isinstance(recorded, Completion) and isinstance(resumed, Completion)
        assert resumed.from_log and resumed.content == recorded.content
        assert isinstance(missing, Failed) and missing.reason == "connection"

    asyncio.run(scenario())


def test_a_log_answered_as_one_model_does_not_silently_continue_with_another(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        with CallLog(tmp_path / "calls.sqlite") as log:
            async with FakeServer(models=("m1",)) as server:
                async with make_client(server.base_url, log=log, mode="record") as client:
                    await client.complete(MESSAGES)
            async with FakeServer(models=("m2",)) as server:
                async with make_client(server.base_url, log=log, mode="record") as client:
                    assert (await client.complete(MESSAGES)).from_log
                    with pytest.raises(ModelDiscoveryError, match="m1"):
                        await client.complete(OTHER)
                assert server.requests == []

    asyncio.run(scenario())


def test_concurrent_callers_share_one_failed_discovery() -> None:
    # Each listing answers 503 after 0.2 s: every caller joins the first cycle even on a loaded
    # machine, where their trips to a thread before discovery can take longer than a fast cycle.
    failing = Delay(0.2, Status(503, openai_error("no such route")))

    async def scenario() -> None:
        async with FakeServer(models_action=failing) as server:
            async with make_client(server.base_url, retry=fast_retries(3)) as client:
                first = await asyncio.gather(
                    *(client.complete(MESSAGES, sample_index=i) for i in range(10))
                )
                assert server.model_requests == 3  # one retry cycle for all ten callers
                later = await client.complete(MESSAGES)
                assert server.model_requests == 6  # a later call tries again
            assert server.requests == []
        assert all(isinstance(r, Failed) and r.reason == "server_error" for r in [*first, later])

    asyncio.run(scenario())


def test_concurrent_callers_share_one_successful_discovery() -> None:
    async def scenario() -> None:
        async with FakeServer() as server:
            async with make_client(server.base_url) as client:
                results = await asyncio.gather(
                    *(client.complete(MESSAGES, sample_index=i) for i in range(10))
                )
            assert server.model_requests == 1
        assert all(isinstance(r, Completion) for r in results)

    asyncio.run(scenario())


@pytest.mark.parametrize(
    "listing",
    [
        Garbage("<html><body>Welcome to nginx!</body></html>"),
        Status(500, "Internal Server Error"),
        Status(404, {"detail": "Not Found"}),
        Drop(),
    ],
)
def test_a_configured_model_is_tried_when_the_listing_fails(listing: Action) -> None:
    async def scenario() -> None:
        async with FakeServer(models_action=listing) as server:
            async with make_client(server.base_url, model="gpt-x", retry=fast_retries(2)) as client:
                first = await client.complete(MESSAGES)
                listings = server.model_requests
                second = await client.complete(MESSAGES, sample_index=1)
            assert [body["model"] for body in server.requests] == ["gpt-x", "gpt-x"]
            assert server.model_requests == listings  # listed once (with its retries), then trusted
        assert isinstance(first, Completion) and isinstance(second, Completion)

    asyncio.run(scenario())


def test_without_a_configured_model_a_failed_listing_is_the_answer() -> None:
    async def scenario() -> None:
        async with FakeServer(models_action=Garbage("<html></html>")) as server:
            async with make_client(server.base_url, retry=fast_retries(2)) as client:
                result = await client.complete(MESSAGES)
            assert server.requests == []
        assert isinstance(result, Failed) and result.reason == "malformed_response"

    asyncio.run(scenario())


def test_replay_needs_no_listing_and_uses_the_recorded_context(tmp_path: Path) -> None:
    async def scenario() -> None:
        with CallLog(tmp_path / "calls.sqlite") as log:
            async with FakeServer(
                models=("m1",), max_model_len=4_096, default=Answer(content="x")
            ) as server:
                async with make_client(server.base_url, log=log, mode="record") as client:
                    await client.complete(MESSAGES)
            async with make_client("http://127.0.0.1:9/v1", log=log, mode="replay") as client:
                model = await client.model()
                replayed = await client.complete(MESSAGES)
        assert (model.id, model.max_model_len) == ("m1", 4_096)
        assert isinstance(replayed, Completion) and replayed.from_log

    asyncio.run(scenario())
