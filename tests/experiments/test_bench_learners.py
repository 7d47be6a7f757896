"""The learners benchmark: a run in each protocol reaches the target, its JSON record carries the
job and the measurements, and the table reports it under its StarDepth."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from experiments.bench.learners import Job, load, result_json, run_job, slowest, table
from experiments.datasets.task import make_task
from regexlang import parse, universe

EXTENDED = universe("extended")
TASK, _ = make_task(
    "t", parse("[A-Z][a-z]*#", "extended", EXTENDED), "[A-Z][a-z]*#", "extended", EXTENDED, "test"
)


@pytest.mark.parametrize("protocol", ["paper", "shortest", "plain"])
def test_a_run_learns_and_its_record_reads_back(protocol: str) -> None:
    result = run_job(Job("symbolic", "extended", TASK, protocol, 0))  # type: ignore[arg-type]
    assert result.success and result.outcome == "equivalent" and result.membership_queries == 0
    record = json.loads(json.dumps(result_json(result)))
    assert (
        record["target"] == "[A-Z][a-z]*#"
        and record["protocol"] == protocol
        and record["star_depth"] == 1
    )
    assert record["examples"] == result.examples and record["success"] is True
    assert (
        record["hypothesis"] == result.hypothesis and record["hypothesis"]
    )  # what was learned, to compare versions
    assert 0 < record["learner_seconds"] <= record["seconds"] and record["cpu_seconds"] > 0
    rows = table([result]).splitlines()
    assert any(row.split()[3] == "1" and "100.0%" in row for row in rows[2:])
    assert "[A-Z][a-z]*#" in slowest([result])


def test_kb13_is_reported_as_the_development_set() -> None:
    result = run_job(Job("symbolic", "kb13", TASK, "paper", 0))
    assert any(row.split()[1] == "kb13-dev" for row in table([result]).splitlines()[2:])


def test_the_first_nl_rx_draw_is_reported_as_development_and_a_second_is_held_out(
    shared_data: Path,
) -> None:
    developed, new = load("nl-rx", shared_data), load("nl-rx-new", shared_data)
    assert len(developed) == len(new) == 40 and not {t.target for t in developed} & {
        t.target for t in new
    }
    result = run_job(Job("symbolic", "nl-rx", TASK, "paper", 0))
    assert any(row.split()[1] == "nl-rx-dev" for row in table([result]).splitlines()[2:])
