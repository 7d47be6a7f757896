"""A hypothesis that is wrong only on strings longer than ``max_len``: the improved teacher shows the
shortest of them, so no epoch is recorded "not equivalent" with nothing to learn from; under the
``cegml`` profile (which, as the reference code, shows nothing) the run ends and says why."""

from __future__ import annotations

import asyncio
import json

import pytest
from click.testing import CliRunner

from cegis.config import Budgets, LoopConfig
from cegis.loop import run
from cegis.state import EpochState, Task
from cegis.symbolic.merging import symbolic
from cli.learn import learn
from oracle import ExactTeacher, TeacherConfig
from regexlang import parse
from tests.cegis.support import FixedLearner

TARGET = "((xy)+)|(Q7r)"
#: The target unrolled 16 times: it labels every string up to length 32 as the target does.
UNROLLED = "Q7r|" + "xy(" * 15 + "xy" + ")?" * 15


def learned(config: LoopConfig, learner: object, target: str = TARGET) -> EpochState:
    task = Task("extended", target)
    teacher = ExactTeacher.from_regex(target, "extended", config=config.teacher_config)
    return asyncio.run(run(task, learner, teacher, config))  # type: ignore[arg-type]


def paper(seed: int = 0, profile: str = "improved", epochs: int = 12) -> LoopConfig:
    teacher = TeacherConfig(batch=250, mode="paths", clustered=True, profile=profile)  # type: ignore[arg-type]
    return LoopConfig(teacher, Budgets(epochs=epochs), evaluate=False, seed=seed)


def test_a_learner_stuck_on_the_unrolled_chain_is_shown_a_longer_witness_every_epoch() -> None:
    state = learned(paper(epochs=4), FixedLearner(parse(UNROLLED, "extended"), UNROLLED))
    assert state.outcome == "epochs"
    for record in state.records:
        assert record.verdict is not None and not record.verdict.equivalent
        assert record.verdict.counterexamples and record.source == "counterexamples"
        assert record.verdict.has("beyond_max_len")
    shown = [example.representative() for r in state.records for example in r.added]
    assert shown == ["xy" * k for k in (17, 18, 19, 20)]


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("target", [TARGET, "(kQ3)|((pz){1,})"])
def test_the_symbolic_learner_learns_the_loop_and_no_epoch_is_dead(target: str, seed: int) -> None:
    state = learned(paper(seed), symbolic(), target)
    assert state.outcome == "equivalent", state.hypothesis
    assert all(
        r.verdict is None or r.verdict.equivalent or r.verdict.counterexamples
        for r in state.records
    )


def test_under_cegml_the_run_ends_beyond_max_len() -> None:
    state = learned(paper(profile="cegml"), FixedLearner(parse(UNROLLED, "extended"), UNROLLED))
    assert state.outcome == "beyond_max_len" and state.epoch == 1
    verdict = state.records[-1].verdict
    assert verdict is not None and not verdict.counterexamples and verdict.has("beyond_max_len")


def test_the_cli_learns_a_target_longer_than_max_len_and_says_why_cegml_cannot() -> None:
    improved = CliRunner().invoke(learn, ["--target", "a{33}", "--json"])
    assert improved.exit_code == 0 and json.loads(improved.stdout)["regex"] == "a{33}"
    cegml = CliRunner().invoke(learn, ["--target", "a{33}", "--profile", "cegml", "--json"])
    report = json.loads(cegml.stdout)
    assert (
        cegml.exit_code == 1
        and report["outcome"] == "beyond_max_len"
        and "beyond length 32" in report["reason"]
    )
    text = CliRunner().invoke(learn, ["--target", "a{33}", "--profile", "cegml"]).output
    assert "not learned (beyond_max_len: the languages differ only beyond length 32" in text
