"""The learner ``learn --learner`` names, as one :class:`BadInput` line when it cannot be had.

A name is a registered learner or a user's ``package.module:factory``; a factory may need
arguments, raise or even exit, and each is one line naming the factory (exit code 2), never a
traceback or a silent exit. :func:`user_spec` builds the factory once (the learner it hands out,
which :func:`cegis.registry.spec` wraps in :class:`cegis.user_learner.Checked`, so its proposals
are held to the protocol here as in an experiment's units).
"""

from __future__ import annotations

from typing import Any

from cegis.registry import LearnerSpec, UnknownLearner, spec
from cegis.user_learner import described
from cli.errors import BadInput


def user_spec(name: str) -> LearnerSpec:
    """The spec of learner ``name``; BadInput when it is unknown or its factory fails."""
    try:
        return spec(name)
    except UnknownLearner as error:
        raise BadInput(f"--learner: {error}") from None
    except (Exception, SystemExit) as error:  # noqa: BLE001 - the user's factory may raise anything
        raise _failed(name, error) from None


def built(chosen: LearnerSpec) -> Any:
    """The learner of ``chosen`` (a user's is the one :func:`user_spec` built)."""
    try:
        return chosen.build()
    except (Exception, SystemExit) as error:  # noqa: BLE001 - the user's factory may raise anything
        raise _failed(chosen.name, error) from None


def _failed(name: str, error: BaseException) -> BadInput:
    return BadInput(f"--learner: the factory {name} failed: {described(error)}")
