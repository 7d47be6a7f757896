"""A user's learner whose worker process dies the first time each unit proposes, then learns as
the symbolic learner does: the Ray tests name it as ``tests.experiments.dying_once_learner:dying_once``.

Whether a unit has died already is a file in the folder ``$DYING_ONCE_DIR`` names, keyed by the
unit's first context (its seed and initial examples), so the attempt that runs after the death,
in whatever process, proposes instead of dying; a run whose files exist never dies.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from cegis.learner import LearnerContext, Proposal
from cegis.registry import build

FOLDER = "DYING_ONCE_DIR"


class DyingOnce:
    """Ends its process on a unit's first proposal, once; otherwise the symbolic learner."""

    name = "dying-once"

    async def propose(self, context: LearnerContext) -> Proposal:
        if context.previous is None:
            key = hashlib.sha256(repr((context.seed, context.examples)).encode()).hexdigest()
            died = Path(os.environ[FOLDER]) / key
            if not died.exists():
                died.touch()
                os._exit(3)
        proposal: Proposal = await build("symbolic").propose(context)
        return proposal


def dying_once() -> DyingOnce:
    """The learner."""
    return DyingOnce()
