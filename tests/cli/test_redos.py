"""``python -m cli redos``: verdict, exit codes, JSON keys."""

from __future__ import annotations

import json
import re

from click.testing import CliRunner

from cli.main import main


def test_json_reports_an_exponential_verdict_with_a_failing_attack() -> None:
    result = CliRunner().invoke(main, ["redos", "(a+)+b", "--json", "--no-confirm"])
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["verdict"] == "exponential"
    assert report["degree"] is None
    assert re.fullmatch("(a+)+b", report["attack"]) is None
    assert "confirmed_seconds" in report


def test_search_semantics_decide_the_verdict() -> None:
    anchored = CliRunner().invoke(main, ["redos", "\\s+$", "--no-confirm"])
    searched = CliRunner().invoke(main, ["redos", "\\s+$", "--match", "search", "--no-confirm"])
    assert anchored.exit_code == 0 and "linear" in anchored.output
    assert searched.exit_code == 1 and "polynomial (degree 2)" in searched.output


def test_bad_pattern_is_a_one_line_error() -> None:
    result = CliRunner().invoke(main, ["redos", "a(b"])
    assert result.exit_code == 2
    assert "Traceback" not in result.output


def test_an_analysis_past_its_budget_is_unknown_and_names_the_option() -> None:
    result = CliRunner().invoke(
        main, ["redos", "(?=a{10000})a*", "--analysis-seconds", "0.01", "--json"]
    )
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["verdict"] == "unknown" and "0.01 s CPU budget" in report["reason"]
    assert "--analysis-seconds" in result.stderr
