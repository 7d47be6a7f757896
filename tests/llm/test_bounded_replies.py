"""Replies are bounded: a body past ``max_response_bytes`` (announced or streamed without a
length) and a body nesting JSON deeper than the parser can follow are typed ``malformed_response``
failures, never buffered whole, raised out of ``complete()`` or stored in the call log."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from aiohttp import web

from llm.calllog import CallLog
from llm.errors import MalformedResponse
from llm.results import Completion, Failed
from llm.wire import MAX_NESTING, parse_completion
from tests.llm.fake_server import Answer, Delay, FakeServer, Garbage
from tests.llm.support import MESSAGES, fast_retries, make_client
from tests.loopback import LoopbackServer


class Streaming(LoopbackServer):
    """A 200 streamed in chunks without a Content-Length, ``size`` bytes in all."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.sent = 0
        super().__init__()

    async def _models(self, request: web.Request) -> web.StreamResponse:
        return web.json_response({"data": [{"id": "m"}]})

    async def _chat(self, request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse()
        response.enable_chunked_encoding()
        await response.prepare(request)
        try:
            while self.sent < self.size:
                await response.write(b" " * 4096)
                self.sent += 4096
        except ConnectionError:
            pass  # the client stopped reading, as it should
        return response


def test_a_reply_past_the_cap_is_malformed_and_not_logged(tmp_path: Path) -> None:
    async def scenario() -> None:
        log = CallLog(tmp_path / "calls.sqlite3")
        async with FakeServer(default=Answer("x" * 5000)) as server:
            async with make_client(
                server.base_url,
                log=log,
                mode="record",
                max_response_bytes=2000,
                retry=fast_retries(1),
            ) as client:
                result = await client.complete(MESSAGES)
            assert isinstance(result, Failed) and result.reason == "malformed_response"
            assert "larger than max_response_bytes 2,000" in result.message
            async with make_client(server.base_url, log=log, mode="record") as client:
                assert isinstance(
                    await client.complete(MESSAGES), Completion
                )  # the failure was not served from the log
            assert len(server.requests) == 2
        log.close()
        assert b"x" * 5000 not in (tmp_path / "calls.sqlite3").read_bytes().replace(
            b"x" * 5000, b"", 1
        )  # stored once: the good reply

    asyncio.run(scenario())


def test_a_streamed_reply_is_cut_at_the_cap() -> None:
    async def scenario() -> None:
        async with Streaming(size=64 * 1024 * 1024) as server:
            async with make_client(
                server.base_url, model="m", max_response_bytes=100_000, retry=fast_retries(1)
            ) as client:
                result = await client.complete(MESSAGES)
            assert isinstance(result, Failed) and result.reason == "malformed_response"
            assert server.sent < 16 * 1024 * 1024  # stopped long before the whole body

    asyncio.run(scenario())


@pytest.mark.parametrize("opener", ["[", '{"a":'])
def test_deeply_nested_json_is_malformed_not_a_recursion_error(opener: str) -> None:
    with pytest.raises(MalformedResponse, match=f"deeper than {MAX_NESTING}"):
        parse_completion((opener * 100_000).encode())

    async def scenario() -> None:
        async with FakeServer(default=Garbage('{"choices": ' + "[" * 100_000)) as server:
            async with make_client(server.base_url, retry=fast_retries(1)) as client:
                result = await client.complete(MESSAGES)
        assert (
            isinstance(result, Failed)
            and result.reason == "malformed_response"
            and "deeper than" in result.message
        )

    asyncio.run(scenario())


def test_brackets_inside_strings_do_not_count_as_nesting() -> None:
    body = (
        '{"choices": [{"message": {"content": "' + "[{" * 500 + '\\"]"}, "finish_reason": "stop"}]}'
    )
    (choice,) = parse_completion(body.encode()).choices
    assert choice.content.startswith("[{[{")


def test_a_server_silent_past_read_timeout_fails_the_attempt() -> None:
    async def scenario() -> None:
        async with FakeServer(default=Delay(1.5)) as server:
            async with make_client(
                server.base_url, read_timeout=0.3, retry=fast_retries(1)
            ) as client:
                result = await client.complete(MESSAGES)
        assert (
            isinstance(result, Failed)
            and result.reason == "timeout"
            and "read_timeout 0.3 s" in result.message
        )

    asyncio.run(scenario())
