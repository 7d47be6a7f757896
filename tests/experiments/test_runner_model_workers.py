"""LLM units over several worker processes: each server entry's concurrency is shared exactly
between them, and the records are those of the single-process runner."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from experiments.bench.latency_server import LatencyServer
from experiments.model_workers import shares, worker_count
from experiments.plan import ServerSpec, plan_from_data
from experiments.progress import Progress
from experiments.runner import run_experiment
from tests.experiments.runner_support import plan_data, run_records, synchronous

CONCURRENCY = 6


def test_the_shares_of_an_entry_sum_to_its_concurrency() -> None:
    servers = (ServerSpec("http://a/v1", concurrency=7), ServerSpec("http://b/v1", concurrency=2))
    split = shares(servers, worker_count(3, servers))
    assert [[s.concurrency for s in share] for share in split] == [[4, 1], [3, 1]]
    assert worker_count(8, (ServerSpec("http://a/v1", concurrency=256),)) == 8


@pytest.mark.slow  # spawns worker processes: about 15 s
@synchronous
async def test_two_worker_processes_share_the_budget_and_write_the_samerun_records(
    tmp_path: Path,
) -> None:
    results = {}
    peaks = {}
    for workers in (1, 2):
        # released once CONCURRENCY calls are in flight together: the peak is the budget used
        async with LatencyServer(20.0, release_at=CONCURRENCY) as server:
            data = plan_data(tmp_path, (server.base_url,), seeds=4)
            data["arms"] = [a for a in data["arms"] if a["learner"] == "llm"]
            data["servers"][0]["concurrency"] = CONCURRENCY
            run_dir = tmp_path / f"run{workers}"
            summary = await run_experiment(
                plan_from_data(data),
                run_dir,
                progress=Progress(8, out=io.StringIO()),
                llm_workers=workers,
            )
        assert summary.ran == 8 and summary.errors == 0 and summary.interrupted == ()
        results[workers] = run_records(run_dir)
        peaks[workers] = server.stats.peak
    assert peaks == {1: CONCURRENCY, 2: CONCURRENCY}  # all of the budget, never more
    assert results[2] == results[1] and len(results[1]) == 8
