"""The report's answer-format table, on epoch records written by hand: every answer of every
proposal lands in exactly one column, and arms without a model are left out."""

from __future__ import annotations

from typing import Any

from cegis.llm.drafts import OUTSIDE_GRAMMAR
from experiments.report.answers import answer_kinds, answer_table
from experiments.report.load import UnitResult


def _epoch(
    *tries: str | None,
    failed_calls: tuple[str, ...] = (),
    fallback: str | None = None,
    deviations: tuple[str, ...] = (),
) -> dict[str, Any]:
    """An epoch whose tries failed as ``tries`` say (None: met the contract)."""
    calls = [{"seconds": 1.0, "deviations": list(deviations)}]
    calls += [{"seconds": 0.1, "failure": f} for f in failed_calls]
    scored = [{"text": "x", "score": 0.0, "failure": kind} for kind in tries]
    return {
        "type": "epoch",
        "hypothesis": None,
        "failure": None,
        "memo": {"calls": calls, "fallback": fallback, "scored": scored},
    }


def _unit(arm: str, *epochs: dict[str, Any], outcome: str = "epochs") -> UnitResult:
    run = {"type": "run", "outcome": outcome}
    return UnitResult(unit={"arm": arm}, run=run, epochs=tuple(epochs))


def test_an_answer_is_parsable_when_its_regex_parsed_even_if_refused_later() -> None:
    epoch = _epoch(None, "inconsistent", "outside_dialect", "truncated", "no_regex")
    assert answer_kinds(epoch) == ["parsed", "parsed", "parsed", "truncated", "no_regex"]
    overflow = _epoch(failed_calls=("context_overflow", "http_error"))
    assert answer_kinds(overflow) == ["budget", "server_error"]


def test_the_guarded_rows_columns_add_up_to_every_draw() -> None:
    """Five draws per proposal, none conforming, the fallback answering: each draw is counted."""
    draws = ("no_regex", "no_regex", "truncated", "syntax_error", "inconsistent")
    guarded = _unit("guarded", *(_epoch(*draws, fallback="symbolic") for _ in range(4)))
    results = [
        guarded,
        _unit(
            "single",
            _epoch(None),
            _epoch("no_regex", deviations=(OUTSIDE_GRAMMAR,)),
            outcome="equivalent",
        ),
        _unit("symbolic", {"type": "epoch", "hypothesis": "a", "failure": None, "memo": None}),
    ]
    table = answer_table(results)
    assert table is not None
    lines = table.splitlines()
    assert lines[0].startswith("| arm | proposals | answers | parsable | answer-format rate |")
    assert lines[2] == "| guarded | 4 | 20 | 4 | 0.200 | 4 | 8 | 4 | 0 | 0 | 0 | 0 | 4 | 0/1 |"
    assert lines[3] == "| single | 2 | 2 | 1 | 0.500 | 0 | 1 | 0 | 0 | 0 | 0 | 1 | 0 | 1/1 |"
    cells = [int(c) for c in lines[2].split("|")[3:12] if c.strip().isdigit()]
    assert cells[0] == sum(cells[1:])  # answers = parsable + every failure column
    assert "(not described)" not in table
    assert answer_table(results[2:]) is None
