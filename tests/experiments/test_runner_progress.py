"""Progress that moves: the line is redrawn while calls run (``elapsed`` ticks), the time left is
estimated from model calls while units run in lockstep, and units expected to take longest start
first."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

from experiments.bench.latency_server import LatencyServer
from experiments.plan import plan_from_data
from experiments.progress import Progress
from experiments.runner import longest_first, run_experiment
from experiments.units import units
from tests.experiments.runner_support import plan_data, synchronous


class Terminal(io.StringIO):
    """A stream that says it is a terminal, so every redraw is written."""

    def isatty(self) -> bool:
        return True


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _llm_only(folder: Path, base_url: str) -> dict[str, Any]:
    data = plan_data(folder, (base_url,))
    data["arms"] = [arm for arm in data["arms"] if arm["learner"] == "llm"]
    return data


def test_in_lockstep_the_eta_counts_calls_not_units() -> None:
    clock = Clock()
    left = [900.0]
    track = Progress(100, out=io.StringIO(), clock=clock, calls_left=lambda: left[0])
    clock.now = 10.0
    track.call_made()
    for _ in range(99):
        track.call_made()
    clock.now = 110.0  # 100 calls in 100 s, 900 to go, no unit ended yet
    assert "ETA 15m00s" in track.line()
    for _ in range(20):  # a fifth of the units ended: now units tell the time left
        track.unit_finished(True, 0)
    assert "ETA 7m20s" in track.line()  # 110 s for 20 units, 80 to go


@synchronous
async def test_elapsed_moves_while_calls_run(tmp_path: Path) -> None:
    async with LatencyServer(0.4) as server:  # each unit makes 3 calls of 0.4 s
        plan = plan_from_data(_llm_only(tmp_path, server.base_url))
        screen = Terminal()
        track = Progress(2, out=screen, tick=0.02)
        await run_experiment(plan, tmp_path / "run", progress=track)
    before_any_ended = [line for line in screen.getvalue().split("\r") if "units 0/2" in line]
    assert len(before_any_ended) >= 5  # redrawn while the first calls ran, not once per unit
    etas = [re.search(r"ETA (\S+)", line) for line in before_any_ended]
    assert any(m is not None and m.group(1) != "—" for m in etas)  # estimated from the calls


def test_units_expected_longest_start_first(tmp_path: Path) -> None:
    plan = plan_from_data(plan_data(tmp_path, ("http://127.0.0.1:9/v1",), seeds=2))
    llm = [unit for unit in units(plan) if unit.arm.is_llm]
    assert [u.task.metrics.star_depth for u in llm] == [0, 0, 1, 1]  # the plan's order
    ordered = longest_first(llm, plan)
    assert [u.task.metrics.star_depth for u in ordered] == [1, 1, 0, 0]
    assert sorted(u.key for u in ordered) == sorted(u.key for u in llm)
