"""User learners that break in a worker process: two raise a project exception whose constructor
takes more than a message (``tests.experiments.raising_learner:syntax_error``, ``...:state_limit``),
which must come back to the runner whole so only its own unit fails; one raises a class of its own
that does not unpickle (``...:unpickling``), which must fail its own units only; one returns None
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


class TwoPartError(Exception):
    """A user's exception whose ``__init__`` needs more than its ``args``: it pickles but does not
    unpickle, so it cannot come back from a worker process as itself."""

    def __init__(self, what: str, why: str) -> None:
        super().__init__(f"{what} failed: {why}")


class UnpicklingLearner:
    """Raises :class:`TwoPartError`."""

    name = "unpickling"

    async def propose(self, context: LearnerContext) -> Proposal:
        raise TwoPartError("propose", "a user bug")


def unpickling() -> UnpicklingLearner:
    """The learner raising an exception that does not unpickle."""
    return UnpicklingLearner()
