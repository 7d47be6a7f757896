"""User learners that raise a project exception whose constructor takes more than a message (a
regex syntax error, a state limit): the runner tests name them as
``tests.experiments.raising_learner:syntax_error`` and ``...:state_limit``. Raised in a worker
process, the exception must come back to the runner whole, so only its own unit fails."""

from __future__ import annotations

from automata.errors import StateLimitExceeded
from cegis.learner import LearnerContext, Proposal
from regexlang import parse


class SyntaxErrorLearner:
    """Raises the parser's error for ``(a``."""

    name = "syntax-error"

    async def propose(self, context: LearnerContext) -> Proposal:
        parse("(a", "simple")
        raise AssertionError("unreachable: '(a' does not parse")


class StateLimitLearner:
    """Raises a state limit error."""

    name = "state-limit"

    async def propose(self, context: LearnerContext) -> Proposal:
        raise StateLimitExceeded("the learner's DFA", 10)


def syntax_error() -> SyntaxErrorLearner:
    """The learner raising a syntax error."""
    return SyntaxErrorLearner()


def state_limit() -> StateLimitLearner:
    """The learner raising a state limit error."""
    return StateLimitLearner()
