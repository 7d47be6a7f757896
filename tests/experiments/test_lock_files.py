"""A finished run leaves no lock file behind (before: ``runs/<name>/runner.lock`` and
``FILE.lock`` of ``learn --records FILE`` stayed, and looked stale), and a lock still holds
while its holder runs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from experiments.errors import RunDirectoryBusy
from experiments.lock import LOCK, run_directory_lock
from tests.experiments.runner_support import toml_text, write_regex_list


def test_a_finished_experiment_leaves_no_runner_lock(tmp_path: Path) -> None:
    plan = {
        "name": "locks",
        "concurrency": 1,
        "datasets": [
            {"kind": "paper-list", "list": "simplyrx", "path": str(write_regex_list(tmp_path))}
        ],
        "arms": [{"name": "symbolic", "learner": "symbolic"}],
    }
    (tmp_path / "plan.toml").write_text(toml_text(plan), encoding="utf-8")
    run = tmp_path / "run"
    ran = CliRunner().invoke(main, ["experiment", str(tmp_path / "plan.toml"), "--out", str(run)])
    assert ran.exit_code == 0, ran.output
    assert (run / "report.md").exists() and not (run / LOCK).exists()


def test_a_finished_learn_leaves_no_records_lock(tmp_path: Path) -> None:
    records = tmp_path / "run.jsonl"
    done = CliRunner().invoke(main, ["learn", "--target", "ab*", "--records", str(records)])
    assert done.exit_code == 0, done.output
    assert records.exists() and not records.with_name("run.jsonl.lock").exists()


def test_the_lock_holds_until_its_holder_ends(tmp_path: Path) -> None:
    with run_directory_lock(tmp_path):
        assert (tmp_path / LOCK).exists()
        with pytest.raises(RunDirectoryBusy), run_directory_lock(tmp_path):
            pass
    assert not (tmp_path / LOCK).exists()
    with run_directory_lock(tmp_path):  # and it can be taken again
        pass


def test_a_second_process_is_refused_until_the_first_ends_and_removes_the_file(
    tmp_path: Path,
) -> None:
    """Two runners in two processes (the OS lock, not this process's bookkeeping): the second is
    refused with the first's pid while it holds the lock; once the first has ended, removing its
    file, the lock is free to take again, and a new file is made for it."""
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(tmp_path)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        with (
            pytest.raises(RunDirectoryBusy, match=f"pid {holder.pid}"),
            run_directory_lock(tmp_path),
        ):
            pass
    finally:
        holder.communicate("", timeout=60)  # its stdin closes: it ends
    assert holder.returncode == 0 and not (tmp_path / LOCK).exists()
    with run_directory_lock(tmp_path):
        assert (tmp_path / LOCK).exists()


ROOT = Path(__file__).resolve().parents[2]
#: A runner that holds the lock of the directory argv[1] until its standard input closes.
HOLD = """
import sys
from pathlib import Path
from experiments.lock import run_directory_lock
with run_directory_lock(Path(sys.argv[1])):
    print("held", flush=True)
    sys.stdin.read()
"""
