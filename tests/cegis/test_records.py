"""Records: examples read back exactly, and a run resumed from truncated records ends with the same
records as an uninterrupted one."""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cegis.config import Budgets, LoopConfig
from cegis.errors import RecordsError
from cegis.learner import Learner
from cegis.records import RecordLog, example_from_json, example_json, run_recorded
from cegis.state import Task
from cegis.symbolic.union import UnionLearner
from oracle import ClusteredExample, ExactTeacher, Example, TeacherConfig
from regexlang import CharSet, universe
from tests.cegis.support import CompilingLearner, FailingLearner, lines

UNIVERSE = CharSet.everything()
chars = st.characters(codec="utf-8", exclude_categories=["Cs"])
plain = st.builds(Example, st.text(chars, max_size=8), st.booleans())
position = st.lists(chars, min_size=1, max_size=4).map(CharSet.of)
universes = st.sampled_from([UNIVERSE, universe("extended"), universe("simple")])
spellings = st.sampled_from(["escaped", "cegml"])
clustered = st.builds(
    ClusteredExample, st.lists(position, max_size=5).map(tuple), st.booleans(), universes, spellings
)


@settings(max_examples=200)
@given(st.one_of(plain, clustered))
def test_an_example_reads_back_from_its_record(example: Example | ClusteredExample) -> None:
    data = json.loads(json.dumps(example_json(example)))
    rebuilt = example_from_json(data)
    assert rebuilt == example and rebuilt.text() == example.text()


def complete(records: Path, task: Task, learner: Learner, config: LoopConfig) -> list[object]:
    teacher = ExactTeacher.from_regex(task.target or "", task.dialect, config=config.teacher_config)
    asyncio.run(run_recorded(task, learner, teacher, config, records))
    return lines(records)


def check_resumes(tmp_path: Path, task: Task, learner: Learner, config: LoopConfig) -> int:
    """Every truncation of a finished run's records (with a torn line) resumes to the same records."""
    whole = tmp_path / "whole.jsonl"
    expected = complete(whole, task, learner, config)
    text = whole.read_text()
    cuts = [i + 1 for i, c in enumerate(text) if c == "\n"][:-1]
    for cut in [0, *cuts]:
        part = tmp_path / f"part{cut}.jsonl"
        part.write_text(text[:cut] + text[cut : cut + 40].split("\n")[0][:40])  # a torn last line
        assert complete(part, task, learner, config) == expected
    return len(expected)


def test_a_resumed_run_ends_with_the_records_of_an_uninterrupted_one(tmp_path: Path) -> None:
    config = LoopConfig(teacher=TeacherConfig(batch=3, clustered=True), seed=5)
    assert check_resumes(tmp_path, Task("extended", "[A-Z][a-z]{1,2}"), UnionLearner(), config) > 3


def test_failed_epochs_and_budget_outcomes_resume_too(tmp_path: Path) -> None:
    config = LoopConfig(budgets=Budgets(epochs=4))
    assert check_resumes(tmp_path, Task("simple", "(a b)* c"), FailingLearner(), config) == 5


def test_a_finished_run_is_not_run_again_and_other_runs_share_the_file(tmp_path: Path) -> None:
    records = tmp_path / "runs.jsonl"
    task = Task("simple", "a b*")
    first = complete(records, task, UnionLearner(), LoopConfig(seed=1))
    assert complete(records, task, UnionLearner(), LoopConfig(seed=1)) == first
    both = complete(records, task, UnionLearner(), LoopConfig(seed=2))
    assert both[: len(first)] == first and len({r["run"] for r in both}) == 2  # type: ignore[index]
    shutil.copy(records, tmp_path / "copy.jsonl")
    assert complete(tmp_path / "copy.jsonl", task, UnionLearner(), LoopConfig(seed=2)) == both


def test_only_a_runs_closing_line_is_synced_to_disk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Epoch lines are written (a kill loses none); the run's line syncs them all to disk."""
    records = tmp_path / "runs.jsonl"
    synced: list[int] = []  # the file's line count at each sync
    sync = os.fsync

    def counting(handle: int) -> None:
        synced.append(len(records.read_text().splitlines()))
        sync(handle)

    monkeypatch.setattr(os, "fsync", counting)
    written = complete(
        records, Task("simple", "(a b)* c"), FailingLearner(), LoopConfig(budgets=Budgets(epochs=3))
    )
    assert [r["type"] for r in written] == ["epoch"] * 3 + ["run"]  # type: ignore[index]
    assert synced == [4]


def test_a_corrupt_records_file_is_a_records_error(tmp_path: Path) -> None:
    records = tmp_path / "runs.jsonl"
    complete(records, Task("simple", "a b*"), UnionLearner(), LoopConfig())
    records.write_text("{not json\n" + records.read_text())
    with pytest.raises(RecordsError, match=":1: not a JSON record"):
        complete(records, Task("simple", "a b*"), UnionLearner(), LoopConfig())


def test_a_lone_surrogate_in_a_string_is_written_and_read_back(tmp_path: Path) -> None:
    # Python strings may hold lone surrogates (the python dialect's universe is every code point);
    # UTF-8 cannot encode them, so the records escape them instead of failing to write.
    log = RecordLog(tmp_path / "runs.jsonl")
    example = Example("a\ud800b", True)
    log.append({"type": "epoch", "run": "r", "added": [example_json(example)]})
    (record,) = log.records("r")
    assert example_from_json(record["added"][0]) == example


def test_recorded_run_times_keep_compile_seconds_apart(tmp_path: Path) -> None:
    config = LoopConfig(budgets=Budgets(epochs=1))
    teacher = ExactTeacher.from_regex("a", "simple")
    path = tmp_path / "run.jsonl"
    ticks = itertools.count()
    asyncio.run(
        run_recorded(
            Task("simple", target="a"),
            CompilingLearner(),
            teacher,
            config,
            path,
            clock=lambda: float(next(ticks)),
        )
    )
    epoch = json.loads(path.read_text().splitlines()[0])
    assert (
        epoch["totals"]["compile_seconds"] >= 0.05
    )  # the learner's 0.05 s compiling, counted apart
    assert epoch["cost"]["seconds"] == 1.0
