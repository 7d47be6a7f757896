"""A strategy file (a plan's ``strategy_file``, ``learn --strategy-file``) or a plan that names a
FIFO, a device or a directory is refused in one line before a byte is read: before, reading a
strategy FIFO waited forever for a writer, at plan load and in ``learn`` alike."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cli.main import main
from experiments.plan import PlanError, load_plan, plan_from_data
from experiments.regular_file import FileTooLarge, NotRegularFile, read_regular
from experiments.strategy_file import StrategyFileError, read_strategy

ARM = {"learner": "llm", "setting": "single"}
PLAN = {"name": "t", "datasets": [{"kind": "generated", "per_cell": 1}]}


def _without_waiting(fifo: Path, read: Callable[[], object]) -> BaseException | None:
    """What ``read`` raised (None if nothing); fails the test if it waited for a writer."""
    raised: list[BaseException] = []

    def run() -> None:
        try:
            read()
        except Exception as error:  # the test looks at what it was
            raised.append(error)

    reader = threading.Thread(target=run, daemon=True)
    reader.start()
    reader.join(timeout=30)  # a guard against hanging the suite, not a timing assertion
    waited = reader.is_alive()
    if waited:  # a writer end releases the open it blocks in, so the thread ends
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        reader.join()
    assert not waited, "opening the FIFO waited for a writer"
    return raised[0] if raised else None


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "strategy.txt"
    os.mkfifo(path)
    return path


def test_a_strategy_fifo_is_refused_without_waiting(fifo: Path) -> None:
    error = _without_waiting(fifo, lambda: read_strategy(fifo))
    assert isinstance(error, StrategyFileError) and "not a regular file" in str(error)


def test_a_plan_naming_a_strategy_fifo_is_refused_at_load(fifo: Path) -> None:
    data = {**PLAN, "arms": [{**ARM, "strategy_file": str(fifo)}]}
    error = _without_waiting(fifo, lambda: plan_from_data(data))
    assert isinstance(error, PlanError)
    assert str(error) == f"[[arms]] #1: cannot read strategy file {fifo}: not a regular file" + (
        " (a FIFO, device or socket)"
    )


def test_learn_refuses_a_strategy_fifo_in_one_line(fifo: Path) -> None:
    args = ["learn", "--learner", "llm", "--base-url", "http://127.0.0.1:9/v1"]
    args += ["--strategy-file", str(fifo), "--positive", "a", "--negative", "b"]
    results: list[Result] = []
    assert _without_waiting(fifo, lambda: results.append(CliRunner().invoke(main, args))) is None
    result = results[0]
    assert result.exit_code == 2, result.output
    assert result.output.strip().splitlines() == [
        f"Error: --strategy-file: cannot read strategy file {fifo}: not a regular file"
        " (a FIFO, device or socket)"
    ]


def test_a_plan_file_that_is_a_fifo_is_refused_without_waiting(fifo: Path) -> None:
    error = _without_waiting(fifo, lambda: load_plan(fifo))
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
