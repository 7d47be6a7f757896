"""The semaphore bounds calls in flight, measured by the server, and the pool keeps up with it.

No wall clock: the server counts the requests it holds at once, which is exactly 64 only when the
client neither serializes calls nor lets more than its slots through."""

from __future__ import annotations

import asyncio

from llm.results import Completion
from tests.llm.fake_server import FakeServer
from tests.llm.support import MESSAGES, make_client

CALLS = 500
CONCURRENCY = 64
SERVER_DELAY = 0.05


def test_500_calls_through_64_slots_keep_64_in_flight() -> None:
    async def scenario() -> tuple[int, list[object]]:
        async with FakeServer(delay=SERVER_DELAY) as server:
            async with make_client(server.base_url, concurrency=CONCURRENCY) as client:
                await client.model()
                # distinct sample indices: identical greedy calls would share one exchange
                calls = (client.complete(MESSAGES, sample_index=index) for index in range(CALLS))
                results = await asyncio.gather(*calls)
            return server.max_in_flight, list(results)

    max_in_flight, results = asyncio.run(scenario())
    assert len(results) == CALLS and all(isinstance(result, Completion) for result in results)
    assert max_in_flight == CONCURRENCY
