"""The state-merging learners learn the same thing with their kernels run as plain
Python as with them compiled (see :mod:`automata.jit._jit`): every epoch's hypothesis and examples."""

from __future__ import annotations

import asyncio

import pytest

from automata.jit import _jit
from cegis.config import Budgets, LoopConfig
from cegis.loop import run
from cegis.registry import build
from cegis.setup import exact_setting
from oracle import TeacherConfig

_TARGETS = [("[0-9]{5}(-[0-9]{4})?", "python"), ("a (b + c)* a + b", "simple")]


def _trajectory(learner: str, target: str, dialect: str) -> list[tuple[str | None, int]]:
    config = LoopConfig(
        teacher=TeacherConfig(batch=20, clustered=True), budgets=Budgets(epochs=6), seed=0
    )
    task, teacher = exact_setting(target, dialect, config)  # type: ignore[arg-type]
    state = asyncio.run(run(task, build(learner), teacher, config))
    return [(record.proposal_text, len(record.added)) for record in state.records]


@pytest.mark.parametrize("learner", ["symbolic", "edsm", "rpni"])
@pytest.mark.parametrize("target, dialect", _TARGETS)
def test_python_and_compiled_kernels_learn_alike(learner: str, target: str, dialect: str) -> None:
    with _jit.forced("python"):
        python = _trajectory(learner, target, dialect)
    with _jit.forced("compiled"):
        compiled = _trajectory(learner, target, dialect)
    assert python == compiled
