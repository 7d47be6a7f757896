"""The units on a real Ray head started here (``--ray``): the records are the local runner's, the
call log serves a resumed run, and a unit whose worker process dies runs again, neither lost nor
doubled. Run with ``pytest -m ray`` (the ray extra); skipped when Ray is not installed."""

from __future__ import annotations

import asyncio
import io
import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest

from cli.experiment import built_in_plan
from experiments.bench.latency_server import LatencyServer
from experiments.plan import Plan, plan_from_data
from experiments.progress import Progress
from experiments.runner import CALL_LOG, RunSummary, run_experiment
from experiments.units import MANIFEST
from llm.calllog import CallLog
from tests.experiments.dying_once_learner import FOLDER
from tests.experiments.runner_support import plan_data, run_records, synchronous, write_regex_list

ray = pytest.importorskip("ray", reason="the ray extra is not installed (pip install -e '.[ray]')")
pytestmark = pytest.mark.ray

REPOSITORY = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def head(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A local Ray head with two CPUs and no dashboard, its workers importing this checkout; the
    folder where :mod:`tests.experiments.dying_once_learner` notes its deaths."""
    deaths = tmp_path_factory.mktemp("deaths")
    path = os.pathsep.join(p for p in (str(REPOSITORY), os.environ.get("PYTHONPATH")) if p)
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        runtime_env={"env_vars": {"PYTHONPATH": path, FOLDER: str(deaths)}},
    )
    os.environ[FOLDER] = str(deaths)  # for the local runs to compare with
    try:
        yield deaths
    finally:
        del os.environ[FOLDER]
        ray.shutdown()


async def _run(plan: Plan, run_dir: Path, **options: Any) -> RunSummary:
    return await run_experiment(plan, run_dir, progress=Progress(1, out=io.StringIO()), **options)


def _quick(tasks: int) -> Plan:
    """The built-in quick plan, its first ``tasks`` tasks of each dataset."""
    plan = built_in_plan("quick")
    return attrs.evolve(plan, datasets=tuple(attrs.evolve(d, limit=tasks) for d in plan.datasets))


@synchronous
async def test_the_quick_plan_on_ray_writes_the_local_runnersrun_records(
    head: Path, tmp_path: Path
) -> None:
    plan = _quick(3)
    local = await _run(plan, tmp_path / "local")
    on_ray = await _run(plan, tmp_path / "ray", ray="auto")
    assert on_ray.ran == local.ran == local.units and local.units >= 6
    assert (on_ray.succeeded, on_ray.errors, on_ray.interrupted) == (local.succeeded, 0, ())
    assert run_records(tmp_path / "ray") == run_records(tmp_path / "local")
    manifest = (tmp_path / "ray" / MANIFEST).read_text()
    assert manifest == (tmp_path / "local" / MANIFEST).read_text()
    again = await _run(plan, tmp_path / "ray", ray="auto")
    assert (again.already_done, again.ran) == (local.units, 0)


@synchronous
async def test_a_small_llm_plan_on_ray_writes_the_records_and_calls_of_the_local_runner(
    head: Path, tmp_path: Path
) -> None:
    calls = {}
    for where, options in (("local", {}), ("ray", {"ray": "auto", "llm_workers": 2})):
        async with LatencyServer(0.3) as server:
            data = plan_data(tmp_path, (server.base_url,), seeds=2, setting="agentic")
            data["servers"][0]["concurrency"] = 2  # 4 LLM units, a slot each on 2 actors
            plan = plan_from_data(data)
            summary = await _run(plan, tmp_path / where, **options)
            assert (summary.ran, summary.errors, summary.interrupted) == (8, 0, ())
            calls[where] = server.stats.calls
            assert server.stats.peak <= 2  # the plan's concurrency, across both actors
            again = await _run(plan, tmp_path / where, **options)
            assert again.already_done == 8 and server.stats.calls == calls[where]
    assert run_records(tmp_path / "ray") == run_records(tmp_path / "local")
    assert calls["ray"] == calls["local"] > 0
    with (
        CallLog(tmp_path / "ray" / CALL_LOG) as ray_log,
        CallLog(tmp_path / "local" / CALL_LOG) as local_log,
    ):
        assert len(ray_log) == len(local_log) == calls["local"]


@synchronous
async def test_an_llm_unit_whose_actor_is_killed_resumes_from_its_records_and_calls(
    head: Path, tmp_path: Path
) -> None:
    """The records a killed Ray run left are continued by the next one, which asks the server only
    for the calls the call log does not hold."""
    async with LatencyServer(0.01) as server:
        data = plan_data(tmp_path, (server.base_url,), seeds=1, setting="agentic")
        data["arms"] = [a for a in data["arms"] if a["learner"] == "llm"]
        plan = plan_from_data(data)
        whole = await _run(plan, tmp_path / "whole")
        paid = server.stats.calls
        assert whole.ran == 2 and paid > 2
        # a run that lost the end of one unit: its last records and calls are gone
        cut = tmp_path / "cut"
        await _run(plan, cut)
        unit = sorted((cut / "records").rglob("*.jsonl"))[-1]
        lines = unit.read_bytes().splitlines(keepends=True)
        unit.write_bytes(b"".join(lines[:2]) + lines[2][:5])  # header, one epoch, a torn line
        before = server.stats.calls
        resumed = await _run(plan, cut, ray="auto")
        assert (resumed.already_done, resumed.ran, resumed.interrupted) == (1, 1, ())
        assert server.stats.calls == before  # every call answered from the call log
    assert run_records(cut) == run_records(tmp_path / "whole")


@synchronous
async def test_a_unit_whose_ray_worker_dies_runs_again_neither_lost_nor_doubled(
    head: Path, tmp_path: Path
) -> None:
    data = {
        "name": "dying-once",
        "seeds": 2,
        "datasets": [
            {"kind": "paper-list", "list": "simplyrx", "path": str(write_regex_list(tmp_path))}
        ],
        "arms": [{"name": "dying", "learner": "tests.experiments.dying_once_learner:dying_once"}],
    }
    plan = plan_from_data(data)
    on_ray = await _run(plan, tmp_path / "ray", ray="auto")
    assert len(list(head.iterdir())) == 4  # every unit's worker died once
    assert (on_ray.ran, on_ray.errors, on_ray.interrupted) == (4, 0, ())
    local = await _run(attrs.evolve(plan, concurrency=1), tmp_path / "local")  # none dies now
    assert (local.ran, local.errors) == (4, 0)
    found = run_records(tmp_path / "ray")
    assert found == run_records(tmp_path / "local")
    for lines in found.values():  # one header, one closing line, each epoch once
        kinds = [line["type"] for line in lines]
        assert kinds.count("unit") == kinds.count("run") == 1
        epochs = [line["epoch"] for line in lines if line["type"] == "epoch"]
        assert epochs == sorted(set(epochs))


class KillingServer(LatencyServer):
    """Kills the process of the Ray actor running LLM units at the first call it gets (the call
    is never answered); later calls are answered as usual."""

    killed: int | None = None

    async def chat(self, body: bytes) -> tuple[int, bytes]:
        if self.killed is None:
            self.killed = _actor_process()
            os.kill(self.killed, signal.SIGKILL)
            await asyncio.Event().wait()  # never answered: the caller's connection is cut
        return await super().chat(body)


def _actor_process() -> int:
    """The process whose title Ray set to the LLM actor's."""
    for entry in Path("/proc").iterdir():
        try:
            title = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if entry.name.isdigit() and title.startswith(b"ray::LLMHost"):
            return int(entry.name)
    raise AssertionError("no process of the LLM actor")


@synchronous
async def test_an_llm_unit_whose_actor_process_is_killed_runs_again_on_a_restarted_actor(
    head: Path, tmp_path: Path
) -> None:
    async with LatencyServer(0.01) as server:
        data = plan_data(tmp_path, (server.base_url,), seeds=1)
        data["arms"] = [a for a in data["arms"] if a["learner"] == "llm"]
        plan = plan_from_data(data)
        await _run(plan, tmp_path / "local")
    async with KillingServer(0.01) as killing:
        data["servers"][0]["base_url"] = killing.base_url
        on_ray = await _run(plan_from_data(data), tmp_path / "ray", ray="auto")
    assert killing.killed is not None
    assert (on_ray.ran, on_ray.errors, on_ray.interrupted) == (2, 0, ())
    assert run_records(tmp_path / "ray") == run_records(tmp_path / "local")
