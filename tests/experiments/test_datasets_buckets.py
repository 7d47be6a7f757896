"""Bucketing by cell and the count table, checked against counts taken here by hand."""

from __future__ import annotations

from collections import Counter

import pytest

from experiments.datasets import Task, bucket, cell_of, summary_table
from experiments.datasets.task import Metrics
from regexlang.charset import SIMPLE_ALPHABET

CELLS = [(3, 1), (2, 0), (3, 1), (5, 2), (2, 0), (3, 0)]
TASKS = [
    Task(
        f"t{i}",
        "simple",
        "a",
        SIMPLE_ALPHABET,
        Metrics(*cell),
        "hand",
        listed=Metrics(cell[0] + 1, cell[1]),
    )
    for i, cell in enumerate(CELLS)
]


def _read_table(table: str) -> tuple[dict[tuple[int, int], int], list[int], list[int]]:
    """Cell counts, row totals and column totals of a summary table."""
    header, rule, *rows, totals = (line.strip("| ").split(" | ") for line in table.split("\n"))
    assert header[0] == "#States \\ StarDepth" and set(rule) == {"---"} and totals[0] == "total"
    depths = [int(d) for d in header[1:-1]]
    counts = {(int(row[0]), d): int(n) for row in rows for d, n in zip(depths, row[1:-1]) if int(n)}
    return counts, [int(row[-1]) for row in rows], [int(n) for n in totals[1:]]


def test_bucket_groups_in_cell_order_and_keeps_task_order() -> None:
    cells = bucket(TASKS)
    assert list(cells) == sorted(Metrics(*c) for c in set(CELLS))
    assert [t.id for t in cells[Metrics(3, 1)]] == ["t0", "t2"]
    assert sum(map(len, cells.values())) == len(TASKS)
    listed = bucket(TASKS, by="listed")
    assert {cell: len(group) for cell, group in listed.items()} == {
        Metrics(s + 1, d): n for (s, d), n in Counter(CELLS).items()
    }


def test_summary_table_counts_every_cell_and_total() -> None:
    counts, row_totals, column_totals = _read_table(summary_table(TASKS))
    assert counts == dict(Counter(CELLS))
    assert row_totals == [2, 3, 1]  # #States 2, 3, 5
    assert column_totals == [3, 2, 1, 6]  # StarDepth 0, 1, 2, then all


def test_tasks_without_a_listed_cell_cannot_be_grouped_by_it() -> None:
    unlisted = Task("nl-1", "python", "a", SIMPLE_ALPHABET, Metrics(2, 0), "nl-rx-turk")
    assert cell_of(unlisted) == Metrics(2, 0)
    with pytest.raises(ValueError, match="nl-1 from nl-rx-turk has no listed cell"):
        bucket([*TASKS, unlisted], by="listed")
