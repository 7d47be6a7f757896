"""A plan value or a dataset line of kilobytes is quoted in part: before, a plan's 10 kB value
(a ``[[datasets]]`` entry's ``list``, an unknown field's name, a server's ``api_key_env``) was
echoed whole in its one-line error, burying what was wrong."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from experiments.datasets import load_kb13_extrx
from experiments.datasets.errors import MalformedDataset
from experiments.plan import PlanError, plan_from_data
from experiments.quoting import shortened

LONG = "x" * 10_000
DATASET = {"kind": "paper-list", "list": "simplyrx"}
ARM = {"learner": "symbolic"}


def _plan(dataset: dict[str, Any] = DATASET, **top: Any) -> dict[str, Any]:
    return {"name": "t", "datasets": [dataset], "arms": [ARM], **top}


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (_plan({**DATASET, "list": LONG}), "[[datasets]] #1: list must be one of simplyrx, extrx,"),
        (_plan({**DATASET, LONG: 1}), "[[datasets]] #1 has unknown field(s) xxx"),
        (_plan(name=LONG), "name must be 1 to 100 letters"),
        (_plan(seeds=[LONG]), "seeds must be"),
        (
            _plan(servers=[{"base_url": "http://127.0.0.1:9/v1", "api_key_env": LONG}]),
            "[[servers]] #1: api_key_env must name a variable ending in _API_KEY",
        ),
    ],
)
def test_a_long_plan_value_is_quoted_in_part(data: dict[str, Any], says: str) -> None:
    with pytest.raises(PlanError) as refused:
        plan_from_data(data)
    message = str(refused.value)
    assert message.startswith(says), message[:300]
    assert len(message) < 500 and "\n" not in message and "more characters)" in message


def test_a_long_unreadable_dataset_line_is_quoted_in_part(tmp_path: Path) -> None:
    path = tmp_path / "KB13_extrx.txt"
    path.write_text("Detailed regex list:\n" + LONG + "\n", encoding="utf-8")
    with pytest.raises(MalformedDataset) as refused:
        load_kb13_extrx(path)
    message = str(refused.value)
    assert f"(line 2): expected '  [star_depth=d] regex', got '{'x' * 120}'… (9,880 more" in message
    assert len(message) < 500


def test_shortened_keeps_short_text_and_counts_what_it_cuts() -> None:
    assert shortened("abc", 3) == "abc"
    assert shortened("abcd", 3) == "abc… (1 more characters)"
