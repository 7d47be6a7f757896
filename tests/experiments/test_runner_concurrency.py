"""A plan's ``concurrency`` for a server entry is the number of calls in flight to that server:
the pool's slots, the client's semaphore and its connection pool alike, with no cap of their own."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

from experiments.bench.latency_server import MODEL, LatencyServer
from experiments.plan import ServerSpec
from experiments.servers import server_pools
from llm.calllog import CallLog
from llm.chat import Message
from llm.results import Completion
from tests.experiments.runner_support import synchronous


@synchronous
async def test_an_entry_of_256_has_256_calls_in_flight(tmp_path: Path) -> None:
    # the server answers once 256 calls are in flight together (or after 20 s): no timing assumed
    async with LatencyServer(20.0, release_at=256) as server:
        spec = ServerSpec(server.base_url, concurrency=256)
        async with server_pools((spec,), tmp_path / "calls.sqlite3") as pool_for:
            pool = await pool_for(None)
            results = await asyncio.gather(
                *(pool.complete([Message("user", f"call {i}")]) for i in range(300))
            )
    assert all(isinstance(r, Completion) for r in results)
    assert server.stats.calls == 300
    assert server.stats.peak == 256  # all the entry allows, never more


@synchronous
async def test_a_refused_connection_goes_to_the_other_server_without_retries(
    tmp_path: Path,
) -> None:
    with socket.socket() as closed:  # a port nothing listens on
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    async with LatencyServer(0.0) as live:
        dead = ServerSpec(f"http://127.0.0.1:{port}/v1", concurrency=8)  # most free slots
        specs = (dead, ServerSpec(live.base_url, concurrency=1))
        async with server_pools(specs, tmp_path / "calls.sqlite3") as pool_for:
            pool = await pool_for(MODEL)
            result = await pool.complete([Message("user", "call")])
    assert isinstance(result, Completion) and live.stats.calls == 1
    with CallLog(tmp_path / "calls.sqlite3") as log:
        attempts = [
            row[0] for row in log._db.execute("SELECT attempts FROM calls WHERE kind = 'failed'")
        ]
    assert attempts == [1]  # refused once, then straight back to the pool (6 attempts before)
