"""A user's learner whose worker process dies on its first proposal (as ``os._exit`` in user code,
or the OOM killer, ends one): the runner tests name it as ``tests.experiments.dying_learner:dying``.
With ``$DYING_LEARNER_DEATHS`` naming a folder, it notes its death there first, and the
``...:witness`` learner waits for that note before it learns: a healthy unit surely in flight in
the pool the death breaks."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from cegis.learner import LearnerContext, Proposal
from cegis.registry import build

DEATHS = "DYING_LEARNER_DEATHS"


class Dying:
    """Ends its process instead of proposing."""

    name = "dying"

    async def propose(self, context: LearnerContext) -> Proposal:
        folder = os.environ.get(DEATHS)
        if folder:
            Path(folder, "died").touch()
        os._exit(3)


class Witness:
    """Waits (a minute at most) for a dying learner's death, then learns as the symbolic learner."""

    name = "witness"

    async def propose(self, context: LearnerContext) -> Proposal:
        died = Path(os.environ[DEATHS], "died")
        for _ in range(600):
            if died.exists():
                break
            await asyncio.sleep(0.1)
        proposal: Proposal = await build("symbolic").propose(context)
        return proposal


def dying() -> Dying:
    """The learner."""
    return Dying()


def witness() -> Witness:
    """The learner that waits for a death."""
    return Witness()
