"""``experiments/plans/local-smoke.toml`` end to end against the real server: every unit finishes,
and the report's LLM tables carry the server's own tokens and latencies."""

from __future__ import annotations

import json
import sqlite3
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from tests.real_model.conftest import ROOT

pytestmark = [pytest.mark.real_model, pytest.mark.slow]

PLAN = ROOT / "experiments" / "plans" / "local-smoke.toml"


def test_the_smoke_plan_runs_every_setting_family_and_reports_the_servers_numbers(base_url: str, tmp_path: Path) -> None:
    text = PLAN.read_text(encoding="utf-8")
    assert 'base_url = "http://127.0.0.1:8765/v1"' in text
    plan = tmp_path / "local-smoke.toml"
    plan.write_text(text.replace("http://127.0.0.1:8765/v1", base_url), encoding="utf-8")
    out = tmp_path / "run"
    result = CliRunner().invoke(main, ["experiment", str(plan), "--out", str(out)])
    assert result.exit_code == 0, result.output
    arms = {arm["name"] for arm in tomllib.loads(text)["arms"]}
    units = [json.loads(line) for line in (out / "units.jsonl").read_text(encoding="utf-8").splitlines()]
    assert {unit["arm"] for unit in units} == arms
    assert "0 errors" in result.output and not (out / "errors.jsonl").exists()
    report = (out / "report.md").read_text(encoding="utf-8")
    for table in ("## LLM tokens, latency and cost", "## Guarded learner (SEVerA)", "## A-CEGIS trajectory metrics",
                  "## Context overflows and output-budget cuts"):
        assert table in report
    with sqlite3.connect(out / "calls.sqlite3") as db:
        calls, prompt, completion = db.execute(
            "SELECT COUNT(*), TOTAL(prompt_tokens), TOTAL(completion_tokens) FROM calls WHERE kind != 'failed'"
        ).fetchone()
    assert calls > 0 and prompt > 0 and completion > 0
    tokens = report.split("## LLM tokens, latency and cost", 1)[1]
    assert f"{int(prompt):,}" in tokens or all(arm in tokens for arm in arms)  # per-arm sums of the logged usage
