"""Grouping tasks by complexity cell, and the count table a report prints for a dataset.

The seed paper reports success per (#States, StarDepth) cell (its heatmaps) and per StarDepth (its
Table 1). Cells come from the recomputed ``Task.metrics`` by default; ``by="listed"`` groups by the
cell the source file gives, which is how the paper's own tables were grouped.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from experiments.datasets.task import Metrics, Task

CellSource = Literal["metrics", "listed"]


def cell_of(task: Task, by: CellSource = "metrics") -> Metrics:
    """The cell of ``task``: recomputed, or as its source lists it (a ``ValueError`` if it lists none)."""
    if by == "metrics":
        return task.metrics
    if task.listed is None:
        raise ValueError(
            f"task {task.id} from {task.source} has no listed cell; group it by='metrics'"
        )
    return task.listed


def bucket(tasks: Iterable[Task], by: CellSource = "metrics") -> dict[Metrics, tuple[Task, ...]]:
    """The tasks of each cell, cells in (#States, StarDepth) order, tasks in their given order."""
    cells: dict[Metrics, list[Task]] = {}
    for task in tasks:
        cells.setdefault(cell_of(task, by), []).append(task)
    return {cell: tuple(cells[cell]) for cell in sorted(cells)}


def summary_table(tasks: Iterable[Task], by: CellSource = "metrics") -> str:
    """A Markdown table of task counts: one row per #States present, one column per StarDepth
    present, with row and column totals."""
    counts = {cell: len(group) for cell, group in bucket(tasks, by).items()}
    states = sorted({cell.states for cell in counts})
    depths = sorted({cell.star_depth for cell in counts})
    header = ["#States \\ StarDepth", *map(str, depths), "total"]
    rows = [header, ["---"] * len(header)]
    for s in states:
        row = [counts.get(Metrics(s, d), 0) for d in depths]
        rows.append([str(s), *map(str, row), str(sum(row))])
    column_totals = [sum(counts.get(Metrics(s, d), 0) for s in states) for d in depths]
    rows.append(["total", *map(str, column_totals), str(sum(column_totals))])
    return "\n".join("| " + " | ".join(row) + " |" for row in rows)
