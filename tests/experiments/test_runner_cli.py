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
from experiments.progress import Progress, reporting
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
    assert (
        progress.line()
        == "units 7/10 · succeeded 4 · tokens 1,234 · elapsed 30s · ETA 30s · errors 1"
    )
    assert out.getvalue().count("\n") == 1  # off a terminal, at most one line per 10 s
    clock.now += 3600.0
    progress.show(final=True)
    # 3 units in 3630 s, 3 left
    assert (
        out.getvalue().splitlines()[-1]
        == "units 7/10 · succeeded 4 · tokens 1,234 · elapsed 1h00m · ETA 1h00m · errors 1"
    )


def _tiny_built_in(folder: Path) -> Plan:
    data = {
        "name": "quick",
        "concurrency": 1,
        "datasets": [
            {"kind": "paper-list", "list": "simplyrx", "path": str(write_regex_list(folder))},
            {
                "kind": "paper-list",
                "list": "extrx",
                "path": str(folder / "absent.json"),
                "optional": True,
            },
        ],
        "arms": [{"learner": "symbolic"}],
    }
    return plan_from_data(data)


def test_experiment_without_a_file_runs_the_built_in_plan_and_reports(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cli.experiment, "built_in_plan", lambda name: _tiny_built_in(tmp_path))
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    out = tmp_path / "run"
    result = CliRunner().invoke(main, ["experiment", "--out", str(out), "--dataset-limit", "1"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("No model server needed:") and "--base-url" in lines[0]
    assert sum("model server" in line for line in lines) == 1
    assert (
        "units 1: 0 done before, 1 run now, 1 succeeded, 0 errors" in result.output
    )  # --dataset-limit 1
    assert "skipped dataset 'extrx'" in result.output
    assert (out / "report.md").exists() and f"report: {out / 'report.md'}" in result.output
    report = (out / "report.md").read_text(
        encoding="utf-8"
    )  # the report says it too, not only the terminal
    assert "**Skipped: 1 dataset(s) of the plan have no results in this report**" in report
    assert "- `extrx`: optional, and its files were absent when the experiment ran" in report
    again = CliRunner().invoke(main, ["experiment", "--out", str(out), "--dataset-limit", "1"])
    assert "units 1: 1 done before, 0 run now" in again.output


def test_a_bad_experiment_file_is_bad_input(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(
        '[[datasets]]\nkind = "generated"\n[[arms]]\nlearner = "llm"\n', encoding="utf-8"
    )
    result = CliRunner().invoke(main, ["experiment", str(path)])
    assert result.exit_code == 2 and "needs setting" in result.output


class Terminal(io.StringIO):
    """A stream that says it is a terminal, and the screen its writes leave (``\\r`` returns to the
    start of the line and overwrites it, as a terminal does)."""

    def isatty(self) -> bool:
        return True

    def screen(self) -> list[str]:
        lines = []
        for written in self.getvalue().split("\n"):
            line = ""
            for part in written.split("\r"):
                line = part + line[len(part) :]
            lines.append(line)
        return lines


def test_on_a_terminal_a_shorter_redraw_leaves_no_characters_of_the_longer_line() -> None:
    clock, out = Clock(), Terminal()
    progress = Progress(2, out=out, clock=clock)
    progress.unit_finished(True, 0)
    clock.now += 10.0  # elapsed 10s, ETA 10s
    progress.show()
    assert out.screen()[-1].endswith("ETA 10s")
    clock.now -= 10.0  # ETA 0s: one character shorter
    progress.unit_finished(True, 0)
    progress.show(final=True)
    assert out.screen()[-2].rstrip().endswith("ETA 0s"), out.screen()


def test_the_compiling_message_starts_a_line_of_its_own_below_the_progress_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from automata.jit import compile_time

    out = Terminal()
    monkeypatch.setattr("sys.stderr", out)
    monkeypatch.setattr(compile_time, "_said", False)
    progress = Progress(3, out=out, clock=Clock())
    progress.unit_finished(True, 0)
    drawn = progress.line()
    compile_time.announce()
    progress.unit_finished(True, 0)
    assert out.screen()[:2] == [drawn, compile_time.MESSAGE]
    assert out.screen()[-1] == progress.line()


def test_a_benchmark_reports_its_runs_on_the_progress_line_as_they_come() -> None:
    out = io.StringIO()
    seen = list(reporting(iter([True, False, True]), 3, noun="runs", succeeded=bool, out=out))
    assert seen == [True, False, True]
    first, last = out.getvalue().splitlines()[0], out.getvalue().splitlines()[-1]
    assert first.startswith("runs 0/3 · succeeded 0 · elapsed ")
    assert last.startswith("runs 3/3 · succeeded 2 · elapsed ") and "tokens" not in last
