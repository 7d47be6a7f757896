"""The examples benchmark: the hand-written tasks are labeled as their gold regex says (checked with
Python's ``re``), and the table counts, per row, the answers that only list their positives and how
often ours is ahead of grex's best."""

from __future__ import annotations

import re

import pytest

from experiments.bench.example_tasks import BINARY, HAND_TASKS, HandTask
from experiments.bench.examples import (
    GREX_REPETITIONS_MOST_CHARS,
    LONG_SIZES,
    Answer,
    Problem,
    _sizes,
    grex_best,
    hand_problems,
    ours,
    table,
)
from regexlang import parse

UNIVERSE_TEXT = "".join(map(chr, range(0x20, 0x7F)))


@pytest.mark.parametrize("task", HAND_TASKS, ids=lambda t: t.name)
def test_a_hand_task_is_labeled_as_its_gold_says(task: HandTask) -> None:
    gold = re.compile(task.gold)
    assert all(gold.fullmatch(s) for s in task.positives + task.held_positives)
    assert not any(gold.fullmatch(s) for s in task.negatives + task.held_negatives)
    given, held = (
        set(task.positives + task.negatives),
        set(task.held_positives + task.held_negatives),
    )
    assert not given & held and len(given) == len(task.positives) + len(task.negatives)
    assert (
        10 <= len(task.positives) <= 30
        and 10 <= len(task.negatives) <= 30
        and len(task.held_positives) >= 20
    )
    assert all(set(s) <= set(UNIVERSE_TEXT) for s in given | held)


def test_the_binary_literals_are_scored_on_strings_drawn_from_the_gold() -> None:
    problems = hand_problems()
    assert [p.name for p in problems] == [t.name for t in (*HAND_TASKS, BINARY)]
    binary = problems[-1]
    assert len(binary.positives) == len(binary.negatives) == 5
    assert binary.held_positives and all(
        re.fullmatch(BINARY.gold, s) for s in binary.held_positives
    )
    assert binary.held_negatives and not any(
        re.fullmatch(BINARY.gold, s) for s in binary.held_negatives
    )


def _answer(learner: str, accuracy: float, lists: bool, avoidable: bool = False) -> Answer:
    return Answer(learner, "x", accuracy, False, 1.0, 0.1, lists, avoidable)


def test_the_table_counts_listing_answers_and_who_is_ahead() -> None:
    gold = parse("a+", "python")
    problem = Problem("practical", "p", 5, gold, ("a",), ("b",), ("aa",), ("b",))
    results = [
        (problem, _answer("ours", 1.0, False), _answer("grex", 0.5, True)),
        (problem, _answer("ours", 0.5, True, avoidable=True), _answer("grex", 0.75, True)),
        (problem, _answer("ours", 0.5, False), None),
    ]
    row = table(results).splitlines()[2].split()
    assert row[:3] == ["practical", "5", "3"]
    assert row[3] == "|" and row[6] == "1"  # ours: one answer lists its positives
    assert row[8] == "1"  # though a pattern of the prior is consistent
    assert row[-2:] == ["1", "1"]  # ahead once, behind once


def test_ours_reports_an_answer_that_only_lists_its_positives() -> None:
    gold = parse("abc|xyzzy", "python")
    problem = Problem(
        "tasks", "two words", 2, gold, ("abc", "xyzzy"), ("ab", "xy", "abcd"), ("abc",), ("x",)
    )
    answer = ours(problem)
    assert answer.lists == (
        re.fullmatch(answer.text, "abd") is None and re.fullmatch(answer.text, "xyz") is None
    )


def test_a_listing_answer_counts_as_avoidable_only_where_a_pattern_of_the_prior_fits() -> None:
    # Six positives of one shape and near misses: [A-Z]{2}[0-9]{3}[A-Za-z]{1,3} is consistent, and
    # ours must not list them; two words and their prefixes have no such pattern, and ours lists.
    shaped = Problem(
        "structured-regex", "shape", 6, parse("[A-Z]{2}[0-9]{3}[A-Za-z]{1,3}", "python"),
        ("KD318q", "KD318X", "PW574mRT", "PW574mzb", "BN602Cd", "PW574mzE"),
        ("BTR318QXN", "EM5Bsr", "KT78MTnf", "TZ17", "SNU52Uq"), ("AB123c",), ("AB12c",),
    )  # fmt: skip
    answer = ours(shaped)
    assert not answer.lists and not answer.avoidable
    words = Problem(
        "tasks",
        "two words",
        2,
        parse("abc|xyzzy", "python"),
        ("abc", "xyzzy"),
        ("ab", "xy", "abcd"),
        ("abc",),
        ("x",),
    )
    answer = ours(words)
    assert answer.lists and not answer.avoidable


def test_the_long_lines_print_a_row_per_size() -> None:
    gold = parse("a+", "python")
    results = [
        (
            Problem("long lines", "access log", size, gold, ("a",), ("b",), ("aa",), ("b",)),
            mine,
            None,
        )
        for size, mine in ((5, _answer("ours", 0.5, False)), (20, _answer("ours", 1.0, False)))
    ]
    rows = [line.split() for line in table(results).splitlines()[2:]]
    assert [row[:5] for row in rows] == [
        ["long", "lines", "5", "1", "|"],
        ["long", "lines", "20", "1", "|"],
    ]
    assert _sizes(None, LONG_SIZES) == [5, 20] and _sizes("0,100", LONG_SIZES) == [100]


def test_grex_leaves_its_repetitions_out_on_long_positives(monkeypatch: pytest.MonkeyPatch) -> None:
    grex = pytest.importorskip("grex")
    asked: list[str] = []
    builder = grex.RegExpBuilder
    monkeypatch.setattr(
        builder,
        "with_conversion_of_repetitions",
        lambda self: asked.append("repetitions") or self,  # type: ignore[func-returns-value]
        raising=True,
    )
    line = "x" * (GREX_REPETITIONS_MOST_CHARS + 1)
    problem = Problem("long lines", "p", 1, parse("x+", "python"), (line,), (), (line,), ("y",))
    assert grex_best(problem) is not None and not asked
