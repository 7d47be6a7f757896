"""Two servers, one killed mid-run: every unit finishes on the other, and the records are those of
a run against the survivor alone: no epoch lost, none run or counted twice."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

from experiments.bench.latency_server import LatencyServer
from experiments.plan import plan_from_data
from experiments.progress import Progress
from experiments.runner import RunSummary, run_experiment
from tests.experiments.runner_support import plan_data, run_records, synchronous

SEEDS = 8  # 16 units of the Single arm, each of 1 or 3 calls
LATENCY = 0.05


async def _run(run_dir: Path, base_urls: tuple[str, ...]) -> RunSummary:
    data = plan_data(run_dir.parent, base_urls, seeds=SEEDS)  # the same list file for every run
    data["arms"] = [arm for arm in data["arms"] if arm["learner"] == "llm"]
    for server in data["servers"]:
        server["concurrency"] = 4
    return await run_experiment(
        plan_from_data(data), run_dir, progress=Progress(0, out=io.StringIO())
    )


async def _kill_after(server: LatencyServer, calls: int) -> int:
    """Stops ``server`` (listening socket and open connections, calls in flight cut) once it has
    answered ``calls`` calls and holds some; returns how many it was holding then."""
    while server.calls < calls or not server.in_flight:
        await asyncio.sleep(0.005)
    cut = server.in_flight
    await server.__aexit__(None, None, None)
    return cut


@synchronous
async def test_a_server_killed_mid_run_leaves_every_unit_to_the_other(tmp_path: Path) -> None:
    async with LatencyServer(LATENCY) as alone:
        assert (await _run(tmp_path / "alone", (alone.base_url,))).errors == 0
    survivor = LatencyServer(LATENCY)
    async with survivor:
        killed = await LatencyServer(LATENCY).__aenter__()
        killing = asyncio.create_task(_kill_after(killed, 3))
        summary = await _run(tmp_path / "two", (killed.base_url, survivor.base_url))
        cut = await killing
    assert (summary.ran, summary.errors, summary.interrupted, summary.stopped) == (
        2 * SEEDS,
        0,
        (),
        None,
    )
    assert cut > 0 and survivor.calls > 0  # calls were cut mid-flight and went to the other
    assert run_records(tmp_path / "two") == run_records(tmp_path / "alone")
    # the calls the records count are the calls answered to the units, once each
    totals = sum(
        line["totals"]["calls"]
        for lines in run_records(tmp_path / "two").values()
        for line in lines
        if line["type"] == "run"
    )
    assert totals == alone.calls
