"""Running one unit of an experiment: build its learner, teacher and loop settings, fold the loop.

A symbolic unit needs nothing but CPU, so the runner sends it to a worker process
(:func:`run_symbolic_unit` is a plain top-level function for that reason); an LLM unit waits on a
model server, so it runs as a task on the runner's event loop, sharing one :class:`ServerPool`.
Either way the unit's records file is its whole state: :func:`cegis.loop.run` resumes from it.

A setting with hardening cycles (A-CEGIS's full run) goes on after the loop: :func:`cegis.llm.acegis.harden`
probes the accepted hypothesis and repairs it on the failed probes, and one ``hardening`` line
after the ``run`` line records the probes, each cycle and whether the final hypothesis is robust.
A unit killed during hardening reruns it on resume; its model calls answer from the call log.
"""

from __future__ import annotations

import asyncio
import pickle
import traceback
from pathlib import Path
from typing import Any

import attrs

from cegis.learner import LearnerCost
from cegis.llm.acegis import HardeningCycle, harden
from cegis.llm.setup import PreparedRun, prepare_llm_run
from cegis.records import RecordLog, run_id, run_recorded
from cegis.registry import build
from cegis.state import EpochState
from experiments.errors import UnitRaised
from experiments.fingerprint import fingerprint
from experiments.plan import Plan, arm_setting, loop_config
from experiments.unit_file import UnitFile, read_unit_file
from experiments.units import Unit
from llm.protocol import ChatClient
from oracle.exact import ExactTeacher

JSON = dict[str, Any]


def run_symbolic_unit(unit: Unit, plan: Plan, run_dir: Path) -> JSON:
    """Run (or resume) a unit whose learner needs no model; returns its closing run record."""
    return asyncio.run(_symbolic(unit, plan, run_dir))


def run_symbolic_unit_in_worker(unit: Unit, plan: Plan, run_dir: Path) -> JSON:
    """:func:`run_symbolic_unit` in a worker process: an exception that would not come back to the
    runner whole is raised as :class:`UnitRaised` instead. (One that does not unpickle in the
    runner breaks the whole process pool, leaving every unit in flight unfinished.)"""
    try:
        return run_symbolic_unit(unit, plan, run_dir)
    except Exception as error:
        if travels(error):
            raise
        text = "".join(traceback.format_exception(error))
        raise UnitRaised(f"{type(error).__name__}: {error}\n{text}") from None


def travels(error: BaseException) -> bool:
    """Whether ``error`` survives pickling (what a process pool does to it)."""
    try:
        pickle.loads(pickle.dumps(error))
    except Exception:  # noqa: BLE001 - any failure of a user's class means it does not travel
        return False
    return True


async def _symbolic(unit: Unit, plan: Plan, run_dir: Path) -> JSON:
    config = loop_config(plan, unit.arm, unit.seed)
    task = unit.loop_task()
    teacher = ExactTeacher.from_regex(
        task.target or "", task.dialect, universe=task.universe, config=config.teacher_config
    )
    await run_recorded(task, build(unit.arm.learner), teacher, config, _path(unit, plan, run_dir))
    return _closed(unit, run_dir)


async def run_llm_unit(
    unit: Unit, plan: Plan, run_dir: Path, client: ChatClient, served_model: str | None = None
) -> JSON:
    """Run (or resume) a unit whose learner asks a model through ``client`` (which serves
    ``served_model``, when known: part of the unit's fingerprint), hardening after the loop when
    its setting says so."""
    setting = arm_setting(unit.arm)
    assert setting is not None
    config = loop_config(plan, unit.arm, unit.seed)
    # the target's compile, the fingerprint and the records file's first line: off the event loop
    prepared = await asyncio.to_thread(
        prepare_llm_run,
        setting,
        unit.loop_task(),
        config,
        client,
        description=unit.task.description or "",
    )
    path = await asyncio.to_thread(_path, unit, plan, run_dir, served_model)
    state = await run_recorded(
        prepared.task, prepared.learner, prepared.teacher, prepared.config, path
    )
    if setting.hardening_cycles > 0 and read_unit_file(path).finished(hardening=True) is None:
        hardening = await _hardening(state, prepared, setting.hardening_cycles)
        await asyncio.to_thread(lambda: RecordLog(path).append(hardening, sync=True))
    return await asyncio.to_thread(_closed, unit, run_dir)


async def _hardening(state: EpochState, prepared: PreparedRun, cycles: int) -> JSON:
    """The ``hardening`` record of a finished run: the final hypothesis probed, then up to
    ``cycles`` repair cycles on the failed probes."""
    suite = prepared.learner.suite
    assert suite is not None  # a hardening setting prompts with a description, so it has a suite
    run = run_id(prepared.task, prepared.config, prepared.learner.name)
    hypothesis = state.hypothesis
    before = (
        None
        if hypothesis is None
        else await asyncio.to_thread(suite.evaluate, hypothesis, probe=True)
    )
    after, done = await harden(
        state, prepared.learner, suite, prepared.teacher, prepared.config, cycles=cycles
    )
    spent = after.cost.learner
    return {
        "type": "hardening",
        "run": run,
        "hypothesis": hypothesis,
        "passed": before is not None and before.passed,
        "robust_before": before is not None and before.robust,
        "cycles": [_cycle_json(cycle) for cycle in done],
        "final": done[-1].repaired if done else hypothesis,
        "robust": done[-1].robust if done else before is not None and before.robust,
        "tokens": _spent_json(spent, state.cost.learner),
    }


def _spent_json(after: LearnerCost, before: LearnerCost) -> JSON:
    """The calls and tokens spent between two costs; the calls without reported usage and the
    client's count of their tokens only when there are any (records stay as they were before)."""
    spent = {
        "calls": after.calls - before.calls,
        "prompt_tokens": after.prompt_tokens - before.prompt_tokens,
        "completion_tokens": after.completion_tokens - before.completion_tokens,
    }
    for key in ("unreported_calls", "counted_tokens"):
        if getattr(after, key) - getattr(before, key):
            spent[key] = getattr(after, key) - getattr(before, key)
    return spent


def _cycle_json(cycle: HardeningCycle) -> JSON:
    return attrs.asdict(cycle) | {"failed": [e.text() for e in cycle.failed]}


def _path(unit: Unit, plan: Plan, run_dir: Path, served_model: str | None = None) -> Path:
    """The unit's records file, opened (a torn last line cut) and begun with its fingerprint line."""
    path = unit.records(run_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    log = RecordLog(path)
    if not path.exists() or path.stat().st_size == 0:
        log.append(
            {"type": "unit", "unit": unit.key, "fingerprint": fingerprint(unit, plan, served_model)}
        )
    return path


def _closed(unit: Unit, run_dir: Path) -> JSON:
    result = unit_result(unit, run_dir)
    if result is None:
        raise RuntimeError(f"unit {unit.key} ended without its closing record")
    return result


def unit_result(unit: Unit, run_dir: Path, records: UnitFile | None = None) -> JSON | None:
    """The manifest line with the unit's outcome and totals (hardening tokens included); None
    while the unit is unfinished. ``records``: the unit's file, when already read."""
    records = read_unit_file(unit.records(run_dir)) if records is None else records
    closing = records.finished(hardening=unit.hardens)
    if closing is None:
        return None
    totals = dict(closing["totals"])
    if records.hardening is not None:
        for key in ("prompt_tokens", "completion_tokens", "unreported_calls", "counted_tokens"):
            extra = int(records.hardening["tokens"].get(key, 0))
            if key in totals or extra:
                totals[key] = int(totals.get(key, 0)) + extra
    return unit.manifest_json() | {"outcome": closing["outcome"], "totals": totals}
