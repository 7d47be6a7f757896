"""The loaders on the real shared data: counts, cells and alignment checked against the files read
here independently (skipped with a reason when the data folder is absent)."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from experiments.datasets import (
    LINE_UNIVERSE,
    PythonTargets,
    Task,
    bucket,
    load_kb13_extrx,
    load_paper_list,
    python_targets,
    sample_tasks,
)
from experiments.datasets.task import Metrics
from regexlang import CharSet, universe


@pytest.fixture(scope="module")
def nl_rx_turk(shared_data: Path) -> PythonTargets:
    return python_targets(shared_data / "nl-rx-turk")


def _listed_regexes(shared_data: Path, key: str) -> list[tuple[Metrics, str]]:
    document = json.loads((shared_data / "cegml" / "regex_list.json").read_text())
    return [
        (Metrics(row["#States"], cell["Stardepth"]), regex)
        for row in document[key]
        for cell in row["regex_list"]
        for regex in cell["regex_list"][:3]
    ]


def _line_number(task: Task) -> int:
    match = re.fullmatch(r".*-line(\d+)", task.id)
    assert match, task.id
    return int(match[1])


def test_simple_list_is_the_first_three_of_each_cell_labelled_exactly(shared_data: Path) -> None:
    tasks = load_paper_list("simplyrx", shared_data / "cegml" / "regex_list.json")
    assert [(t.listed, t.target) for t in tasks] == _listed_regexes(shared_data, "simplyrx")
    assert len(tasks) == 105 and {t.dialect for t in tasks} == {"simple"}
    assert all(t.metrics == t.listed for t in tasks)
    assert all(t.alphabet == CharSet.of(set(t.target) & set("abc")) for t in tasks)
    assert (
        len(load_paper_list("simplyrx", shared_data / "cegml" / "regex_list.json", per_cell=None))
        == 175
    )
    fixed = load_paper_list(
        "simplyrx", shared_data / "cegml" / "regex_list.json", alphabet=universe("simple")
    )
    assert {t.alphabet for t in fixed} == {universe("simple")}


def test_extended_list_differs_from_its_labels_only_by_seven_dead_states(shared_data: Path) -> None:
    tasks = load_paper_list("extrx", shared_data / "cegml" / "regex_list.json")
    assert [(t.listed, t.target) for t in tasks] == _listed_regexes(shared_data, "extrx")
    assert len(tasks) == 60 and {t.alphabet for t in tasks} == {universe("extended")}
    differences = Counter(
        (t.listed.states - t.metrics.states, t.listed.star_depth - t.metrics.star_depth)
        for t in tasks
        if t.listed
    )
    assert differences == {(0, 0): 53, (1, 0): 7}
    assert Counter(cell.star_depth for t in tasks if (cell := t.listed)) == {0: 21, 1: 21, 2: 18}


def test_kb13_extended_matches_the_counts_in_its_own_header(shared_data: Path) -> None:
    path = shared_data / "cegml" / "KB13_extrx.txt"
    tasks = load_kb13_extrx(path)
    assert len(tasks) == 821 and tasks[0].target == "[A-Z]*"
    header = (
        path.read_text()
        .split("Counts by (#states, star_depth):")[1]
        .split("Detailed regex list:")[0]
    )
    expected = {
        Metrics(int(states), depth): int(count)
        for states, *counts in (line.split("\t") for line in header.strip().split("\n")[1:])
        for depth, count in enumerate(counts)
        if int(count)
    }
    assert {cell: len(group) for cell, group in bucket(tasks, by="listed").items()} == expected
    assert all(t.listed and t.listed.star_depth == t.metrics.star_depth for t in tasks)


def test_nl_rx_turk_targets_are_aligned_and_filtered(
    shared_data: Path, nl_rx_turk: PythonTargets
) -> None:
    descriptions = (shared_data / "nl-rx-turk" / "src.txt").read_text().split("\n")
    regexes = (shared_data / "nl-rx-turk" / "targ.txt").read_text().split("\n")
    assert len(nl_rx_turk.tasks) == 5917
    assert dict(nl_rx_turk.dropped) == {
        "& or ~": 3948,
        "empty language": 19,
        "universal language": 115,
        "repeated pair": 1,
    }
    for task in nl_rx_turk.tasks:
        line = _line_number(task) - 1
        assert (task.description, task.target) == (descriptions[line], regexes[line])
        assert "&" not in task.target and "~" not in task.target
    assert {(t.dialect, t.alphabet, t.source) for t in nl_rx_turk.tasks} == {
        ("python", LINE_UNIVERSE, "nl-rx-turk")
    }


def test_a_sample_is_thirty_fixed_tasks_in_file_order(nl_rx_turk: PythonTargets) -> None:
    sample = sample_tasks(nl_rx_turk.tasks, 30, seed=0)
    assert sample == sample_tasks(nl_rx_turk.tasks, 30, seed=0)
    assert len(set(sample)) == 30 and set(sample) <= set(nl_rx_turk.tasks)
    assert [_line_number(t) for t in sample] == sorted(_line_number(t) for t in sample)
    assert sample_tasks(nl_rx_turk.tasks, 30, seed=1) != sample
    assert sample_tasks(nl_rx_turk.tasks, None, seed=0) == nl_rx_turk.tasks


def test_a_split_keeps_only_its_lines(shared_data: Path) -> None:
    folder = shared_data / "nl-rx-turk"
    test_lines = {
        int(entry) + 1 for entry in (folder / "deepregex-split" / "test.idx").read_text().split()
    }
    tasks = python_targets(folder, split="test").tasks
    assert len(tasks) == 1496 and {_line_number(t) for t in tasks} <= test_lines


def test_kb13_python_targets(shared_data: Path) -> None:
    targets = python_targets(shared_data / "kb13")
    assert len(targets.tasks) == 609
    assert dict(targets.dropped) == {"& or ~": 212, "repeated pair": 3}
    assert all(t.description for t in targets.tasks)
