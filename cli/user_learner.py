"""The learner ``learn --learner`` names, as one :class:`BadInput` line when it cannot be had.

A name is a registered learner or a user's ``package.module:factory``, which
:func:`cegis.registry.spec` builds once and wraps in :class:`cegis.user_learner.Checked`, so its
proposals are held to the protocol here as in an experiment's units. A name that cannot be loaded
and a factory that raises or exits are one line each (exit code 2), never a traceback or a silent
exit.
"""

from __future__ import annotations

from cegis.errors import BrokenLearner
from cegis.registry import LearnerSpec, UnknownLearner, spec
from cli.errors import BadInput


def user_spec(name: str) -> LearnerSpec:
    """The spec of learner ``name``; BadInput when it is unknown or its factory fails."""
    try:
        return spec(name)
    except (UnknownLearner, BrokenLearner) as error:
        raise BadInput(f"--learner: {error}") from None
