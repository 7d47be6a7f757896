"""``learn`` against hostile input: each case below printed a traceback, ran out of memory, mixed two
runs or answered silently wrong before; now each is one line and exit code 2 (or the right answer)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main

ROOT = Path(__file__).resolve().parents[2]
LEARNERS = """
from cegis.registry import build

class Silent:
    name = "silent"
    async def propose(self, context):
        return None

def silent():
    return Silent()

def raising():
    raise RuntimeError("no learner today")
"""


def _run(*args: str, input: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), input=input)
    assert not isinstance(result.exception, Exception) or isinstance(
        result.exception, SystemExit
    ), result.exception
    return result.exit_code, result.output


@pytest.fixture
def learners(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "hostile_learners.py").write_text(LEARNERS, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("--seed", "-1"), "--seed"),
        (("--learner", "os:system"), "the learner os:system: its factory raised TypeError"),
        (
            ("--learner", "hostile_learners:raising"),
            "the learner hostile_learners:raising: its factory raised RuntimeError: no learner today",
        ),
        (
            ("--learner", "hostile_learners:silent"),
            "propose returned NoneType, not a cegis.Proposal",
        ),
    ],
)
@pytest.mark.usefixtures("learners")
def test_a_bad_learner_or_seed_exits_2(args: tuple[str, ...], says: str) -> None:
    code, output = _run("learn", "--target", "ab*", *args)
    assert code == 2 and says in output, output


def test_standard_input_is_not_read_twice() -> None:
    code, output = _run("learn", "--positives", "-", "--negatives", "-", input="a\nb\n")
    assert code == 2 and "both read standard input" in output, output


@pytest.mark.parametrize("option", ["--positives", "--examples"])
def test_an_endless_file_is_refused_at_the_cap(option: str) -> None:
    code, output = _run("learn", option, "/dev/zero")
    assert code == 2 and "/dev/zero holds more than 67,108,864 bytes" in output, output


def test_endless_standard_input_is_refused_at_the_cap() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with subprocess.Popen(["yes"], stdout=subprocess.PIPE) as endless:
        done = subprocess.run(
            [sys.executable, "-m", "cli", "learn", "--positives", "-"], stdin=endless.stdout, cwd=ROOT, env=env,
            capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        endless.kill()
    assert done.returncode == 2 and "standard input holds more than" in done.stderr, done.stderr


def test_a_records_path_that_is_no_regular_file_is_refused() -> None:
    code, output = _run("learn", "--target", "ab*", "--records", "/dev/zero")
    assert code == 2 and "/dev/zero is not a regular file" in output, output


def test_a_records_file_is_one_run_at_a_time(tmp_path: Path) -> None:
    from experiments.lock import records_lock

    records = tmp_path / "runs.jsonl"
    with records_lock(records):  # as a first `learn --records` still running holds it
        code, output = _run("learn", "--target", "ab*", "--records", str(records))
    assert code == 2 and "is in use by another run" in output, output
    assert not records.exists()
    assert (
        _run("learn", "--target", "ab*", "--records", str(records))[0] == 0
    )  # released: the next one runs


def test_the_empty_regex_is_printed_not_none() -> None:
    code, output = _run("learn", "--target", "", "--json")
    report = json.loads(output)
    assert code == 0 and report["regex"] == "" and report["exact"], output
    code, output = _run("learn", "--target", "")
    assert code == 0 and "(none)" not in output and "matches the empty string only" in output, (
        output
    )
    code, output = _run("learn", "--target", "", "--flavor", "javascript", "--json")
    assert json.loads(output)["regex"] == "^$", output
