"""Compile time is accounted apart: numba's compile events stop :func:`compile_time.clock`, add up in
:func:`compile_time.compile_seconds`, and the first one prints one line on stderr."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from automata.jit import compile_time

_ROOT = Path(__file__).resolve().parents[2]


def test_the_clock_stands_still_while_numba_compiles() -> None:
    with compile_time.compiling():
        during = [compile_time.clock() for _ in range(1000)]
    assert len(set(during)) == 1
    assert compile_time.clock() > during[0]


def test_compile_seconds_grow_by_the_compilation(monkeypatch: pytest.MonkeyPatch) -> None:
    ticks = iter([10.0, 12.5])
    before = compile_time.compile_seconds()
    monkeypatch.setattr("automata.jit.compile_time.time.perf_counter", lambda: next(ticks))
    with compile_time.compiling():
        pass
    assert compile_time.compile_seconds() - before == 2.5


def test_waiting_for_another_process_compiling_counts_but_says_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    said: list[str] = []
    monkeypatch.setattr(compile_time, "_tell", lambda: said.append("compiling"))
    before = compile_time.compile_seconds()
    with compile_time.compiling(announce=False):
        pass
    assert said == [] and compile_time.compile_seconds() > before
    with compile_time.compiling():  # a compilation of this process's own is said
        pass
    assert said == ["compiling"]


# A kernel numba has never seen (no cache: compiled in memory), forced to compile, twice.
_PROBE = """
import numba
from automata.jit import _jit, compile_time
_jit._register_with_numba()
for n in (1, 2):
    numba.njit(lambda x: x + n)(1)
print(compile_time.compile_seconds() > 0)
"""


def test_a_real_compilation_is_announced_once_and_counted() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE],
        cwd=_ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(_ROOT)},
    )
    assert done.stdout.strip() == "True"
    assert done.stderr.count(compile_time.MESSAGE) == 1
