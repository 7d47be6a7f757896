"""``report`` reads each unit's records file only when its header names that unit: a file copied
over another unit's (the runner refuses it by its fingerprint) is damage, refused with the file
named or left out with ``--skip-damaged``, never counted as the unit's run (before: counted)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
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


def _disguised(text: str, as_unit: str, how: str) -> str:
    """A records file's text with its header's ``unit`` named ``as_unit`` or left out."""
    header, rest = text.split("\n", 1)
    data = json.loads(header)
    if how == "renamed":
        data["unit"] = as_unit
    else:
        del data["unit"]
    return json.dumps(data) + "\n" + rest


@pytest.mark.parametrize("how", ["renamed", "unnamed"])
def test_a_copied_file_whose_header_hides_its_unit_is_refused_as_experiment_refuses_it(
    tmp_path: Path, how: str
) -> None:
    """The header's ``unit`` says this unit (or is absent) but its fingerprint is another seed's:
    ``experiment`` refused it, ``report`` counted it (before); both refuse it by one check now, and
    ``--skip-damaged`` says in the report which file it left out and why."""
    data = write_regex_list(tmp_path)
    plan = {
        "name": "copied",
        "seeds": 2,
        "concurrency": 1,
        "datasets": [{"kind": "paper-list", "list": "simplyrx", "path": str(data)}],
        "arms": [{"name": "symbolic", "learner": "symbolic"}],
    }
    (tmp_path / "plan.toml").write_text(toml_text(plan), encoding="utf-8")
    run = tmp_path / "run"
    args = ["experiment", str(tmp_path / "plan.toml"), "--out", str(run)]
    assert CliRunner().invoke(main, args).exit_code == 0
    seed0, seed1 = sorted((run / "records").rglob("*d0-0__s*.jsonl"))
    key = json.loads(seed1.read_text(encoding="utf-8").split("\n", 1)[0])["unit"]
    seed1.write_text(_disguised(seed0.read_text(encoding="utf-8"), key, how), encoding="utf-8")

    for command in (["report", str(run)], args):
        refused = CliRunner().invoke(main, command)
        assert refused.exit_code == 2, refused.output
        assert f"{seed1}:1: the records of another unit (config.seed 0, not 1)" in refused.output

    assert CliRunner().invoke(main, ["report", str(run), "--skip-damaged"]).exit_code == 0
    report = (run / "report.md").read_text(encoding="utf-8")
    listed = (
        f"- `{seed1.relative_to(run)}` line 1: the records of another unit (config.seed 0, not 1)"
    )
    assert listed in report, report
