"""The report's LLM accounting (tokens, latency, cost, overflows, cuts, the guard) on a small
experiment run against the vLLM-like scripted loopback server, and the plans' pinned efforts."""

from __future__ import annotations

import io
import math
import tomllib
from pathlib import Path

import pytest

from experiments.plan import PlanError, plan_from_data
from experiments.progress import Progress
from experiments.report import write_report
from experiments.report.llm_costs import percentile
from experiments.runner import run_experiment
from tests.cegis.llm.scripted_server import Reply, Rule, ScriptedServer
from tests.experiments.runner_support import plan_data, synchronous

PLANS = Path(__file__).resolve().parents[2] / "experiments" / "plans"


def _row(report: str, arm: str, after: str) -> list[str]:
    section = report.split(after, 1)[1]
    line = next(line for line in section.splitlines() if line.startswith(f"| {arm} |"))
    return [cell.strip() for cell in line.strip("|").split("|")]


@synchronous
async def test_the_report_counts_tokens_latency_cost_cuts_and_the_guard(tmp_path: Path) -> None:
    data = plan_data(tmp_path, ())
    data["arms"] += [{"name": "guarded", "learner": "llm", "setting": "guarded", "epochs": 1}]
    data["price"] = {"prompt": 1.0, "completion": 10.0}
    rules = (Rule("TRAINING DATA", (Reply.answer("a b*"),)),)
    async with ScriptedServer(rules, vllm=True, max_model_len=33_000) as server:
        data["servers"] = [{"base_url": server.base_url, "concurrency": 1}]
        await run_experiment(
            plan_from_data(data), tmp_path / "run", progress=Progress(6, out=io.StringIO())
        )
        calls = server.chat_calls
    report = write_report(tmp_path / "run").read_text(encoding="utf-8")
    single = _row(report, "single", "## LLM tokens, latency and cost")
    # 4 single calls of 100 prompt and 20 completion tokens; vLLM reports no reasoning or cached tokens
    assert single[:6] == ["single", "4", "400", "unknown", "80", "unknown"]
    assert single[-1] == f"{(400 * 1.0 + 80 * 10.0) / 1e6:,.2f}"
    budget = _row(report, "single", "## Context overflows and output-budget cuts")
    assert budget == [
        "single",
        "fail",
        "0",
        "4",
        "0",
    ]  # every 32,768-token budget was cut to fit 33,000
    guard = _row(report, "guarded", "## Guarded learner (SEVerA)")
    assert guard[0] == "guarded" and guard[4] == "until one conforms (K = 5)" and guard[5] == "—"
    assert (
        int(guard[2]) == 2 and int(guard[3]) >= 2 and calls >= 4
    )  # identical first draws come from the call log


def test_percentile_is_nearest_rank() -> None:
    assert percentile([], 50) is None
    assert (
        percentile([3.0, 1.0, 2.0, 4.0], 50) == 2.0
        and percentile(list(map(float, range(1, 101))), 95) == 95.0
    )


def test_a_price_must_be_known_fields_with_non_negative_numbers(tmp_path: Path) -> None:
    data = plan_data(tmp_path, ())
    assert plan_from_data(data | {"price": {"prompt": 0.1, "completion": 0.5}}).price == {
        "prompt": 0.1,
        "completion": 0.5,
    }
    with pytest.raises(PlanError, match="unknown field"):
        plan_from_data(data | {"price": {"input": 1.0}})
    with pytest.raises(PlanError, match=">= 0"):
        plan_from_data(data | {"price": {"prompt": -1}})


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
def test_a_price_that_is_not_a_finite_number_is_refused(tmp_path: Path, value: float) -> None:
    # tomllib reads `prompt = nan` and `prompt = inf` as floats; a cost at such a rate is no cost
    data = plan_data(tmp_path, ())
    with pytest.raises(PlanError, match=r"\[price\] prompt must be a finite number >= 0"):
        plan_from_data(data | {"price": {"prompt": value, "completion": 1.0}})


def test_every_gpt_oss_plan_pins_the_reasoning_effort_of_its_llm_arms() -> None:
    for path in sorted(PLANS.glob("*.toml")):
        text = path.read_text(encoding="utf-8")
        if "gpt-oss" not in text:
            continue
        plan = tomllib.loads(text)
        for arm in plan["arms"]:
            if arm["learner"] == "llm" and arm.get("model", "openai/gpt-oss-120b").startswith(
                "openai/gpt-oss"
            ):
                assert "reasoning_effort" in arm, (
                    f"{path.name}: arm {arm['name']} leaves reasoning_effort to the server"
                )
        assert "reasoning effort" in text.lower(), (
            f"{path.name} does not say where its reasoning effort comes from"
        )
