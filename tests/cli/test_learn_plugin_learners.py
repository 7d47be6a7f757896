"""A plug-in learner (``--learner module:factory``) is held to its protocol by ``learn``: what is
printed is the language the teacher judged, and a learner that raises, exits, is not async or
blocks ends the run with one line (exit code 2, or Ctrl-C's), never a traceback, a silent exit 0 or
a printed answer the teacher never saw (before: ``regex: zzz``, ``status: exact``; a
``BaseException`` of the learner's own, a ``CancelledError`` or ``GeneratorExit`` gave a traceback,
and a candidate's text went unchecked). The same checks hold in an experiment's units
(:mod:`tests.cegis.test_user_learner`)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main

ROOT = Path(__file__).resolve().parents[2]
MODULE = "tests.cli.plugin_learners"


def _learn(factory: str) -> tuple[int, str]:
    result = CliRunner().invoke(
        main, ["learn", "--target", "a*b", "--learner", f"{MODULE}:{factory}", "--max-epochs", "2"]
    )
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    return result.exit_code, result.output


@pytest.mark.parametrize(
    ("factory", "says"),
    [
        ("wrong_text", "propose returned the text 'zzz', which is not its regex 'a*b'"),
        ("number_text", "propose returned a text of type int, not str"),
        (
            "other_automaton",
            "propose returned an automaton that is not the language of its regex 'a*b'",
        ),
        ("exits", "propose raised SystemExit: 0"),
        ("value_error", "propose raised ValueError: bad things"),
        ("memory_error", "propose raised MemoryError"),
        ("recursion", "propose raised RecursionError: maximum recursion depth exceeded"),
        ("not_async", "propose returned Proposal without being awaited: define it as `async def"),
        ("custom_base", "propose raised Custom: not an Exception"),
        ("cancels", "propose raised CancelledError"),
        ("generator_exit", "propose raised GeneratorExit"),
        ("wrong_candidate", "propose returned the text 'b', which is not its regex 'a*b'"),
    ],
)
def test_a_broken_plugin_learner_is_one_line_and_exit_2(factory: str, says: str) -> None:
    code, output = _learn(factory)
    assert code == 2, output
    assert f"Error: the learner {MODULE}:{factory}: {says}" in output, output
    assert "regex:" not in output and "Traceback" not in output


@pytest.mark.parametrize(
    ("factory", "says"),
    [("factory_exits", "SystemExit: 0"), ("factory_custom", "Custom: no learner")],
)
def test_a_factory_that_exits_or_raises_a_base_exception_is_one_line(
    factory: str, says: str
) -> None:
    """Before: exit 0 with no output (SystemExit), or a traceback."""
    code, output = _learn(factory)
    assert code == 2, output
    assert f"Error: --learner: the learner {MODULE}:{factory}: its factory raised {says}" in output


def test_a_plugin_learners_regex_past_the_state_limit_is_the_loops_failure() -> None:
    """Its text cannot be checked against a regex that does not compile within the limit: the
    proposal goes to the loop, which meets the same limit as for any learner, and the run goes on."""
    code, output = _learn("too_large")
    assert code == 1 and "Error:" not in output, output
    assert "status:   not learned" in output, output


def test_a_plugin_learner_without_text_prints_its_regex() -> None:
    code, output = _learn("no_text")
    assert code == 0, output
    assert "regex:    a*b" in output and "status:   exact" in output, output


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process")
def test_ctrl_c_stops_a_blocking_plugin_learner() -> None:
    child = subprocess.Popen(
        [sys.executable, "-m", "cli", "learn", "--target", "a*b"]
        + ["--learner", f"{MODULE}:blocking"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stderr is not None
        assert child.stderr.readline() == "proposing\n"  # it is inside its blocking propose
        child.send_signal(signal.SIGINT)
        _, errors = child.communicate(timeout=30)  # a guard, not a timing test
    finally:
        child.kill()
    assert child.returncode == 1 and "Aborted!" in errors, errors
    assert "Traceback" not in errors
