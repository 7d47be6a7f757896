"""The report's answer-format table, on epoch records written by hand: every answer of every
proposal lands in exactly one column, and arms without a model are left out."""

from __future__ import annotations

from typing import Any

import attrs

from cegis.llm.drafts import OUTSIDE_GRAMMAR
from experiments.report.answers import answer_kinds, answer_table, constrained_table
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


def _unit(
    arm: str,
    *epochs: dict[str, Any],
    outcome: str = "epochs",
    fingerprint: dict[str, Any] | None = None,
) -> UnitResult:
    run = {"type": "run", "outcome": outcome}
    return UnitResult({"arm": arm}, run, tuple(epochs), fingerprint=fingerprint)


def _fingerprint(setting: str, constrained: bool, task: str = "t1") -> dict[str, Any]:
    return {
        "task.id": task,
        "dataset": "simple",
        "llm_setting.name": setting,
        "llm_setting.constrained": constrained,
        "llm_setting.sampling.max_completion_tokens": 48,
        "config.seed": 0,
    }


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


def test_a_setting_run_with_and_without_constrained_answers_reads_side_by_side() -> None:
    def arm(name: str, setting: str, constrained: bool, *tries: str | None) -> list[UnitResult]:
        return [
            _unit(
                name,
                _epoch(*tries),
                outcome="equivalent" if None in tries and task == "t1" else "epochs",
                fingerprint=_fingerprint(setting, constrained, task),
            )
            for task in ("t1", "t2")
        ]

    results = [
        *arm("single", "single", False, "no_regex", "truncated"),
        *arm("agentic", "agentic", False, "no_regex"),
        *arm("single+c", "single", True, None, "inconsistent"),
        *arm("agentic+c", "agentic", True, None),
        _unit(  # a prompt that outgrew the context: a failed answer, and said why
            "agentic+c",
            _epoch(failed_calls=("context_overflow",)),
            fingerprint=_fingerprint("agentic", True, "t3"),
        ),
        *arm("multi+c", "multi", True, None),  # no twin without the constraint: left out
        _unit("symbolic", {"type": "epoch", "hypothesis": "a", "failure": None, "memo": None}),
    ]
    table = constrained_table(results)
    assert table is not None
    lines = table.splitlines()
    assert lines[0] == (
        "| free arm / constrained arm | answers free | answers constrained | rate free"
        " | rate constrained | not sent free | not sent constrained | outside grammar"
        " | succeeded free | succeeded constrained |"
    )
    assert lines[2:5] == [
        "| single / single+c | 4 | 4 | 0.000 | 1.000 | 0 | 0 | 0 | 0/2 | 1/2 |",
        "| agentic / agentic+c | 2 | 3 | 0.000 | 0.667 | 0 | 1 | 0 | 0/2 | 1/3 |",
        "| all | 6 | 7 | 0.000 | 0.857 | 0 | 1 | 0 | 0/4 | 2/5 |",
    ]
    assert "(not described)" not in table
    # without a twin, or without fingerprints saying what was constrained, there is no table
    assert constrained_table(results[:4]) is None
    assert constrained_table([attrs.evolve(r, fingerprint=None) for r in results]) is None
