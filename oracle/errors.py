"""The errors of the teacher layer (``oracle``), under one base class :class:`OracleError`.

A teacher's answers are values (:class:`oracle.protocol.Verdict` with typed ``Issue`` s); these
exceptions are kept for what no answer can express: a teacher contradicting itself, a draw whose
table would not fit in memory. Every one survives pickling whole (message and fields), because a
teacher runs in the experiment runner's worker processes and its errors travel back to the runner.
"""

from __future__ import annotations

from typing import Any


class OracleError(Exception):
    """Base class of every exception raised by ``oracle``."""

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt from ``args`` and the fields without calling ``__init__``, so a subclass may
        # format its message from fields of its own.
        return (type(self).__new__, (type(self), *self.args), self.__dict__)


class ContradictoryTeacher(OracleError, ValueError):
    """A teacher gave back an example with the opposite of the label it gave before."""


class SearchTooLarge(OracleError):
    """A draw would need a table larger than :data:`oracle.draws.MAX_TABLE_CELLS`."""
