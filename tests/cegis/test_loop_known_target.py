"""A run builds its target's DFA and evaluation set once and owns them: however many runs share
one event loop, none rebuilds them per epoch (a process-wide cache of 64 entries thrashed above 64
concurrent runs, rebuilding nearly every epoch's evaluation set)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import cegis.loop
import oracle.evaluation
from cegis.config import Budgets, LoopConfig
from cegis.loop import run
from cegis.state import Task
from oracle import ExactTeacher, TeacherConfig
from regexlang import parse
from tests.cegis.support import FixedLearner

RUNS = 70  # more than the old cache's 64 entries
EPOCHS = 2


def test_each_run_builds_its_evaluation_set_once_however_many_run_together(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    built: list[int] = []
    real = oracle.evaluation.evaluation_set

    def counted(*args: Any, **kwargs: Any) -> Any:
        built.append(kwargs["seed"])
        return real(*args, **kwargs)

    monkeypatch.setattr(cegis.loop, "evaluation_set", counted)
    task = Task("simple", "(a b)* c")
    wrong = FixedLearner(parse("a* c", "simple"), "a* c")

    async def one(seed: int) -> int:
        config = LoopConfig(
            teacher=TeacherConfig(eval_size=16), seed=seed, budgets=Budgets(epochs=EPOCHS)
        )
        teacher = ExactTeacher.from_regex("(a b)* c", "simple", config=config.teacher_config)
        state = await run(task, wrong, teacher, config)
        return sum(record.scores is not None for record in state.records)

    async def all_runs() -> list[int]:
        return await asyncio.gather(*(one(seed) for seed in range(RUNS)))

    scored = asyncio.run(all_runs())
    assert scored == [EPOCHS] * RUNS  # every epoch was scored
    assert sorted(built) == list(range(RUNS))  # one evaluation set per run
