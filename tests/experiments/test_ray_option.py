"""``--ray`` without the ray extra: one line saying what to install, before any unit runs, in the
default test run (Ray itself is hidden here, installed or not)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from tests.experiments.runner_support import plan_data, toml_text


def test_the_ray_option_without_ray_says_what_to_install_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # an import of ray raises ImportError
    data = plan_data(tmp_path, ())
    data["arms"] = [a for a in data["arms"] if a["learner"] != "llm"]
    (tmp_path / "plan.toml").write_text(toml_text(data), encoding="utf-8")
    result = CliRunner().invoke(
        main,
        [
            "experiment",
            str(tmp_path / "plan.toml"),
            "--out",
            str(tmp_path / "run"),
            "--ray",
            "auto",
        ],
    )
    assert result.exit_code == 2, result.output
    assert result.output.splitlines()[-1] == (
        "Error: --ray needs Ray, which is not installed: pip install -e '.[ray]'"
    )
    assert not list((tmp_path / "run" / "records").rglob("*.jsonl"))  # no unit ran
