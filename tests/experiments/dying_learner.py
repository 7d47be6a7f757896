"""A user's learner whose worker process dies on its first proposal (as ``os._exit`` in user code,
or the OOM killer, ends one): the runner tests name it as ``tests.experiments.dying_learner:dying``."""

from __future__ import annotations

import os

from cegis.learner import LearnerContext, Proposal


class Dying:
    """Ends its process instead of proposing."""

    name = "dying"

    async def propose(self, context: LearnerContext) -> Proposal:
        os._exit(3)


def dying() -> Dying:
    """The learner."""
    return Dying()
