"""Experiment files: bad ones fail before anything runs, naming the field; arms map to loop and
LLM settings as documented."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cegis.llm.settings import SETTINGS
from experiments.plan import PlanError, arm_setting, load_plan, loop_config, plan_from_data

GOOD: dict[str, Any] = {
    "name": "t",
    "seeds": [0, 1],
    "datasets": [{"kind": "generated", "per_cell": 1}],
    "arms": [{"learner": "symbolic"}, {"learner": "llm", "setting": "single"}],
}


def _with(where: str, **fields: Any) -> dict[str, Any]:
    data = {key: [dict(t) for t in value] if isinstance(value, list) and key != "seeds" else value for key, value in GOOD.items()}
    if where == "top":
        data.update(fields)
    else:
        data[where][0].update(fields)
    return data


@pytest.mark.parametrize(
    ("where", "fields", "named"),
    [
        ("top", {"seeds": []}, "seeds"),
        ("top", {"seeds": ["x"]}, "seeds"),
        ("top", {"teacher_profile": "best"}, "teacher_profile"),
        ("top", {"concurrency": 0}, "concurrency"),
        ("top", {"token_budget": -5}, "token_budget"),
        ("top", {"colour": "red"}, "colour"),
        ("top", {"datasets": []}, "[[datasets]]"),
        ("top", {"servers": [{"concurrency": 2}]}, "base_url"),
        ("top", {"servers": [{"base_url": "http://x/v1", "concurrency": 0}]}, "concurrency"),
        ("datasets", {"kind": "mystery"}, "kind"),
        ("datasets", {"kind": "paper-list"}, "list"),
        ("datasets", {"per_cell": 0}, "per_cell"),
        ("datasets", {"limit": "all"}, "limit"),
        ("datasets", {"star_depths": [1, -1]}, "star_depths"),
        ("datasets", {"sise": 3}, "sise"),
        ("arms", {"learner": "oracle"}, "learner"),
        ("arms", {"setting": "single"}, "setting"),
        ("arms", {"protocol": "fast"}, "protocol"),
        ("arms", {"profile": "best"}, "profile"),
        ("arms", {"epochs": 0}, "epochs"),
        ("arms", {"mode": "telepathy"}, "mode"),
        ("arms", {"model": "gpt"}, "model"),
    ],
)
def test_a_bad_field_is_a_plan_error_naming_it(where: str, fields: dict[str, Any], named: str) -> None:
    with pytest.raises(PlanError, match=named.replace("[", r"\[").replace("]", r"\]")):
        plan_from_data(_with(where, **fields))


def test_an_llm_arm_needs_a_known_setting_and_a_known_reasoning_effort() -> None:
    llm = {"learner": "llm"}
    with pytest.raises(PlanError, match="setting"):
        plan_from_data({**GOOD, "arms": [llm]})
    with pytest.raises(PlanError, match="reasoning_effort"):
        plan_from_data({**GOOD, "arms": [{**llm, "setting": "single", "reasoning_effort": "enormous"}]})


def test_two_arms_with_one_name_are_refused() -> None:
    with pytest.raises(PlanError, match="share a name"):
        plan_from_data({**GOOD, "arms": [{"learner": "symbolic"}, {"learner": "symbolic"}]})


def test_load_plan_names_the_file_and_rejects_bad_toml(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text('name = "x"\n[[arms]\n', encoding="utf-8")
    with pytest.raises(PlanError, match="broken.toml is not valid TOML"):
        load_plan(path)
    path.write_text('[[datasets]]\nkind = "generated"\n[[arms]]\nlearner = "nobody"\n', encoding="utf-8")
    with pytest.raises(PlanError, match=r"broken.toml: \[\[arms\]\] #1: learner 'nobody'"):
        load_plan(path)
    with pytest.raises(PlanError, match="cannot read"):
        load_plan(tmp_path / "absent.toml")


def test_arms_become_loop_configs_and_settings() -> None:
    plan = plan_from_data(
        {
            **GOOD,
            "teacher_profile": "cegml",
            "arms": [
                {"name": "plain", "learner": "symbolic", "clustered": False, "batch": 7, "epochs": 3},
                {"name": "short", "learner": "lstar", "protocol": "one-shortest"},
                {"name": "gpt", "learner": "llm", "setting": "agentic", "model": "m", "reasoning_effort": "high"},
            ],
        }
    )
    plain, short, gpt = plan.arms
    config = loop_config(plan, plain, seed=4)
    assert (config.teacher.clustered, config.teacher.batch, config.budgets.epochs, config.seed) == (False, 7, 3, 4)
    assert config.teacher.profile == "cegml"
    shortest = loop_config(plan, short, 0)
    assert (shortest.teacher.mode, shortest.teacher.batch, shortest.budgets.epochs) == ("shortest", 1, 100)
    assert arm_setting(plain) is None
    setting = arm_setting(gpt)
    assert setting is not None and setting.sampling.reasoning_effort == "high"
    assert setting != SETTINGS["agentic"] and setting.reflection and setting.repair_budget == 3
    assert plan.needs_model and plan.seeds == (0, 1)


def test_a_seed_count_means_seeds_from_zero() -> None:
    assert plan_from_data({**GOOD, "seeds": 3}).seeds == (0, 1, 2)
