"""A plug-in learner that answers with a regex a backtracking engine runs in exponential time,
for ``learn --learner tests.cli.redos_learners:nested`` (:mod:`tests.cli.test_learn_redos`)."""

from __future__ import annotations

from cegis.learner import LearnerContext, Proposal
from regexlang import parse

#: Exactly ``a+b``, printed so that ``re`` backtracks exponentially on ``aaa…a``.
NESTED = "(?:a+)+b"


class Nested:
    """A learner whose every proposal is :data:`NESTED`."""

    name = "nested"

    async def propose(self, context: LearnerContext) -> Proposal:
        return Proposal(regex=parse(NESTED, context.dialect, context.universe), text=NESTED)


def nested() -> Nested:
    """The learner answering :data:`NESTED`."""
    return Nested()
