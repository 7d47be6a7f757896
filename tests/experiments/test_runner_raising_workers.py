"""A user's learner that raises (or exits) in a worker process fails its own units only: the
exception comes back through the pool whole (before, an exception needing more arguments than
``args`` held could not be unpickled, the pool broke, and every unit in flight, healthy arms
included, was left unfinished on every rerun; an exit ended the experiment silently with 0)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from cli.main import main
from experiments.bench.llm_throughput import unit_errors
from tests.experiments.runner_support import toml_text, write_regex_list


def test_a_raising_worker_fails_only_its_own_units(tmp_path: Path) -> None:
    data = {
        "name": "raising",
        "concurrency": 2,
        "datasets": [
            {"kind": "paper-list", "list": "simplyrx", "path": str(write_regex_list(tmp_path))}
        ],
        "arms": [
            {"name": "syntax", "learner": "tests.experiments.raising_learner:syntax_error"},
            {"name": "limit", "learner": "tests.experiments.raising_learner:state_limit"},
            {"name": "exits", "learner": "tests.experiments.raising_learner:exits"},
            {"name": "healthy", "learner": "symbolic"},
        ],
    }
    (tmp_path / "plan.toml").write_text(toml_text(data), encoding="utf-8")
    result = CliRunner().invoke(
        main, ["experiment", str(tmp_path / "plan.toml"), "--out", str(tmp_path / "run")]
    )
    assert "unfinished" not in result.output and "worker process died" not in result.output
    errors = [
        json.loads(line)
        for line in (tmp_path / "run" / "errors.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    assert sorted(e["unit"].split("/")[0] for e in errors) == (
        ["exits"] * 2 + ["limit"] * 2 + ["syntax"] * 2
    )
    said = {e["unit"].split("/")[0]: e["error"] for e in errors}
    assert unit_errors(tmp_path / "run") == tuple(f"{e['unit']}: {e['error']}" for e in errors)
    user = "BrokenLearner: the learner tests.experiments.raising_learner"  # cegis.user_learner
    assert (
        said["syntax"]
        == f"{user}:syntax_error: propose raised RegexSyntaxError: unbalanced '(' at 0"
    )
    assert said["limit"].startswith(
        f"{user}:state_limit: propose raised StateLimitExceeded: the learner's DFA needs more than 10"
    ), said
    assert said["exits"] == f"{user}:exits: propose raised SystemExit: 0"
    assert "units 8: 0 done before, 8 run now, 2 succeeded, 6 errors" in result.output


def test_a_learner_returning_none_or_exiting_is_logged_as_such(tmp_path: Path) -> None:
    data = {
        "name": "none",
        "concurrency": 1,  # in this process: an exit here would end the whole experiment
        "datasets": [
            {"kind": "paper-list", "list": "simplyrx", "path": str(write_regex_list(tmp_path))}
        ],
        "arms": [
            {"name": "none", "learner": "tests.experiments.raising_learner:returns_none"},
            {"name": "exits", "learner": "tests.experiments.raising_learner:exits"},
        ],
    }
    (tmp_path / "plan.toml").write_text(toml_text(data), encoding="utf-8")
    CliRunner().invoke(
        main, ["experiment", str(tmp_path / "plan.toml"), "--out", str(tmp_path / "run")]
    )
    logged = (tmp_path / "run" / "errors.jsonl").read_text(encoding="utf-8").splitlines()
    user = "BrokenLearner: the learner tests.experiments.raising_learner"  # cegis.user_learner
    assert (
        sorted(json.loads(line)["error"] for line in logged)
        == [f"{user}:exits: propose raised SystemExit: 0"] * 2
        + [f"{user}:returns_none: propose returned NoneType, not a cegis.Proposal"] * 2
    )
