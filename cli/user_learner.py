"""A learner the user names as ``package.module:factory``, built and held to its protocol.

A user's code may fail where the registry's learners cannot: a factory that needs arguments or
raises, a ``propose`` that returns something other than a :class:`cegis.Proposal`. Each is the
user's to fix, so each is one :class:`BadInput` line naming the factory (exit code 2), never a
traceback from deep inside the loop: :func:`user_spec` builds the factory once (the learner it
hands out), and :class:`Checked` wraps the learner so a wrong answer stops the run with its type.
"""

from __future__ import annotations

from typing import Any

from cegis.learner import LearnerContext, Proposal
from cegis.registry import REGISTRY, LearnerSpec, UnknownLearner, spec
from cli.errors import BadInput


class BrokenLearner(Exception):
    """A user's learner answered outside its protocol."""


def user_spec(name: str) -> LearnerSpec:
    """The spec of learner ``name``; BadInput when it is unknown or its factory fails."""
    try:
        return spec(name)
    except UnknownLearner as error:
        raise BadInput(f"--learner: {error}") from None
    except Exception as error:  # noqa: BLE001 - the user's factory may raise anything
        raise _failed(name, error) from None


class Checked:
    """``learner`` (built by ``factory``) whose every proposal is checked to be a Proposal."""

    def __init__(self, learner: Any, factory: str) -> None:
        self._learner = learner
        self._factory = factory

    @property
    def name(self) -> str:
        return str(self._learner.name)

    async def propose(self, context: LearnerContext) -> Proposal:
        proposal = await self._learner.propose(context)
        if not isinstance(proposal, Proposal):
            raise BrokenLearner(
                f"the learner {self._factory}: propose returned {type(proposal).__name__}, not a cegis.Proposal"
            )
        return proposal

    def __getattr__(self, name: str) -> Any:
        return getattr(self._learner, name)


def built(chosen: LearnerSpec) -> Any:
    """The learner of ``chosen`` (a user's, built once by :func:`user_spec`, wrapped in :class:`Checked`)."""
    name = chosen.name
    try:
        learner = chosen.build()
    except Exception as error:  # noqa: BLE001 - the user's factory may raise anything
        raise _failed(name, error) from None
    return learner if name in REGISTRY else Checked(learner, name)


def _failed(name: str, error: Exception) -> BadInput:
    return BadInput(f"--learner: the factory {name} failed: {type(error).__name__}: {error}")
