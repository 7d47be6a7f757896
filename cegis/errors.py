"""The errors of the learning layer (``cegis``), under one base class :class:`CegisError`.

Outcomes of a run are values, never exceptions; these are the caller's mistakes (a learner name
that does not exist, examples that contradict each other, a records file that cannot be resumed)
and the learners' own signals. Every one survives pickling whole, message and fields, because a
learner runs in a worker process of the experiment runner and its exception travels back to the
runner: one that cannot be rebuilt there breaks the pool and strands every unit in flight.
"""

from __future__ import annotations

from typing import Any


class CegisError(Exception):
    """Base class of every exception raised by ``cegis``."""

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt from ``args`` and the fields without calling ``__init__``, whose parameters
        # are not ``args`` in the subclasses that format their message.
        return (type(self).__new__, (type(self), *self.args), self.__dict__)


class RecordsError(CegisError, ValueError):
    """A records file that cannot be resumed from: a malformed line, or epochs out of order."""


class LLMSetupError(CegisError, ValueError):
    """An LLM run that cannot be set up as asked (the message says what is missing)."""


class LearnerExited(CegisError):
    """A learner's ``propose`` raised ``SystemExit``: the learner is not the program, so its exit is
    its own failure, never a silent end of the command or of an experiment's other units."""


class BrokenLearner(CegisError):
    """A user's learner (``module:factory``) answered outside its protocol or failed: it raised or
    exited, was not async, or printed a text (or carried an automaton) of another language than its
    regex. The message names the factory and what went wrong (:mod:`cegis.user_learner`)."""


class NotAProposal(CegisError, TypeError):
    """A learner's ``propose`` returned something other than a :class:`cegis.learner.Proposal`
    (``None``, a string): the loop names the learner and the type instead of failing on a field."""


class UnknownLearner(CegisError, LookupError):
    """A learner name that is neither registered nor an importable ``module:factory``."""


class GivenExamplesError(CegisError, ValueError):
    """Labeled strings that cannot be used: a malformed row, a blank line, a contradiction."""


class ContradictoryExamples(CegisError, ValueError):
    """A string given both as a positive and as a negative example."""


class Contradiction(CegisError, ValueError):
    """The examples label one string (or strings no leaf can tell apart) both ways (the enumerative
    learner's signature space)."""


class TooLong(CegisError, ValueError):
    """An example string is longer than a signature row of the enumerative learner holds."""


class LabelConflict(CegisError):
    """Two examples (by index) with different labels end in one state of the merging learner's
    prefix tree when example ``inserting`` is added (it is one of the two, or its tied classes made
    them meet)."""

    def __init__(self, first: int, second: int, inserting: int) -> None:
        super().__init__(f"examples {first} and {second} end in one state with different labels")
        self.first, self.second, self.inserting = first, second, inserting
