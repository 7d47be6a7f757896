"""A strategy file (a plan's ``strategy_file``, ``learn --strategy-file``) or a plan that names a
FIFO, a device or a directory is refused in one line before a byte is read: before, reading a
strategy FIFO waited forever for a writer, at plan load and in ``learn`` alike."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cli.main import main
from experiments.plan import PlanError, load_plan, plan_from_data
from experiments.regular_file import FileTooLarge, NotRegularFile, read_regular
from experiments.strategy_file import StrategyFileError, read_strategy
from tests.experiments.fifo_support import without_waiting

ARM = {"learner": "llm", "setting": "single"}
PLAN = {"name": "t", "datasets": [{"kind": "generated", "per_cell": 1}]}


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "strategy.txt"
    os.mkfifo(path)
    return path


def test_a_strategy_fifo_is_refusedwithout_waiting(fifo: Path) -> None:
    error = without_waiting(fifo, lambda: read_strategy(fifo))
    assert isinstance(error, StrategyFileError) and "not a regular file" in str(error)


def test_a_plan_naming_a_strategy_fifo_is_refused_at_load(fifo: Path) -> None:
    data = {**PLAN, "arms": [{**ARM, "strategy_file": str(fifo)}]}
    error = without_waiting(fifo, lambda: plan_from_data(data))
    assert isinstance(error, PlanError)
    assert str(error) == f"[[arms]] #1: cannot read strategy file {fifo}: not a regular file" + (
        " (a FIFO, device or socket)"
    )


def _refused(fifo: Path, args: list[str]) -> list[str]:
    """The output lines of the command ``args`` (which names ``fifo``), run without waiting on
    the FIFO and ending with exit code 2."""
    results: list[Result] = []
    assert without_waiting(fifo, lambda: results.append(CliRunner().invoke(main, args))) is None
    result = results[0]
    assert result.exit_code == 2, result.output
    return result.output.strip().splitlines()


def test_learn_refuses_a_strategy_fifo_in_one_line(fifo: Path) -> None:
    args = ["learn", "--learner", "llm", "--base-url", "http://127.0.0.1:9/v1"]
    args += ["--strategy-file", str(fifo), "--positive", "a", "--negative", "b"]
    assert _refused(fifo, args) == [
        f"Error: --strategy-file: cannot read strategy file {fifo}: not a regular file"
        " (a FIFO, device or socket)"
    ]


def test_optimize_refuses_a_targets_fifo_in_one_line(fifo: Path, tmp_path: Path) -> None:
    args = ["optimize", "--targets", str(fifo), "--out", str(tmp_path / "strategy.txt")]
    assert _refused(fifo, args) == [
        f"Error: --targets: cannot read {fifo}: not a regular file (a FIFO, device or socket)"
    ]


def test_a_plan_file_that_is_a_fifo_is_refused_without_waiting(fifo: Path) -> None:
    error = without_waiting(fifo, lambda: load_plan(fifo))
    assert isinstance(error, PlanError) and "not a regular file" in str(error)


def test_read_regular_reads_a_file_whole_and_refuses_the_rest(tmp_path: Path) -> None:
    text = tmp_path / "a.txt"
    text.write_bytes(b"x" * 10)
    assert read_regular(text, 10) == b"x" * 10
    with pytest.raises(FileTooLarge, match="larger than 9 bytes"):
        read_regular(text, 9)
    with pytest.raises(NotRegularFile):
        read_regular("/dev/zero", 10)
    with pytest.raises(IsADirectoryError):
        read_regular(tmp_path, 10)
    with pytest.raises(FileNotFoundError):
        read_regular(tmp_path / "missing", 10)
