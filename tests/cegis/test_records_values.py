"""The values inside records (costs, failures, issues) go through one cattrs converter: a cost
writes its later fields only when they are not at their default (so records keep their bytes),
and a mistyped field is refused with the path to it."""

from __future__ import annotations

import json

import pytest

from cegis.errors import RecordsError
from cegis.learner import LearnerCost, ProposalFailure
from cegis.records import CONVERTER, epoch_from_json

OLD_COST = (
    '{"calls": 1, "prompt_tokens": 2, "completion_tokens": 3, "reasoning_tokens": null,'
    ' "membership_queries": 0, "seconds": 0.5, "cached_tokens": 0}'
)


def test_a_cost_is_written_as_before_unless_usage_went_unreported() -> None:
    cost = LearnerCost(1, 2, 3, None, 0, 0.5, 0)
    assert json.dumps(CONVERTER.unstructure(cost)) == OLD_COST
    assert CONVERTER.structure(json.loads(OLD_COST), LearnerCost) == cost
    unreported = LearnerCost(calls=1, unreported_calls=1, counted_tokens=40)
    data = CONVERTER.unstructure(unreported)
    assert (data["unreported_calls"], data["counted_tokens"]) == (1, 40)
    assert CONVERTER.structure(data, LearnerCost) == unreported
    assert CONVERTER.unstructure(ProposalFailure("no_regex", "x")) == {
        "kind": "no_regex",
        "detail": "x",
    }


@pytest.mark.parametrize(
    ("cost", "says"),
    [
        ({"calls": "1"}, "expected int @ $.cost.calls"),
        ({"calls": True}, "expected int @ $.cost.calls"),
        ({"calls": 1, "tokens": 3}, "extra fields found (tokens) @ $.cost"),
        ([1], "is a JSON object, not [1] @ $.cost"),
    ],
)
def test_a_mistyped_cost_is_a_records_error_naming_its_path(cost: object, says: str) -> None:
    record = {
        "epoch": 0,
        "learner": "x",
        "hypothesis": "a",
        "answer": None,
        "reasoning": "",
        "failure": None,
        "cost": cost,
        "verdict": None,
        "initial": [],
        "added": [],
        "source": "initial",
        "accuracy": None,
        "diff_ratio": None,
        "totals": {"teacher_seconds": 0.0, "equivalence_queries": 0},
        "outcome": None,
        "memo": None,
    }
    with pytest.raises(RecordsError) as caught:
        epoch_from_json(record)
    assert says in str(caught.value) and "\n" not in str(caught.value)
