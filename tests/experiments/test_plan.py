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
    data = {
        key: [dict(t) for t in value] if isinstance(value, list) and key != "seeds" else value
        for key, value in GOOD.items()
    }
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
def test_a_bad_field_is_a_plan_error_naming_it(
    where: str, fields: dict[str, Any], named: str
) -> None:
    with pytest.raises(PlanError, match=named.replace("[", r"\[").replace("]", r"\]")):
        plan_from_data(_with(where, **fields))


def test_an_llm_arm_needs_a_known_setting_and_a_known_reasoning_effort() -> None:
    llm = {"learner": "llm"}
    with pytest.raises(PlanError, match="setting"):
        plan_from_data({**GOOD, "arms": [llm]})
    with pytest.raises(PlanError, match="reasoning_effort"):
        plan_from_data(
            {**GOOD, "arms": [{**llm, "setting": "single", "reasoning_effort": "enormous"}]}
        )


def test_two_arms_with_one_name_are_refused() -> None:
    with pytest.raises(PlanError, match="share a name"):
        plan_from_data({**GOOD, "arms": [{"learner": "symbolic"}, {"learner": "symbolic"}]})


def test_load_plan_names_the_file_and_rejects_bad_toml(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text('name = "x"\n[[arms]\n', encoding="utf-8")
    with pytest.raises(PlanError, match="broken.toml is not valid TOML"):
        load_plan(path)
    path.write_text(
        '[[datasets]]\nkind = "generated"\n[[arms]]\nlearner = "nobody"\n', encoding="utf-8"
    )
    with pytest.raises(PlanError, match=r"broken.toml: \[\[arms\]\] #1: unknown learner 'nobody'"):
        load_plan(path)
    with pytest.raises(PlanError, match="cannot read"):
        load_plan(tmp_path / "absent.toml")


def test_arms_become_loop_configs_and_settings() -> None:
    plan = plan_from_data(
        {
            **GOOD,
            "teacher_profile": "cegml",
            "arms": [
                {
                    "name": "plain",
                    "learner": "symbolic",
                    "clustered": False,
                    "batch": 7,
                    "epochs": 3,
                },
                {"name": "short", "learner": "lstar", "protocol": "one-shortest"},
                {
                    "name": "gpt",
                    "learner": "llm",
                    "setting": "agentic",
                    "model": "m",
                    "reasoning_effort": "high",
                },
            ],
        }
    )
    plain, short, gpt = plan.arms
    config = loop_config(plan, plain, seed=4)
    assert (config.teacher.clustered, config.teacher.batch, config.budgets.epochs, config.seed) == (
        False,
        7,
        3,
        4,
    )
    assert config.teacher.profile == "cegml"
    shortest = loop_config(plan, short, 0)
    assert (shortest.teacher.mode, shortest.teacher.batch, shortest.budgets.epochs) == (
        "shortest",
        1,
        100,
    )
    assert arm_setting(plain) is None
    setting = arm_setting(gpt)
    assert setting is not None and setting.sampling.reasoning_effort == "high"
    assert setting != SETTINGS["agentic"] and setting.reflection and setting.repair_budget == 3
    assert plan.needs_model and plan.seeds == (0, 1)


def test_a_seed_count_means_seeds_from_zero() -> None:
    assert plan_from_data({**GOOD, "seeds": 3}).seeds == (0, 1, 2)


def test_an_arm_names_a_users_learner_by_module_and_factory() -> None:
    plan = plan_from_data({**GOOD, "arms": [{"learner": "cegis.symbolic.union:UnionLearner"}]})
    assert (
        plan.arms[0].learner == "cegis.symbolic.union:UnionLearner"
        and plan.arms[0].name == "UnionLearner"
    )
    with pytest.raises(PlanError, match="cannot load learner 'cegis.symbolic.union:Nothing'"):
        plan_from_data({**GOOD, "arms": [{"learner": "cegis.symbolic.union:Nothing"}]})


@pytest.mark.parametrize(
    ("where", "fields", "named"),
    [
        ("top", {"name": "/abs"}, "name"),
        ("top", {"name": "../x"}, "name"),
        ("top", {"name": "."}, "name"),
        ("top", {"name": ""}, "name"),
        ("top", {"name": "a\0b"}, "name"),
        ("top", {"name": 5}, "name"),
        ("arms", {"name": "x/."}, "name"),
        ("arms", {"name": "a/b"}, "name"),
        ("arms", {"name": ".."}, "name"),
        ("datasets", {"name": "d/../../e"}, "name"),
    ],
)
def test_names_that_are_not_one_safe_path_component_are_refused(
    where: str, fields: dict[str, Any], named: str
) -> None:
    with pytest.raises(PlanError, match=f"{named} must be 1 to 100 letters"):
        plan_from_data(_with(where, **fields))


def test_names_equal_after_normalisation_are_refused() -> None:
    with pytest.raises(PlanError, match="share a name"):
        plan_from_data(
            {
                **GOOD,
                "arms": [
                    {"name": "Fast", "learner": "symbolic"},
                    {"name": "fast", "learner": "lstar"},
                ],
            }
        )


@pytest.mark.parametrize(
    ("where", "fields", "named"),
    [
        ("top", {"seeds": "abc"}, "seeds"),
        ("top", {"seeds": 1000000000}, "seeds"),
        ("top", {"seeds": [0, 0]}, "seeds lists a seed twice"),
        ("top", {"seeds": [-1]}, "seeds"),
        ("top", {"seeds": [True]}, "seeds"),
        ("top", {"description": 3}, "description"),
        ("top", {"concurrency": 100000}, "concurrency"),
        ("datasets", {"seed": "abc"}, "seed"),
        ("datasets", {"path": 5}, "path"),
        ("datasets", {"optional": "no"}, "optional"),
        ("datasets", {"per_cell": 10**9}, "per_cell"),
        ("datasets", {"star_depths": [1, 1]}, "star_depths"),
        ("datasets", {"kind": "generated", "list": "simplyrx"}, "list applies"),
        ("arms", {"clustered": "no"}, "clustered"),
        ("arms", {"batch": 10**12}, "batch"),
        ("arms", {"mode": 3}, "mode"),
        ("top", {"servers": [{"base_url": "ftp://x"}]}, "base_url"),
        ("top", {"servers": [{"base_url": 5}]}, "base_url"),
        ("top", {"servers": [{"base_url": "http://x/v1", "read_timeout": 0}]}, "read_timeout"),
        ("top", {"servers": [{"base_url": "http://x/v1", "call_timeout": "1h"}]}, "call_timeout"),
        ("top", {"servers": [{"base_url": "http://x/v1", "model": 7}]}, "model"),
    ],
)
def test_every_value_is_type_and_range_checked(
    where: str, fields: dict[str, Any], named: str
) -> None:
    with pytest.raises(PlanError, match=named):
        plan_from_data(_with(where, **fields))


def test_server_timeouts_come_from_the_plan_with_bounded_defaults() -> None:
    plan = plan_from_data(
        {
            **GOOD,
            "servers": [
                {"base_url": "http://x/v1/", "read_timeout": 30},
                {"base_url": "http://y/v1"},
            ],
        }
    )
    tuned, default = plan.servers
    assert tuned.base_url == "http://x/v1" and tuned.read_timeout == 30.0
    assert (default.connect_timeout, default.read_timeout, default.call_timeout) == (
        10.0,
        600.0,
        1200.0,
    )


def test_an_experiment_file_that_is_not_a_regular_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(PlanError, match="not a regular file"):
        load_plan(Path("/dev/zero"))


def test_an_arm_runs_on_the_datasets_it_names_only() -> None:
    from experiments.units import units

    generated: dict[str, Any] = {"kind": "generated", "name": "simple", "per_cell": 1}
    other = {**generated, "name": "other", "seed": 1}
    arms: list[dict[str, Any]] = [
        {"learner": "symbolic"},
        {"name": "only-other", "learner": "lstar", "datasets": ["other"]},
    ]
    plan = plan_from_data({**GOOD, "datasets": [generated, other], "arms": arms})
    ran = {(unit.arm.name, unit.dataset) for unit in units(plan)}
    assert ran == {("symbolic", "simple"), ("symbolic", "other"), ("only-other", "other")}
    for bad in (["nowhere"], [], "other"):
        with pytest.raises(PlanError, match="datasets"):
            plan_from_data(
                {**GOOD, "datasets": [generated, other], "arms": [{**arms[1], "datasets": bad}]}
            )


def test_an_arms_epochs_are_honoured_by_a_turn_setting_and_refused_by_standard() -> None:
    from cegis.llm.setup import setting_config

    arm = {"learner": "llm", "setting": "acegis-exact", "epochs": 3}
    plan = plan_from_data({**GOOD, "arms": [arm]})
    setting = arm_setting(plan.arms[0])
    assert setting is not None and setting.turns == 3
    config = setting_config(setting, loop_config(plan, plan.arms[0], 0))
    assert config.budgets.epochs == 3
    for fixed, schedule in (("standard", "3 → 3000"), ("standard-96", "3 → 96")):
        with pytest.raises(PlanError, match=f"schedule \\({schedule}\\), so it cannot honour"):
            plan_from_data({**GOOD, "arms": [{**arm, "setting": fixed}]})


def test_an_llm_arm_may_constrain_its_answers_and_load_a_strategy_file(tmp_path: Path) -> None:
    strategy = tmp_path / "strategy.txt"
    strategy.write_text("INFERENCE STRATEGY\n1) Look at the ends.\n", encoding="utf-8")
    arm = {"learner": "llm", "setting": "single", "constrained": True}
    plan = plan_from_data({**GOOD, "arms": [{**arm, "strategy_file": str(strategy)}]})
    setting = arm_setting(plan.arms[0])
    assert setting is not None and setting.constrained
    assert setting.strategy_text == "INFERENCE STRATEGY\n1) Look at the ends."
    for bad, named in (
        ({**arm, "strategy_file": str(tmp_path / "missing.txt")}, "cannot read strategy file"),
        ({**arm, "strategy_file": str(strategy), "strategy_text": "x"}, "not both"),
        ({"learner": "symbolic", "constrained": True}, "llm arms only"),
    ):
        with pytest.raises(PlanError, match=named):
            plan_from_data({**GOOD, "arms": [bad]})
