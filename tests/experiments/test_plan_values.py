"""Experiment files are read by cattrs (``experiments.plan_values``): values taken as TOML wrote
them, never coerced, and every refusal one line naming the table, the field, why and the value."""

from __future__ import annotations

from typing import Any

import pytest

from experiments.plan import PlanError, plan_from_data

GOOD: dict[str, Any] = {
    "name": "t",
    "datasets": [{"kind": "generated", "per_cell": 1}],
    "arms": [{"learner": "symbolic"}],
    "servers": [{"base_url": "http://x/v1"}],
}


def _refusal(where: str, **fields: Any) -> str:
    data = {key: [dict(t) for t in v] if isinstance(v, list) else v for key, v in GOOD.items()}
    if where == "top":
        data.update(fields)
    else:
        data[where][0].update(fields)
    with pytest.raises(PlanError) as caught:
        plan_from_data(data)
    return str(caught.value)


@pytest.mark.parametrize(
    ("where", "fields", "message"),
    [
        # cattrs's own hooks would read "3" as 3, 1.5 as 1 and true as 1: each is refused as written
        ("arms", {"batch": "3"}, "[[arms]] #1: batch must be an integer 1..100000, not '3'"),
        ("arms", {"epochs": 1.5}, "[[arms]] #1: epochs must be an integer 1..10000, not 1.5"),
        ("top", {"concurrency": True}, "concurrency must be an integer 1..256, not True"),
        ("arms", {"clustered": 1}, "[[arms]] #1: clustered must be true or false, not 1"),
        (
            "datasets",
            {"path": 5},
            "[[datasets]] #1: path must be a string without NUL characters, not 5",
        ),
        (
            "arms",
            {"mode": "telepathy"},
            "[[arms]] #1: mode must be one of paths, shortest, uniform, not 'telepathy'",
        ),
        (
            "datasets",
            {"star_depths": "1"},
            "[[datasets]] #1: star_depths must be a list of distinct integers 0..100, not '1'",
        ),
        (
            "servers",
            {"read_timeout": "1h"},
            "[[servers]] #1: read_timeout must be a number of seconds in (0, 86400], not '1h'",
        ),
    ],
)
def test_values_are_taken_as_written_and_refused_in_one_line(
    where: str, fields: dict[str, Any], message: str
) -> None:
    assert _refusal(where, **fields) == message


def test_unknown_and_missing_fields_are_named_with_the_known_ones() -> None:
    assert _refusal("arms", colour="red").startswith(
        "[[arms]] #1 has unknown field(s) colour; known: batch, clustered, constrained, datasets,"
    )
    assert _refusal("top", colour="red").startswith(
        "the experiment has unknown field(s) colour; known: arms, concurrency,"
    )
    data = {**GOOD, "servers": [{"concurrency": 2}]}
    with pytest.raises(PlanError, match=r"^\[\[servers\]\] #1: base_url is required$"):
        plan_from_data(data)


def test_a_setting_that_is_no_string_is_refused_not_a_crash() -> None:
    # before, a list or table here raised TypeError: unhashable type
    settings: tuple[object, ...] = ([], {"a": 1})
    for setting in settings:
        data = {**GOOD, "arms": [{"learner": "llm", "setting": setting}]}
        with pytest.raises(PlanError, match="an llm arm needs setting = one of"):
            plan_from_data(data)


def test_accepted_values_keep_their_types() -> None:
    plan = plan_from_data(
        {
            **GOOD,
            "seeds": 3,
            "price": {"prompt": 1, "completion": 0.5},
            "servers": [{"base_url": "http://x/v1", "read_timeout": 30}],
            "datasets": [{"kind": "generated", "per_cell": 1, "star_depths": [2, 1]}],
        }
    )
    assert plan.seeds == (0, 1, 2) and plan.price == {"prompt": 1.0, "completion": 0.5}
    assert isinstance(plan.servers[0].read_timeout, float)
    assert plan.datasets[0].star_depths == (2, 1) and plan.datasets[0].name == "generated"
