"""A symbolic worker process that dies fails only the unit that killed it: the units in flight
beside it finish, the dying one is logged with the reason and stays resumable (before, the whole
pool broke and every unit in flight, healthy arms included, was left unfinished on every rerun).
A user's exception that does not unpickle fails its own units only, for the same reason."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from experiments.unit_file import read_unit_file
from tests.experiments.dying_learner import DEATHS
from tests.experiments.runner_support import toml_text, write_regex_list


def _run(tmp_path: Path, arms: list[dict[str, str]]) -> str:
    data = {
        "name": "workers",
        "concurrency": 2,
        "datasets": [
            {"kind": "paper-list", "list": "simplyrx", "path": str(write_regex_list(tmp_path))}
        ],
        "arms": arms,
    }
    (tmp_path / "plan.toml").write_text(toml_text(data), encoding="utf-8")
    result = CliRunner().invoke(
        main, ["experiment", str(tmp_path / "plan.toml"), "--out", str(tmp_path / "run")]
    )
    return result.output


def _errors(tmp_path: Path) -> dict[str, str]:
    lines = (tmp_path / "run" / "errors.jsonl").read_text(encoding="utf-8").splitlines()
    return {json.loads(line)["unit"]: json.loads(line)["error"] for line in lines}


def test_a_dying_worker_fails_only_its_own_units(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each healthy unit runs beside a dying one and is still proposing when the pool breaks.
    monkeypatch.setenv(DEATHS, str(tmp_path))
    arms = [
        {"name": "healthy", "learner": "tests.experiments.dying_learner:witness"},
        {"name": "dying", "learner": "tests.experiments.dying_learner:dying"},
    ]
    output = _run(tmp_path, arms)
    assert "unfinished" not in output and "a worker process died" not in output, output
    assert "units 4: 0 done before, 4 run now, 2 succeeded, 2 errors" in output, output
    errors = _errors(tmp_path)
    assert sorted(key.split("/")[0] for key in errors) == ["dying", "dying"]
    assert all(
        e.startswith("UnitDied: its worker process died while it ran alone")
        for e in errors.values()
    )
    finished = {
        p.parent.parent.name: read_unit_file(p).run is not None
        for p in (tmp_path / "run" / "records").rglob("*.jsonl")
    }
    assert finished == {"dying": False, "healthy": True}, finished
    # resumable: the same command runs the dying units again (and only them)
    again = _run(tmp_path, arms)
    assert "units 4: 2 done before, 2 run now, 2 succeeded, 2 errors" in again, again


def test_an_exception_that_does_not_unpickle_fails_only_its_own_units(tmp_path: Path) -> None:
    output = _run(
        tmp_path,
        [
            {"name": "unpickling", "learner": "tests.experiments.raising_learner:unpickling"},
            {"name": "healthy", "learner": "symbolic"},
        ],
    )
    assert "unfinished" not in output and "a worker process died" not in output, output
    assert "units 4: 0 done before, 4 run now, 2 succeeded, 2 errors" in output, output
    errors = _errors(tmp_path)
    assert sorted(key.split("/")[0] for key in errors) == ["unpickling", "unpickling"]
    # the learner's own error, named with the learner that raised it (cegis.user_learner)
    learner = "tests.experiments.raising_learner:unpickling"
    assert set(errors.values()) == {
        f"BrokenLearner: the learner {learner}: propose raised TwoPartError: propose failed:"
        " a user bug"
    }, errors
    report = (tmp_path / "run" / "report.md").read_text(encoding="utf-8")
    assert "/simplyrx-s2-d0-0__s0`: BrokenLearner: the learner " in report
    assert "propose raised TwoPartError: propose failed: a user bug\n" in report
