"""The report's answer-format table, on epoch records written by hand: which proposals count as
answered, how the failure kinds are split, and that arms without a model are left out."""

from __future__ import annotations

from typing import Any

from experiments.report.answers import answer_table, answered
from experiments.report.load import UnitResult


def _epoch(
    hypothesis: str | None, failure: str | None = None, fallback: str | None = None
) -> dict[str, Any]:
    return {
        "type": "epoch",
        "hypothesis": hypothesis,
        "failure": None if failure is None else {"kind": failure, "detail": "..."},
        "memo": {"calls": [{"seconds": 1.0}], "fallback": fallback},
    }


def _unit(arm: str, *epochs: dict[str, Any]) -> UnitResult:
    return UnitResult(unit={"arm": arm}, run={"type": "run"}, epochs=tuple(epochs))


def test_an_answer_is_the_models_parsed_regex_even_when_the_teacher_or_contract_refuses_it() -> (
    None
):
    assert answered(_epoch("a*"))
    assert answered(_epoch(None, "inconsistent")) and answered(_epoch(None, "outside_dialect"))
    assert not answered(_epoch("a*", fallback="union"))  # the guard's fallback wrote it
    assert not any(
        answered(_epoch(None, kind))
        for kind in ("truncated", "no_regex", "syntax_error", "server_error")
    )


def test_the_table_counts_proposals_rates_and_failure_kinds_per_llm_arm() -> None:
    results = [
        _unit("single", _epoch("a*"), _epoch(None, "truncated"), _epoch(None, "no_regex")),
        _unit("single", _epoch(None, "truncated"), _epoch(None, "timeout")),
        _unit("symbolic", {"type": "epoch", "hypothesis": "a", "failure": None, "memo": None}),
    ]
    table = answer_table(results)
    assert table is not None
    lines = table.splitlines()
    assert lines[0].startswith(
        "| arm | proposals | with a parsable answer | answer-format rate | truncated |"
    )
    assert lines[2] == "| single | 5 | 1 | 0.200 | 2 | 1 | 0 | 0 | 0 | 1 |" and lines[3:4] == [""]
    assert "(not described)" not in lines[4]
    assert answer_table(results[2:]) is None
