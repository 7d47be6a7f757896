"""The shipped experiment files: each loads, enumerates its units (without running them), carries
its header, the baseline rows, and the paper's teacher one switch away from ours."""

from __future__ import annotations

import tomllib
from collections import Counter
from importlib import resources
from pathlib import Path

import attrs
import pytest

from cli.experiment import built_in_plan
from experiments.datasets import Task
from experiments.plan import DatasetSpec, Plan, load_plan, plan_from_data
from experiments.units import Unit, dataset_tasks, units

PLANS = Path(str(resources.files("experiments").joinpath("plans")))
PAPER_PLANS = sorted(p for p in PLANS.glob("*.toml") if p.stem not in ("quick", "local-smoke"))


_TASKS: dict[DatasetSpec, tuple[Task, ...]] = {}


def _units(plan: Plan) -> list[Unit]:
    """The plan's units, loading each dataset once for the whole module (NL-RX takes seconds)."""
    for spec in plan.datasets:
        if spec not in _TASKS:
            _TASKS[spec] = dataset_tasks(spec)
    return list(units(plan, tuple((spec, _TASKS[spec]) for spec in plan.datasets)))


def test_there_is_a_file_for_every_table() -> None:
    names = {p.stem for p in PAPER_PLANS}
    assert {
        "table1-simple",
        "table1-extended",
        "table2-models",
        "table3-clustered",
        "table4-ablation-simple",
        "table6-prompts",
        "table7-ablation-extended",
        "multi-candidate",
        "acegis-feedback",
        "acegis-full",
        "acegis-exact",
    } <= names


@pytest.mark.parametrize("path", PAPER_PLANS, ids=lambda p: p.stem)
def test_a_paper_plan_loads_with_header_baselines_and_the_papers_teacher(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    header = "\n".join(line for line in text.splitlines() if line.startswith("#"))
    assert text.startswith("# Paper 00"), "the header says which table"
    assert "Published" in header and ("Size" in header or "minutes" in header)
    plan = load_plan(path)
    assert plan.teacher_profile == "cegml"
    assert "cegml" in header and "improved" in header, "the file says why cegml and how to switch"
    learners = Counter(arm.learner for arm in plan.arms)
    assert learners["symbolic"] == 1 and learners["lstar"] == 1
    assert any(arm.setting in ("guarded", "guarded-plain") for arm in plan.arms)
    switched = tomllib.loads(
        text.replace('teacher_profile = "cegml"', 'teacher_profile = "improved"')
    )
    improved = plan_from_data(switched, default_name=path.stem)
    assert attrs.evolve(improved, teacher_profile="cegml") == plan


@pytest.mark.parametrize("path", PAPER_PLANS, ids=lambda p: p.stem)
def test_a_paper_plan_enumerates_its_units(path: Path, shared_data: Path) -> None:
    plan = load_plan(path)
    found = _units(plan)
    tasks = {(u.dataset, u.task.id) for u in found}
    assert len(found) == len(tasks) * len(plan.arms) * len(plan.seeds)
    assert len({u.key for u in found}) == len(found)


def test_table1_has_the_papers_cells(shared_data: Path) -> None:
    plan = load_plan(PLANS / "table1-simple.toml")
    depths = Counter(
        u.task.listed.star_depth
        for u in _units(plan)
        if u.arm.name == "agentic" and u.seed == 0 and u.task.listed
    )
    assert depths == {0: 21, 1: 21, 2: 21, 3: 21, 4: 21}
    multi = load_plan(PLANS / "multi-candidate.toml")
    assert {u.task.listed.star_depth for u in _units(multi) if u.task.listed} == {1, 2, 3}


def test_the_feedback_ablation_samples_thirty_nl_rx_turk_tasks(shared_data: Path) -> None:
    plan = load_plan(PLANS / "acegis-feedback.toml")
    tasks = {u.task.id for u in _units(plan)}
    assert len(tasks) == 30 and all(t.startswith("nl-rx-turk") for t in tasks)
    hardening = [u for u in _units(load_plan(PLANS / "acegis-full.toml")) if u.hardens]
    assert hardening and {u.arm.setting for u in hardening} == {"acegis-full"}


def test_the_built_in_plan_needs_no_model() -> None:
    plan = built_in_plan("quick")
    assert not plan.needs_model and plan.datasets


def test_the_local_smoke_plan_runs_every_llm_setting_family_on_small_budgets(
    shared_data: Path,
) -> None:
    plan = load_plan(PLANS / "local-smoke.toml")
    settings = {arm.setting for arm in plan.arms}
    assert {
        "standard-96",
        "single",
        "agentic",
        "multi",
        "prompt-output",
        "acegis-diagnostic",
        "acegis-exact",
        "guarded",
    } <= settings
    found = _units(plan)
    assert {u.arm.name for u in found} == {arm.name for arm in plan.arms}
    assert all(
        u.task.description for u in found if u.arm.setting and u.arm.setting.startswith("acegis")
    )
    assert all(
        arm.max_completion_tokens is not None and arm.max_completion_tokens <= 240
        for arm in plan.arms
    )
    assert len(found) <= 28
    # every arm runs with and without constrained answers, side by side in the report
    plain = {arm.name for arm in plan.arms if not arm.constrained}
    assert {arm.name for arm in plan.arms if arm.constrained} == {f"{n}+constrained" for n in plain}
