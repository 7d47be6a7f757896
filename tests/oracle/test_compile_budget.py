"""A hypothesis or target whose lookaround construction outlasts the compile budget is an issue of
its verdict, in seconds, not a compile that holds its run for minutes (issue 50, item 6)."""

from __future__ import annotations

import subprocess
import sys

from oracle.compiling import compile_subject
from regexlang.dialects import universe

#: Thirty lookaheads over one class: far below the state limit, ten minutes to determinize.
THIRTY_LOOKAHEADS = "".join(f"(?=.*{chr(97 + k % 26)}{k % 10})" for k in range(30)) + "[a-z0-9]*"


def test_a_lookaround_past_the_budget_is_a_resource_limit_issue() -> None:
    compiled = compile_subject(
        THIRTY_LOOKAHEADS,
        "hypothesis",
        dialect="python",
        universe=universe("python"),
        state_limit=100_000,
        seconds=0.5,
    )
    assert compiled.dfa is None
    assert [issue.kind for issue in compiled.issues] == ["resource_limit"]
    assert "budget" in compiled.issues[0].detail


def test_within_the_budget_the_same_call_compiles() -> None:
    compiled = compile_subject(
        "(?=.*[0-9])[a-z0-9]{3}",
        "hypothesis",
        dialect="python",
        universe=universe("python"),
        state_limit=100_000,
        seconds=30.0,
    )
    assert compiled.dfa is not None and not compiled.issues


def test_the_regex_command_stops_at_its_seconds_with_one_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cli", "regex", THIRTY_LOOKAHEADS, "--seconds", "0.5"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1 and "budget" in done.stderr
