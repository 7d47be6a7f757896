"""A construction's deadline leaves out the seconds numba spends compiling or loading kernels."""

from __future__ import annotations

import time

import pytest

from automata.building.deadline import Deadline
from automata.errors import TimeLimitExceeded
from automata.jit import compile_time


def test_a_deadline_stands_still_while_kernels_compile() -> None:
    deadline = Deadline.after(1.0)
    with compile_time.compiling():  # as a fresh process loading its kernels would
        time.sleep(1.2)
    assert 0 < deadline.left() <= 1.0
    deadline.check("the analysis")


def test_a_deadline_passes_with_the_time_spent_outside_compiling() -> None:
    deadline = Deadline.after(0.05)
    time.sleep(0.06)
    assert deadline.left() < 0
    with pytest.raises(TimeLimitExceeded, match="the analysis"):
        deadline.check("the analysis")
