"""Running one unit of an experiment: build its learner, teacher and loop settings, fold the loop.

A symbolic unit needs nothing but CPU, so the runner sends it to a worker process
(:func:`run_symbolic_unit` is a plain top-level function for that reason); an LLM unit waits on a
model server, so it runs as a task on the runner's event loop, sharing one :class:`ServerPool`.
Either way the unit's records file is its whole state: :func:`cegis.loop.run` resumes from it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from cegis.drafts import ChatClient
from cegis.learners import build
from cegis.llm_setup import prepare_llm_run
from cegis.loop import run
from cegis.state import EpochState
from experiments.plan import Plan, loop_config
from experiments.units import Unit, finished
from oracle.exact import ExactTeacher


def run_symbolic_unit(unit: Unit, plan: Plan, run_dir: Path) -> dict[str, Any]:
    """Run (or resume) a unit whose learner needs no model; returns its closing run record."""
    return asyncio.run(_symbolic(unit, plan, run_dir))


async def _symbolic(unit: Unit, plan: Plan, run_dir: Path) -> dict[str, Any]:
    config = loop_config(plan, unit.arm, unit.seed)
    task = unit.loop_task()
    teacher = ExactTeacher.from_regex(task.target or "", task.dialect, universe=task.universe, config=config.teacher_config)
    return await _fold(unit, run_dir, lambda: run(task, build(unit.arm.learner), teacher, config, records=_path(unit, run_dir)))


async def run_llm_unit(unit: Unit, plan: Plan, run_dir: Path, client: ChatClient) -> dict[str, Any]:
    """Run (or resume) a unit whose learner asks a model through ``client``."""
    assert unit.arm.setting is not None
    config = loop_config(plan, unit.arm, unit.seed)
    prepared = prepare_llm_run(
        unit.arm.setting, unit.loop_task(), config, client, description=unit.task.description or ""
    )
    return await _fold(
        unit, run_dir, lambda: run(prepared.task, prepared.learner, prepared.teacher, prepared.config, records=_path(unit, run_dir))
    )


def _path(unit: Unit, run_dir: Path) -> Path:
    path = unit.records(run_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


async def _fold(unit: Unit, run_dir: Path, start: Callable[[], Awaitable[EpochState]]) -> dict[str, Any]:
    await start()
    closing = finished(unit.records(run_dir))
    if closing is None:
        raise RuntimeError(f"unit {unit.key} ended without its closing record")
    return unit.manifest_json() | {"outcome": closing["outcome"], "totals": closing["totals"]}
