"""Every table of the report ends with a legend line that says what each of its columns holds,
with its unit; no column is left undescribed."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from experiments.report import write_report
from experiments.report.legend import legend
from tests.experiments.test_report import ARMS, CELLS, _draw, _write


def _tables(report: str) -> list[tuple[list[str], list[str]]]:
    """Each table's header cells and the two lines after its last row."""
    lines = report.splitlines()
    found = []
    for i, line in enumerate(lines):
        if line.startswith("| ") and i + 1 < len(lines) and lines[i + 1].startswith("| --- "):
            header = [cell.strip() for cell in line.strip("|").split(" | ")]
            end = next(j for j in range(i + 1, len(lines)) if not lines[j].startswith("|"))
            found.append((header, lines[end : end + 2]))
    return found


def test_every_table_of_a_report_with_every_kind_of_arm_has_a_legend_describing_each_column(
    tmp_path: Path,
) -> None:
    rng = np.random.default_rng(11)
    _write(
        tmp_path, {(arm, task): _draw(rng, arm, task) for arm in ARMS for task in range(len(CELLS))}
    )
    report = write_report(tmp_path).read_text(encoding="utf-8")
    tables = _tables(report)
    assert len(tables) >= 8  # success, cost, heatmaps, efficiency, Pareto, tokens, guard, budgets
    for header, after in tables:
        assert after == ["", legend(header)], header
        assert "(not described)" not in after[1], header
        for column in header:
            named = (
                re.sub(r"\d+", "N", column)
                if re.fullmatch(r"SD=\d+|≤\d+|turn \d+", column)
                else column
            )
            assert f"**{named}** " in after[1], (column, after[1])


def test_a_column_nobody_described_is_said_to_be_so() -> None:
    assert (
        legend(["arm", "mystery"])
        == "Columns: **arm** the plan's arm: one learner in one setting; **mystery** (not described)."
    )
    assert legend(["SD=0", "SD=1"]).count("**SD=N**") == 1
