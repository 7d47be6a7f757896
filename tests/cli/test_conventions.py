"""The command line's conventions (click's, grex's): ``-h`` and ``--version`` on every command,
example strings inline, a blank line never read as the empty string, membership queries shown,
the console script importing from the working directory as ``python -m cli`` does, and a reader
that closes standard output early is no error."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.bench import BENCHMARKS
from cli.main import COMMANDS, main

ROOT = Path(__file__).resolve().parents[2]
COMMAND_LINES = [[], *([name] for name in COMMANDS), *(["bench", name] for name in BENCHMARKS)]


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    assert not isinstance(result.exception, Exception) or isinstance(
        result.exception, SystemExit
    ), result.exception
    return result.exit_code, result.output


@pytest.mark.parametrize("command", COMMAND_LINES, ids=lambda c: " ".join(c) or "top")
def test_every_command_has_h_and_version(command: list[str]) -> None:
    code, output = _run(*command, "-h")
    assert code == 0 and output.startswith("Usage:"), output
    code, output = _run(*command, "--version")
    assert code == 0 and output.split()[-1] == metadata.version("regex-cegis"), output


def test_examples_can_be_given_inline_and_added_to_a_file(tmp_path: Path) -> None:
    negatives = tmp_path / "bad.txt"
    negatives.write_text("1234\n123456\n", encoding="utf-8")
    args = [
        "learn",
        "--positive",
        "12345",
        "--positive",
        "98765",
        "--negative",
        "abcde",
        "--negatives",
        str(negatives),
        "--json",
    ]
    code, output = _run(*args)
    report = json.loads(output)
    assert code == 0 and report["consistent"] and report["examples"] == 5, output
    assert re.fullmatch(report["regex"], "55555") and not re.fullmatch(report["regex"], "abcde")


def test_a_blank_line_in_a_strings_file_is_refused_naming_it(tmp_path: Path) -> None:
    positives = tmp_path / "good.txt"
    positives.write_text("ab\n\nabb\n", encoding="utf-8")
    code, output = _run("learn", "--positives", str(positives), "--negative", "b")
    assert code == 2 and "line 2 is blank" in output and "--positive ''" in output, output
    code, output = _run("learn", "--help")
    assert "A blank line" in output and "--positive ''" in output


def test_the_empty_string_is_given_explicitly() -> None:
    code, output = _run("learn", "--positive", "", "--positive", "ab", "--negative", "a", "--json")
    report = json.loads(output)
    assert code == 0 and report["consistent"], output
    assert (
        re.fullmatch(report["regex"], "")
        and re.fullmatch(report["regex"], "ab")
        and not re.fullmatch(report["regex"], "a")
    )


def test_the_text_output_shows_membership_queries() -> None:
    code, output = _run("learn", "--target", "a(b|c)*", "--learner", "lstar")
    assert code == 0 and "queries:" in output and "membership queries" in output, output
    code, output = _run("learn", "--target", "a(b|c)*", "--learner", "rpni")
    assert "queries:" not in output  # none asked, nothing to show


def test_the_console_script_finds_a_learner_in_the_working_directory(tmp_path: Path) -> None:
    (tmp_path / "my_learners.py").write_text(
        "from cegis.registry import build\n\ndef Lengths():\n    return build('union')\n",
        encoding="utf-8",
    )
    script = (
        tmp_path / "bin" / "regex-cegis"
    )  # a console script: its own folder, not the working one, is sys.path[0]
    script.parent.mkdir()
    script.write_text("import sys\nfrom cli.main import main\nsys.exit(main())\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    args = [
        sys.executable,
        str(script),
        "learn",
        "--target",
        "ab",
        "--learner",
        "my_learners:Lengths",
        "--json",
    ]
    done = subprocess.run(args, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and json.loads(done.stdout)["learner"] == "my_learners:Lengths", (
        done.stderr
    )


def test_a_reader_that_closes_stdout_early_is_not_an_error() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    args = [sys.executable, "-m", "cli", "learn", "--target", "ab"]
    process = subprocess.Popen(
        args, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # as `| head -0` would: every line written finds the pipe closed
    errors = process.stderr.read().decode()
    assert process.wait(timeout=300) == 0, errors
    assert "Traceback" not in errors and "Error" not in errors, errors
