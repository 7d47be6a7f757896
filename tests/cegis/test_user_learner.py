"""A user's learner named ``module:factory`` is held to the protocol wherever it runs, not only in
``learn``: an experiment's unit with a learner whose text is not its regex (or whose automaton is
another language, or that exits) ends in one ``BrokenLearner`` line in ``errors.jsonl`` and records
nothing it did not propose (before: the records said ``"hypothesis": "zzz"`` and ``12345`` for the
regex ``a*b``, and scored them as ``a*b``)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cegis.config import Budgets, LoopConfig
from cegis.errors import BrokenLearner
from cegis.loop import run
from cegis.registry import REGISTRY, build
from cegis.setup import exact_setting
from cegis.user_learner import Checked
from cli.main import main
from tests.experiments.runner_support import toml_text, write_regex_list

MODULE = "tests.cli.plugin_learners"


@pytest.mark.parametrize(
    ("factory", "says"),
    [
        ("wrong_text", "propose returned the text 'zzz', which is not its regex 'a*b'"),
        ("number_text", "propose returned a text of type int, not str"),
        ("other_automaton", "an automaton that is not the language of its regex 'a*b'"),
        ("exits", "propose raised SystemExit: 0"),
        ("custom_base", "propose raised Custom: not an Exception"),
    ],
)
def test_the_loop_refuses_what_a_user_learner_breaks(factory: str, says: str) -> None:
    config = LoopConfig(budgets=Budgets(epochs=2))
    task, teacher = exact_setting("a*b", "python", config)
    with pytest.raises(BrokenLearner, match=f"^the learner {MODULE}:{factory}: ") as raised:
        asyncio.run(run(task, build(f"{MODULE}:{factory}"), teacher, config))
    assert says in str(raised.value)


@pytest.mark.parametrize("factory", ["factory_exits", "factory_custom"])
def test_a_plan_whose_factory_exits_is_refused_in_one_line(tmp_path: Path, factory: str) -> None:
    """Before: ``experiment`` ended with exit code 0 and no output (SystemExit(0) at plan load), or
    a traceback (a BaseException of the factory's own)."""
    plan = {
        "name": "plugins",
        "datasets": [
            {"kind": "paper-list", "list": "simplyrx", "path": str(write_regex_list(tmp_path))}
        ],
        "arms": [{"name": "x", "learner": f"{MODULE}:{factory}"}],
    }
    (tmp_path / "plan.toml").write_text(toml_text(plan), encoding="utf-8")
    done = CliRunner().invoke(main, ["experiment", str(tmp_path / "plan.toml")])
    assert done.exit_code == 2, done.output
    assert f"[[arms]] #1: the learner {MODULE}:{factory}: its factory raised" in done.output


def test_a_user_learner_is_wrapped_and_a_registered_one_is_not() -> None:
    assert isinstance(build(f"{MODULE}:no_text"), Checked)
    assert not any(isinstance(spec.build(), Checked) for spec in REGISTRY.values())


def test_an_experiment_records_no_text_its_learner_did_not_mean(tmp_path: Path) -> None:
    arms = ("wrong_text", "number_text", "other_automaton", "no_text")
    plan = {
        "name": "plugins",
        "concurrency": 1,
        "datasets": [
            {"kind": "paper-list", "list": "simplyrx", "path": str(write_regex_list(tmp_path))}
        ],
        "arms": [{"name": arm, "learner": f"{MODULE}:{arm}"} for arm in arms],
    }
    (tmp_path / "plan.toml").write_text(toml_text(plan), encoding="utf-8")
    run_dir = tmp_path / "run"
    done = CliRunner().invoke(
        main, ["experiment", str(tmp_path / "plan.toml"), "--out", str(run_dir)]
    )
    assert done.exit_code == 0, done.output
    errors = [json.loads(line) for line in (run_dir / "errors.jsonl").read_text().splitlines()]
    assert sorted(e["unit"].partition("/")[0] for e in errors) == sorted(arms[:3] * 2)
    assert all(e["error"].startswith(f"BrokenLearner: the learner {MODULE}:") for e in errors)
    hypotheses = {
        json.loads(line).get("hypothesis")
        for path in (run_dir / "records").rglob("*.jsonl")
        for line in path.read_text().splitlines()
    }
    assert hypotheses - {None} == {"a* b"}  # no_text's regex, printed by the check (Simple)
