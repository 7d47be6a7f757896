"""The bench's ``repeats`` row: 20 repeated words beside a literal, the same on every machine."""

from __future__ import annotations

import re
from pathlib import Path

from experiments.bench.learners import DATASETS, load
from experiments.datasets.repeats import SIZE, repeated_units


def test_the_row_holds_both_forms_each_a_repetition_beside_a_word_it_does_not_hold() -> None:
    tasks = repeated_units()
    assert len(tasks) == SIZE == len({t.target for t in tasks}) and "repeats" in DATASETS
    forms = [
        re.fullmatch(
            r"\((\(([A-Za-z0-9#]+)\)\{([23])\}|([A-Za-z0-9#]+))\)\+\|([A-Za-z0-9#]+)", t.target
        )
        for t in tasks
    ]
    assert all(forms) and sum(1 for f in forms if f and f.group(2)) == SIZE // 2
    for task, form in zip(tasks, forms):
        assert form is not None
        unit = form.group(2) * int(form.group(3)) if form.group(2) else form.group(4)
        assert task.dialect == "extended" and re.fullmatch(f"({unit})+", form.group(5)) is None
    assert (
        repeated_units() == tasks == load("repeats", Path("/nonexistent"))
    )  # drawn, not read from a data file
