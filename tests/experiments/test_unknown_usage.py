"""A server that reports no ``usage`` (or one no server could mean): its tokens stay unknown in the
unit totals, the report and the cost plot, so nothing reads as "0 tokens", and a token budget, which
compares the servers' counts only, stops the run with the reason instead of guessing."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from experiments.plan import plan_from_data
from experiments.progress import Progress
from experiments.report import write_report
from experiments.report.figures import _pareto_key
from experiments.runner import run_experiment
from tests.cegis.llm.scripted_server import ScriptedServer
from tests.experiments.runner_support import RULES, plan_data, synchronous


class UsageServer(ScriptedServer):
    """The scripted server with ``usage`` replaced (``None``: left out of the reply)."""

    def __init__(self, usage: Any) -> None:
        super().__init__(RULES)
        self.usage = usage

    async def _chat(self, request: web.Request) -> web.StreamResponse:
        response = await super()._chat(request)
        assert isinstance(response, web.Response) and response.text is not None
        data = json.loads(response.text)
        if "choices" in data:
            data.pop("usage")
            if self.usage is not None:
                data["usage"] = self.usage
        return web.json_response(data, status=response.status)


BAD_USAGE = (
    None,
    {"prompt_tokens": -5, "completion_tokens": 10**30},
    {"prompt_tokens": "100", "completion_tokens": "20"},
)


@pytest.mark.parametrize("usage", BAD_USAGE, ids=["absent", "out-of-range", "strings"])
@synchronous
async def test_unreported_usage_is_unknown_in_totals_report_and_plot(
    tmp_path: Path, usage: Any
) -> None:
    run_dir = tmp_path / "run"
    async with UsageServer(usage) as server:
        plan = plan_from_data(plan_data(tmp_path, (server.base_url,)))
        await run_experiment(plan, run_dir, progress=Progress(4, out=io.StringIO()))
    runs = [
        record
        for path in (run_dir / "records").rglob("*.jsonl")
        for line in path.read_text(encoding="utf-8").splitlines()
        if (record := json.loads(line)).get("type") == "run" and record["totals"]["calls"]
    ]
    assert len(runs) == 2
    assert all(r["totals"]["unreported_calls"] == r["totals"]["calls"] for r in runs)
    assert all(r["totals"]["counted_tokens"] > 0 for r in runs)
    report = write_report(run_dir).read_text(encoding="utf-8")
    assert (
        "| single | unknown (2 of 2 runs without reported usage) | 50.0% | not compared |"
    ) in report
    assert "unknown (4 calls unreported)" in report  # the token table's prompt and completion
    assert "unknown (2 runs without reported usage)" in report  # the cost table's tokens p50
    figure = next((run_dir / "figures").glob("pareto-*.svg")).read_text(encoding="utf-8")
    assert "not drawn, tokens unknown (a server did not report usage): single" in figure
    key = "".join(_pareto_key(0.0, 0.0)).count("<circle")  # the marks the key explains
    assert figure.count("<circle") == key + 1  # and the symbolic arm's point only


@pytest.mark.parametrize("budget", [1, 10**9])
@synchronous
async def test_a_token_budget_stops_at_tokens_no_server_reported(
    tmp_path: Path, budget: int
) -> None:
    """A budget compares the servers' counts: once a unit's calls went unreported the tokens spent
    are unknown, so the run stops with the reason, however far the budget is (before: an estimate
    stood in, and a budget above it never tripped)."""
    async with UsageServer(None) as server:
        data = plan_data(tmp_path, (server.base_url,), seeds=2) | {"token_budget": budget}
        summary = await run_experiment(
            plan_from_data(data), tmp_path / "run", progress=Progress(8, out=io.StringIO())
        )
    # the first LLM unit (longest first: it is answered in one call) spends unknown tokens; the
    # three after it wait
    assert summary.stopped is not None
    assert summary.stopped.startswith(f"token budget of {budget:,} cannot be kept: the server")
    assert "no usable token usage for 1 call(s) of single/" in summary.stopped
    assert summary.ran == 4 + 1 and server.chat_calls == 1
    assert summary.tokens == 0  # nothing reported; the budget counted no estimate


@synchronous
async def test_a_resumed_run_with_unreported_tokens_does_not_start_under_a_budget(
    tmp_path: Path,
) -> None:
    """Units finished by an earlier invocation with unreported tokens stop a budgeted rerun too."""
    async with UsageServer(None) as server:
        data = plan_data(tmp_path, (server.base_url,)) | {"token_budget": 10**9}
        run = tmp_path / "run"
        first = await run_experiment(
            plan_from_data(data), run, progress=Progress(4, out=io.StringIO())
        )
        assert first.stopped is not None and first.ran == 2 + 1
        again = await run_experiment(
            plan_from_data(data), run, progress=Progress(4, out=io.StringIO())
        )
    assert again.stopped == first.stopped and again.ran == 0 and server.chat_calls == 1


class FirstCallUnreported(UsageServer):
    """Usage left out of the first reply only: some calls of the arm are known, one is not."""

    def __init__(self) -> None:
        super().__init__(None)
        self.replies = 0

    async def _chat(self, request: web.Request) -> web.StreamResponse:
        self.replies += 1
        if self.replies == 1:
            return await super()._chat(request)
        return await ScriptedServer._chat(self, request)


@synchronous
async def test_partly_reported_usage_reads_as_a_lower_bound_and_a_count(tmp_path: Path) -> None:
    """One call of four unreported: the token table and the progress line give the known part as
    "≥" with the count of calls it misses, and the success-against-tokens table how many runs are
    unknown (before: "usage not reported" only, and the progress line an exact-looking count)."""
    run_dir = tmp_path / "run"
    shown = io.StringIO()
    async with FirstCallUnreported() as server:
        plan = plan_from_data(plan_data(tmp_path, (server.base_url,)))
        await run_experiment(plan, run_dir, progress=Progress(4, out=shown))
    assert "tokens ≥ " in shown.getvalue() and "(1 call unreported)" in shown.getvalue()
    report = write_report(run_dir).read_text(encoding="utf-8")
    assert "| single | unknown (1 of 2 runs without reported usage) | 50.0% | not compared |" in (
        report
    )
    assert "| single | 4 | ≥ 300 (1 call unreported) |" in report  # prompt tokens
    assert "unknown (1 run without reported usage)" in report  # the cost table's tokens p50
