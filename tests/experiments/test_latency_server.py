"""The loopback latency server speaks the HTTP its clients send: keep-alive chat calls answered
after the latency with ``n`` choices, the model list and stats at once, a clear status for an
unknown route or a body that is not JSON, and ``Connection: close`` honoured."""

from __future__ import annotations

import asyncio
import time

import aiohttp

from experiments.bench.latency_server import ANSWER, MODEL, LatencyServer
from tests.experiments.runner_support import synchronous


@synchronous
async def test_calls_are_answered_after_the_latency_on_one_kept_connection() -> None:
    async with LatencyServer(0.2) as server, aiohttp.ClientSession() as session:
        url = f"{server.base_url}/chat/completions"
        began = time.perf_counter()
        replies = []
        for n in (1, 3):  # one after the other, on the session's one kept connection
            async with session.post(url, json={"model": MODEL, "messages": [], "n": n}) as reply:
                replies.append(await reply.json())
        took = time.perf_counter() - began
        async with session.get(f"{server.base_url}/models") as reply:
            models = await reply.json()
        assert len(server.connections) == 1
    assert took >= 0.4
    assert [len(r["choices"]) for r in replies] == [1, 3]
    assert replies[1]["choices"][2] == {
        "message": {"role": "assistant", "content": ANSWER},
        "finish_reason": "stop",
        "index": 2,
    }
    assert models["data"][0]["id"] == MODEL
    assert (server.stats.calls, server.stats.peak) == (2, 1)


@synchronous
async def test_bad_requests_get_a_status_and_close_is_honoured() -> None:
    async with LatencyServer(0.0) as server:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        body = b"not json"
        writer.write(
            b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n"
            b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
        )
        writer.write(b"GET /v2/other HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        await writer.drain()
        said = await asyncio.wait_for(reader.read(), 5)  # to the end: the server closed it
        writer.close()
    assert said.startswith(b"HTTP/1.1 400 Bad Request\r\n")
    assert b"HTTP/1.1 404 Not Found\r\n" in said and b"Connection: close" in said
    assert server.stats.calls == 0
