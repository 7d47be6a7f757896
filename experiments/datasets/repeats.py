"""Repeated words beside a literal: ``(w)+|v`` and ``((w){k})+|v`` in the extended dialect.

The targets where a teacher of loop-free paths shows one more copy of the unit an epoch, and past
``max_len`` none at all: ``(xy)+|Q7r`` was printed unrolled sixteen times for twelve epochs. Each
word is drawn from this module's own seeded generator over the extended dialect's universe
``[A-Za-z0-9#]``, so the row is the same on every machine and nobody tuned a learner to its words.
"""

from __future__ import annotations

import random

from experiments.datasets.task import Task, make_task
from regexlang import parse, universe

#: Targets in the row, half of each form.
SIZE = 20

#: Seed of the words.
SEED = 36

_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789#"


def repeated_units(size: int = SIZE, seed: int = SEED) -> tuple[Task, ...]:
    """``size`` targets, alternately ``(w)+|v`` (``w`` of 1-4 characters) and ``((w){k})+|v``
    (``w`` of 1-3 characters, ``k`` of 2-3), ``v`` a word of 2-5 characters that is no repetition of ``w``."""
    rng = random.Random(seed)
    sigma = universe("extended")
    tasks = []
    for index in range(size):
        counted = index % 2 == 1
        unit = _word(rng, 1, 3 if counted else 4)
        other = _word(rng, 2, 5)
        while other.replace(unit, "") == "":
            other = _word(rng, 2, 5)
        text = f"(({unit}){{{rng.randint(2, 3)}}})+|{other}" if counted else f"({unit})+|{other}"
        task, _ = make_task(
            f"repeats-{index + 1}",
            parse(text, "extended", sigma),
            text,
            "extended",
            sigma,
            "repeats",
        )
        tasks.append(task)
    return tuple(tasks)


def _word(rng: random.Random, shortest: int, longest: int) -> str:
    return "".join(rng.choice(_LETTERS) for _ in range(rng.randint(shortest, longest)))
