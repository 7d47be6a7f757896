"""A model id with whitespace or control characters (a CR LF) is refused where it is given, in one
line naming the field: before, a plan's ``model = "m\\r\\nX: y"`` (a server's or an arm's) and
``learn --model`` took it, and its errors spanned lines."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cli.main import main
from experiments.plan import PlanError, plan_from_data
from llm.config import ClientConfig, check_model_id
from llm.errors import ConfigError

FORGED = "m\r\nX-Injected: 1"
ARM = {"learner": "llm", "setting": "single"}
SERVER = {"base_url": "http://127.0.0.1:9/v1"}


def _plan(arm: dict[str, Any] = ARM, server: dict[str, Any] = SERVER) -> dict[str, Any]:
    datasets = [{"kind": "generated", "per_cell": 1}]
    return {"name": "t", "datasets": datasets, "arms": [arm], "servers": [server]}


@pytest.mark.parametrize(
    ("data", "where"),
    [
        (_plan(server={**SERVER, "model": FORGED}), "[[servers]] #1: model: "),
        (_plan(arm={**ARM, "model": FORGED}), "[[arms]] #1: model: "),
        (_plan(arm={**ARM, "model": "gpt 5"}), "[[arms]] #1: model: "),
        (_plan(arm={**ARM, "model": ""}), "[[arms]] #1: model: "),
    ],
)
def test_a_plan_with_an_unusable_model_id_is_refused_in_one_line(
    data: dict[str, Any], where: str
) -> None:
    with pytest.raises(PlanError) as refused:
        plan_from_data(data)
    message = str(refused.value)
    assert message.startswith(where + "a model id must be") and "\n" not in message


def test_real_model_ids_are_kept() -> None:
    for model in ("openai/gpt-oss-120b", "gpt-5.4", "hf.co/unsloth/gemma-3-270m-it-GGUF:Q8_0"):
        assert check_model_id(model) == model
        assert ClientConfig(model=model).model == model
    with pytest.raises(ConfigError):
        ClientConfig(model=FORGED)


def test_learn_refuses_a_forged_model_id_in_one_line(tmp_path: Path) -> None:
    args = ["learn", "--learner", "llm", "--base-url", "http://127.0.0.1:9/v1"]
    result = CliRunner().invoke(
        main, [*args, "--model", FORGED, "--positive", "a", "--negative", "b"]
    )
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: --learner llm: a model id must be")
