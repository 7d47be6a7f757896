"""The benchmarks that run for minutes show the runner's progress line while they run (on stderr,
beside the table they print at the end), instead of nothing until the table."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from experiments.bench import examples, learners

ROOT = Path(__file__).resolve().parents[2]


def _stderr(command: Any, args: list[str]) -> str:
    result = CliRunner().invoke(command, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.stderr


def test_bench_examples_counts_its_problems_as_they_are_solved(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    practical = examples.practical_problems
    monkeypatch.setattr(
        examples, "practical_problems", lambda size, seed=0: practical(size, seed)[:3]
    )  # workers fork
    said = _stderr(
        examples.main,
        ["--sizes", "20", "--limit", "0", "--no-tasks", "--targets", "practical", "--workers", "1"],
    )
    assert "problems 0/3 · succeeded 0 · elapsed" in said
    assert "problems 3/3 · succeeded " in said.splitlines()[-1]


def test_bench_learners_counts_its_runs_as_they_end(
    monkeypatch: pytest.MonkeyPatch, shared_data: Path
) -> None:
    """Its Simple Regex tasks are the paper's list: skipped without the shared data."""
    every = learners.jobs
    monkeypatch.setattr(learners, "jobs", lambda *args: every(*args)[:2])
    said = _stderr(
        learners.main,
        [
            "--datasets",
            "simple",
            "--seeds",
            "1",
            "--protocols",
            "paper",
            "--quick",
            "--workers",
            "1",
        ],
    )
    assert "runs 0/2 · succeeded 0 · elapsed" in said
    assert "runs 2/2 · succeeded " in said.splitlines()[-1]


def test_the_data_test_above_skips_with_an_empty_data_folder(tmp_path: Path) -> None:
    """``REGEX_CEGIS_DATA`` naming a folder without the datasets (or a fresh clone without
    ``../shared/data``): the test skips with the missing file as its reason (before:
    ``DatasetNotFound``, so the README's ``pytest`` failed)."""
    test = f"{Path(__file__).relative_to(ROOT)}::test_bench_learners_counts_its_runs_as_they_end"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", test],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), "REGEX_CEGIS_DATA": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0 and "1 skipped" in done.stdout, done.stdout
    assert f"shared data file not found: {tmp_path / 'cegml' / 'regex_list.json'}" in done.stdout
