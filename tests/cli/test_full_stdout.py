"""A standard output that cannot take the output (``> /dev/full``): each command runs to its end
and says so in one line on stderr with exit code 2, never an ``OSError`` traceback (before: a
traceback from ``click.echo`` in learn, regex, report and experiment)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.experiments.runner_support import toml_text, write_regex_list

ROOT = Path(__file__).resolve().parents[2]
FULL = Path("/dev/full")
SAID = "Error: cannot write to standard output: No space left on device"


def _to_full(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    with FULL.open("w") as out:
        return subprocess.run(
            [sys.executable, "-m", "cli", *args],
            cwd=cwd,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            stdout=out,
            stderr=subprocess.PIPE,
            text=True,
            timeout=300,
        )


@pytest.mark.skipif(not FULL.exists(), reason="no /dev/full on this system")
def test_every_command_says_its_output_was_lost(tmp_path: Path) -> None:
    plan = {
        "name": "full",
        "concurrency": 1,
        "datasets": [
            {"kind": "paper-list", "list": "simplyrx", "path": str(write_regex_list(tmp_path))}
        ],
        "arms": [{"name": "symbolic", "learner": "symbolic"}],
    }
    (tmp_path / "plan.toml").write_text(toml_text(plan), encoding="utf-8")
    for args in (
        ("--help",),  # the group's own options end before any command (before: a traceback)
        ("--version",),
        ("regex", "ab*"),
        ("learn", "--positive", "ab", "--negative", "a"),
        ("experiment", "plan.toml", "--out", "run"),
        ("report", "run"),
    ):
        done = _to_full(*args, cwd=tmp_path)
        assert done.returncode == 2, (args, done.stderr)
        assert SAID in done.stderr and "Traceback" not in done.stderr, (args, done.stderr)
    assert (tmp_path / "run" / "report.md").exists()  # the experiment ran to its end
