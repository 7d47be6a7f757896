"""A worker process that dies does not turn the units still pending into errors of a finished run:
they stay unfinished and resumable, listed, and ``experiment`` exits 2 (before, each was logged as a
BrokenProcessPool error and the run exited 0)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from cli.main import main
from tests.experiments.runner_support import toml_text, write_regex_list


def test_a_dying_worker_leaves_the_units_unfinished_and_exits_2(tmp_path: Path) -> None:
    data = {
        "name": "dying",
        "concurrency": 2,
        "datasets": [
            {"kind": "paper-list", "list": "simplyrx", "path": str(write_regex_list(tmp_path))}
        ],
        "arms": [{"name": "dying", "learner": "tests.experiments.dying_learner:dying"}],
    }
    (tmp_path / "plan.toml").write_text(toml_text(data), encoding="utf-8")
    result = CliRunner().invoke(
        main, ["experiment", str(tmp_path / "plan.toml"), "--out", str(tmp_path / "run")]
    )
    assert result.exit_code == 2 and "a worker process died" in result.output, result.output
    assert result.output.count("unfinished: dying/simplyrx/") == 2, result.output
    assert not (
        tmp_path / "run" / "errors.jsonl"
    ).exists()  # not the units' errors: they never ran to an end
