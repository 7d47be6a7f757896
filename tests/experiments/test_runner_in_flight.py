"""A plan's server entry of N calls is N calls in flight at the server once the runner has N LLM
units to run: the runner starts enough units, and nothing on the way (unit slots, the pool, the
client's semaphore, its connection pool) caps them lower."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from experiments.bench.latency_server import LatencyServer
from experiments.plan import plan_from_data
from experiments.progress import Progress
from experiments.runner import run_experiment
from tests.experiments.runner_support import TARGETS, plan_data, synchronous


async def _peak_in_flight(folder: Path, concurrency: int) -> int:
    """The most calls the server held at once for a run of ``concurrency`` one-call-at-a-time
    units against an entry of ``concurrency`` (released as soon as that many are in flight)."""
    async with LatencyServer(60.0, release_at=concurrency) as server:
        data = plan_data(folder, (server.base_url,), seeds=concurrency // len(TARGETS))
        data["arms"] = [arm for arm in data["arms"] if arm["learner"] == "llm"]
        data["servers"][0]["concurrency"] = concurrency
        summary = await run_experiment(
            plan_from_data(data), folder / "run", progress=Progress(0, out=io.StringIO())
        )
    assert summary.errors == 0 and summary.interrupted == ()
    assert summary.ran == concurrency
    return server.stats.peak


@synchronous
async def test_an_entry_of_256_has_256_calls_in_flight_from_the_runner(tmp_path: Path) -> None:
    assert await _peak_in_flight(tmp_path, 256) == 256


@pytest.mark.slow  # 1,024 units: about a minute on 2 cores
@synchronous
async def test_an_entry_of_1024_has_1024_calls_in_flight_from_the_runner(tmp_path: Path) -> None:
    assert await _peak_in_flight(tmp_path, 1024) == 1024
