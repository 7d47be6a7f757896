"""A small experiment end to end: a symbolic arm and an LLM arm (the scripted loopback server)
run by ``run_experiment`` into a run directory, and the report written from it."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

import experiments.runner
from experiments.execute import run_symbolic_unit
from experiments.plan import Plan, plan_from_data
from experiments.progress import Progress
from experiments.report import write_report
from experiments.runner import run_experiment
from experiments.units import MANIFEST, Unit
from tests.cegis.llm.scripted_server import ScriptedServer
from tests.experiments.runner_support import CALLS_PER_SEED, RULES, plan_data, synchronous


def _lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@synchronous
async def test_a_small_experiment_runs_end_to_end_and_reports(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    async with ScriptedServer(RULES) as server:
        plan = plan_from_data(plan_data(tmp_path, (server.base_url,)))
        out = io.StringIO()
        summary = await run_experiment(plan, run_dir, progress=Progress(4, out=out))
    assert (summary.units, summary.already_done, summary.ran, summary.errors) == (4, 0, 4, 0)
    assert server.chat_calls == CALLS_PER_SEED
    manifest = _lines(run_dir / MANIFEST)
    assert sorted((m["arm"], m["star_depth"]) for m in manifest) == [
        ("single", 0),
        ("single", 1),
        ("symbolic", 0),
        ("symbolic", 1),
    ]
    outcomes = {}
    for unit in manifest:
        records = _lines(run_dir / str(unit["records"]))
        closing = [r for r in records if r["type"] == "run"]
        assert len(closing) == 1
        outcomes[(unit["arm"], unit["star_depth"])] = closing[0]["outcome"]
    assert outcomes[("single", 1)] == "equivalent" and outcomes[("single", 0)] != "equivalent"
    assert summary.succeeded == sum(o == "equivalent" for o in outcomes.values())
    assert "units 4/4" in out.getvalue()

    report = write_report(run_dir).read_text(encoding="utf-8")
    assert "## Dataset `simplyrx`" in report
    for section in (
        "Run-level success by StarDepth",
        "Success over #States × StarDepth",
        "Sample efficiency",
        "Success against tokens",
    ):
        assert f"### {section}" in report
    assert "| single | 0.0% (0/1) | 100.0% (1/1) | 50.0% (1/2) |" in report
    assert "↳ paper, Table 1 (single)" in report  # the published figures, in a row of their own
    figures = run_dir / "figures"
    for name in (
        "heatmap-simplyrx-single.svg",
        "heatmap-simplyrx-symbolic.svg",
        "pareto-simplyrx.svg",
        "efficiency-simplyrx-accuracy.svg",
    ):
        assert (figures / name).read_text(encoding="utf-8").startswith("<svg xmlns="), name
        assert f"(figures/{name})" in report


@synchronous
async def test_a_unit_that_raises_is_logged_and_the_rest_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken_at_depth_0(unit: Unit, plan: Plan, run_dir: Path) -> dict[str, object]:
        if unit.task.id.endswith("d0-0"):
            raise ValueError("a learner bug")
        return run_symbolic_unit(unit, plan, run_dir)

    monkeypatch.setattr(experiments.runner, "run_symbolic_unit", broken_at_depth_0)
    data = plan_data(tmp_path, (), seeds=2)
    data["arms"] = data["arms"][:1]
    summary = await run_experiment(
        plan_from_data(data), tmp_path / "run", progress=Progress(4, out=io.StringIO())
    )
    assert (summary.ran, summary.errors) == (4, 2)
    errors = _lines(tmp_path / "run" / "errors.jsonl")
    assert {e["unit"] for e in errors} == {
        "symbolic/simplyrx/simplyrx-s2-d0-0__s0",
        "symbolic/simplyrx/simplyrx-s2-d0-0__s1",
    }
    assert all("ValueError: a learner bug" in str(e["error"]) for e in errors)
    assert "Units that raised" in write_report(tmp_path / "run").read_text(encoding="utf-8")


@synchronous
async def test_the_report_lists_only_units_still_unfinished_and_reads_past_a_cut_error_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken_at_depth_0(unit: Unit, plan: Plan, run_dir: Path) -> dict[str, object]:
        if unit.task.id.endswith("d0-0"):
            raise ValueError("a learner bug")
        return run_symbolic_unit(unit, plan, run_dir)

    data = plan_data(tmp_path, (), seeds=2)
    data["arms"] = data["arms"][:1]
    run_dir = tmp_path / "run"
    with monkeypatch.context() as patch:
        patch.setattr(experiments.runner, "run_symbolic_unit", broken_at_depth_0)
        await run_experiment(plan_from_data(data), run_dir, progress=Progress(4, out=io.StringIO()))
    with (run_dir / "errors.jsonl").open("a", encoding="utf-8") as log:
        log.write(
            '{"unit": "symbolic/simplyrx/simplyrx-s2-d0-0__s1", "err'
        )  # a crash while logging
    report = write_report(run_dir).read_text(encoding="utf-8")
    assert "- `symbolic/simplyrx/simplyrx-s2-d0-0__s0`: ValueError: a learner bug" in report
    assert "- 1 line(s) of errors.jsonl could not be read" in report

    summary = await run_experiment(
        plan_from_data(data), run_dir, progress=Progress(4, out=io.StringIO())
    )
    assert (summary.ran, summary.errors) == (2, 0)  # the retry finished both
    report = write_report(run_dir).read_text(encoding="utf-8")
    assert "a learner bug" not in report
    (run_dir / "errors.jsonl").write_text("")  # a log whose only write failed (a full disk)
    assert "Units that raised" not in write_report(run_dir).read_text(encoding="utf-8")


@synchronous
async def test_a_token_budget_stops_launching_llm_units(tmp_path: Path) -> None:
    async with ScriptedServer(RULES) as server:
        data = plan_data(tmp_path, (server.base_url,), seeds=2) | {"token_budget": 1}
        summary = await run_experiment(
            plan_from_data(data), tmp_path / "run", progress=Progress(8, out=io.StringIO())
        )
    # the first LLM unit (the deepest target, started first: its one call solves it) spends past
    # the budget; the three after it are not started
    assert summary.stopped is not None and "token budget" in summary.stopped
    assert summary.ran == 4 + 1 and server.chat_calls == 1


@synchronous
async def test_the_prompt_ablation_arms_send_the_components_their_row_names(tmp_path: Path) -> None:
    data = plan_data(tmp_path, ())
    rows = (
        "prompt-naive",
        "prompt-input-only",
        "prompt-output",
        "prompt-input",
        "prompt-cot",
        "prompt-strategy",
    )
    data["arms"] = [{"name": row, "learner": "llm", "setting": row, "epochs": 1} for row in rows]
    data["datasets"][0]["star_depths"] = [
        1
    ]  # the target the scripted answer hits: one call per arm
    async with ScriptedServer(RULES) as server:
        data["servers"] = [{"base_url": server.base_url, "concurrency": 1}]
        summary = await run_experiment(
            plan_from_data(data), tmp_path / "run", progress=Progress(6, out=io.StringIO())
        )
    assert (summary.ran, summary.succeeded) == (6, 6)
    prompts = ["\n".join(str(m["content"]) for m in body["messages"]) for body in server.requests]
    present = [
        ("REGEX SYNTAX" in s, "INPUT FORMAT" in s, "<reasoning>" in s, "INFERENCE STRATEGY" in s)
        for s in prompts
    ]
    # rows of Table 6: naive, input only, + output instruction, + input, + CoT, + strategy; every
    # row asks for the answer inside <ans> (the naive prompt of the paper's code does too)
    assert present == [
        (False, False, False, False),
        (False, True, False, False),
        (True, False, False, False),
        (True, True, False, False),
        (True, True, True, False),
        (True, True, True, True),
    ]
    assert all("<ans>" in s for s in prompts)
    assert all("CONSTRAINTS" not in s.upper() for s in prompts)
