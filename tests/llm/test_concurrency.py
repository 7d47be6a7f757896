"""The semaphore bounds calls in flight, measured by the server, and the pool keeps up with it."""

from __future__ import annotations

import asyncio
import time

from llm.results import Completion
from tests.llm.fake_server import FakeServer
from tests.llm.support import MESSAGES, make_client

CALLS = 500
CONCURRENCY = 64
SERVER_DELAY = 0.05


def test_500_calls_through_64_slots_keep_64_in_flight() -> None:
    async def scenario() -> tuple[float, int, list[object]]:
        async with FakeServer(delay=SERVER_DELAY) as server:
            async with make_client(server.base_url, concurrency=CONCURRENCY) as client:
                await client.model()
                start = time.perf_counter()
                # distinct sample indices: identical greedy calls would share one exchange
                calls = (client.complete(MESSAGES, sample_index=index) for index in range(CALLS))
                results = await asyncio.gather(*calls)
                elapsed = time.perf_counter() - start
            return elapsed, server.max_in_flight, list(results)

    elapsed, max_in_flight, results = asyncio.run(scenario())
    assert all(isinstance(result, Completion) for result in results)
    assert max_in_flight == CONCURRENCY
    # ideal: ceil(500 / 64) * 50 ms = 0.4 s; the bound only catches serialization, not speed
    assert elapsed < 5.0
