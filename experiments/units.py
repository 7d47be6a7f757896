"""The units of an experiment: one (dataset task, arm, seed) each, with the file its records go to.

A run directory holds one JSON Lines file per unit, ``records/<arm>/<dataset>/<task>__s<seed>.jsonl``,
written by :func:`cegis.loop.run` (one line per epoch, one closing line per run), and ``units.jsonl``,
the manifest that says which task, cell and arm each file belongs to. One file per unit keeps
parallel workers from ever interleaving lines, and makes resuming trivial: a unit whose file holds
its closing ``run`` record is done; any other continues from the epochs its file holds. A unit
whose setting hardens (A-CEGIS's full run) writes one ``hardening`` line after its ``run`` line and
is done only with it. Every file begins with the unit's fingerprint (:mod:`experiments.fingerprint`)
and is read back through :mod:`experiments.unit_file`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs

from cegis.state import Task as LoopTask
from experiments.data_dir import DEFAULT_DATA_DIR
from experiments.datasets import (
    KB13_DIR,
    NL_RX_TURK_DIR,
    DatasetNotFound,
    SimpleGrid,
    Task,
    generate_simple,
    load_deepregex,
    load_kb13_extrx,
    load_paper_list,
)
from experiments.plan import ArmSpec, DatasetSpec, Plan, arm_setting

MANIFEST = "units.jsonl"
#: The fields of a manifest line (:meth:`Unit.manifest_json`) that must be strings.
MANIFEST_TEXT_FIELDS = ("unit", "dataset", "task", "dialect", "arm", "learner", "records")
#: The fields of a manifest line that must be integers.
MANIFEST_COUNT_FIELDS = ("states", "star_depth", "seed")


@attrs.frozen
class Unit:
    """One run of an experiment: a task of a dataset under an arm at a seed."""

    dataset: str
    task: Task
    arm: ArmSpec
    seed: int

    @property
    def key(self) -> str:
        """The unit's path-safe identity inside its run directory."""
        return f"{self.arm.name}/{self.dataset}/{self.task.id}__s{self.seed}"

    @property
    def hardens(self) -> bool:
        """Whether the unit's setting runs hardening cycles after the loop."""
        setting = arm_setting(self.arm)
        return setting is not None and setting.hardening_cycles > 0

    def records(self, run_dir: Path) -> Path:
        """The JSON Lines file of this unit's records."""
        return run_dir / "records" / f"{self.key}.jsonl"

    def loop_task(self) -> LoopTask:
        """The task as the learning loop sees it."""
        return loop_task(self.task)

    def manifest_json(self) -> dict[str, Any]:
        """The manifest line: where the records are and what they are about."""
        return {
            "unit": self.key,
            "dataset": self.dataset,
            "task": self.task.id,
            "dialect": self.task.dialect,
            "target": self.task.target,
            "description": self.task.description,
            "states": self.task.metrics.states,
            "star_depth": self.task.metrics.star_depth,
            "listed_states": None if self.task.listed is None else self.task.listed.states,
            "listed_star_depth": None if self.task.listed is None else self.task.listed.star_depth,
            "arm": self.arm.name,
            "learner": self.arm.learner,
            "setting": self.arm.setting,
            "model": self.arm.model,
            "protocol": self.arm.protocol,
            "seed": self.seed,
            "records": f"records/{self.key}.jsonl",
        }


def loop_task(task: Task) -> LoopTask:
    """A benchmark task as the learning loop sees it."""
    return LoopTask(task.dialect, task.target, name=task.id, universe=task.alphabet)


def dataset_tasks(spec: DatasetSpec) -> tuple[Task, ...]:
    """The tasks of one dataset spec, those at ``spec.star_depths`` and the first ``spec.limit``
    when it says so (raises ``experiments.datasets.DatasetError`` on bad files)."""
    tasks = _all_tasks(spec)
    if spec.star_depths is not None:
        tasks = tuple(t for t in tasks if (t.listed or t.metrics).star_depth in spec.star_depths)
    return tasks if spec.limit is None else tasks[: spec.limit]


def _all_tasks(spec: DatasetSpec) -> tuple[Task, ...]:
    if spec.kind == "generated":
        return generate_simple(SimpleGrid(per_cell=spec.per_cell or 3, seed=spec.seed))
    if spec.kind == "paper-list":
        path = spec.path or DEFAULT_DATA_DIR / "cegml" / "regex_list.json"
        return load_paper_list(spec.list, path, per_cell=spec.per_cell)  # type: ignore[arg-type]
    if spec.kind == "kb13-extended":
        tasks = load_kb13_extrx(spec.path or DEFAULT_DATA_DIR / "cegml" / "KB13_extrx.txt")
        return tasks if spec.size is None else tasks[: spec.size]
    folder = spec.path or (NL_RX_TURK_DIR if spec.kind == "nl-rx-turk" else KB13_DIR)
    return load_deepregex(folder, size=spec.size or 30, seed=spec.seed)


def available_datasets(plan: Plan) -> tuple[tuple[DatasetSpec, tuple[Task, ...]], ...]:
    """Each dataset of ``plan`` with its tasks; an ``optional`` dataset whose files are absent is
    left out (the caller says so), any other missing or malformed file raises ``DatasetError``."""
    found = []
    for spec in plan.datasets:
        try:
            found.append((spec, dataset_tasks(spec)))
        except DatasetNotFound:
            if not spec.optional:
                raise
    return tuple(found)


def units(
    plan: Plan, datasets: tuple[tuple[DatasetSpec, tuple[Task, ...]], ...] | None = None
) -> Iterator[Unit]:
    """Every unit of ``plan``: dataset by dataset, task by task, then arms, then seeds."""
    for spec, tasks in available_datasets(plan) if datasets is None else datasets:
        arms = [arm for arm in plan.arms if arm.datasets is None or spec.name in arm.datasets]
        for task in tasks:
            for arm in arms:
                for seed in plan.seeds:
                    yield Unit(spec.name, task, arm, seed)


def write_manifest(run_dir: Path, all_units: list[Unit]) -> None:
    """Write ``units.jsonl`` afresh (it is derived from the plan, so rewriting it loses nothing)."""
    run_dir.mkdir(parents=True, exist_ok=True)
    lines = "".join(
        json.dumps(unit.manifest_json(), ensure_ascii=False) + "\n" for unit in all_units
    )
    (run_dir / MANIFEST).write_text(lines, encoding="utf-8")
