"""User learners that break in a worker process: two raise a project exception whose constructor
takes more than a message (``tests.experiments.raising_learner:syntax_error``, ``...:state_limit``),
which must come back to the runner whole so only its own unit fails; one returns None
(``...:returns_none``) and one exits (``...:exits``), which must be logged as such."""

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


class NoneLearner:
    """Returns None instead of a proposal."""

    name = "none"

    async def propose(self, context: LearnerContext) -> Proposal:
        return None  # type: ignore[return-value]


class ExitingLearner:
    """Calls ``sys.exit(0)`` instead of proposing."""

    name = "exiting"

    async def propose(self, context: LearnerContext) -> Proposal:
        raise SystemExit(0)


def exits() -> ExitingLearner:
    """The learner that exits."""
    return ExitingLearner()


def returns_none() -> NoneLearner:
    """The learner returning None."""
    return NoneLearner()
