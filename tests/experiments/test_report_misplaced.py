"""``report`` reads each unit's records file only when its header names that unit: a file copied
over another unit's (the runner refuses it by its fingerprint) is damage, refused with the file
named or left out with ``--skip-damaged``, never counted as the unit's run (before: counted)."""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

from cli.main import main
from tests.experiments.runner_support import toml_text, write_regex_list


def test_a_records_file_of_another_unit_is_refused_or_left_out(tmp_path: Path) -> None:
    plan = {
        "name": "copied",
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
    first, second = sorted((run / "records").rglob("*.jsonl"))
    shutil.copyfile(first, second)

    refused = CliRunner().invoke(main, ["report", str(run)])
    assert refused.exit_code == 2, refused.output
    assert f"{second}:1: the records of unit " in refused.output, refused.output

    skipped = CliRunner().invoke(main, ["report", str(run), "--skip-damaged"])
    assert skipped.exit_code == 0, skipped.output
    report = (run / "report.md").read_text(encoding="utf-8")
    assert "1 damaged record line(s) in 1 unit(s)" in report, report
