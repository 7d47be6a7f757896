"""The runner's edges: the progress line with its ETA, and ``python -m cli experiment`` with no
file (the built-in plan, shrunk here so the test is quick) saying in one line that no model server
is needed, then reporting."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from click.testing import CliRunner

import cli.experiment
from cli.main import main
from experiments.plan import Plan, plan_from_data
from experiments.progress import Progress
from tests.experiments.runner_support import write_regex_list


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_progress_line_counts_and_estimates_from_this_invocations_pace() -> None:
    clock, out = Clock(), io.StringIO()
    progress = Progress(10, out=out, clock=clock, every=10.0)
    progress.resume(done=4, succeeded=3, tokens=1000)  # finished by an earlier invocation
    assert progress.line().endswith("ETA —")
    clock.now += 30.0
    progress.unit_finished(True, 234)
    progress.unit_finished(False, 0)
    progress.unit_failed()
    # 3 units in 30 s here; 3 left → 30 s
    assert progress.line() == "units 7/10 · succeeded 4 · tokens 1,234 · elapsed 30s · ETA 30s · errors 1"
    assert out.getvalue().count("\n") == 1  # off a terminal, at most one line per 10 s
    clock.now += 3600.0
    progress.show(final=True)
    # 3 units in 3630 s, 3 left
    assert out.getvalue().splitlines()[-1] == "units 7/10 · succeeded 4 · tokens 1,234 · elapsed 1h00m · ETA 1h00m · errors 1"


def _tiny_built_in(folder: Path) -> Plan:
    data = {
        "name": "quick",
        "concurrency": 1,
        "datasets": [
            {"kind": "paper-list", "list": "simplyrx", "path": str(write_regex_list(folder))},
            {"kind": "paper-list", "list": "extrx", "path": str(folder / "absent.json"), "optional": True},
        ],
        "arms": [{"learner": "symbolic"}],
    }
    return plan_from_data(data)


def test_experiment_without_a_file_runs_the_built_in_plan_and_reports(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli.experiment, "built_in_plan", lambda name: _tiny_built_in(tmp_path))
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    out = tmp_path / "run"
    result = CliRunner().invoke(main, ["experiment", "--out", str(out), "--dataset-limit", "1"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("No model server needed:") and "--base-url" in lines[0]
    assert sum("model server" in line for line in lines) == 1
    assert "units 1: 0 done before, 1 run now, 1 succeeded, 0 errors" in result.output  # --dataset-limit 1
    assert "skipped dataset 'extrx'" in result.output
    assert (out / "report.md").exists() and f"report: {out / 'report.md'}" in result.output
    again = CliRunner().invoke(main, ["experiment", "--out", str(out), "--dataset-limit", "1"])
    assert "units 1: 1 done before, 0 run now" in again.output


def test_a_bad_experiment_file_is_bad_input(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('[[datasets]]\nkind = "generated"\n[[arms]]\nlearner = "llm"\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["experiment", str(path)])
    assert result.exit_code == 2 and "needs setting" in result.output
