"""Typed errors of the dataset layer, each naming the file and where to get it.

A dataset that is missing or does not read as expected is a problem of the user's setup, not a bug:
the message says which path was read, what was wrong with it, and where the files come from, so
it can be fixed without reading code. A generator that cannot fill its grid says which cells fell
short, since asking for more tasks than a cell can hold is a choice of parameters.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from experiments.quoting import QUOTED, shortened


class DatasetError(Exception):
    """Base class of every error of :mod:`experiments.datasets`."""

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt from ``args`` and the fields without calling ``__init__``, whose parameters are
        # not ``args``: a dataset read in a worker process must report its error whole.
        return (type(self).__new__, (type(self), *self.args), self.__dict__)


class DatasetNotFound(DatasetError):
    """A dataset file is not where a loader was told to look."""

    def __init__(self, path: Path, origin: str) -> None:
        self.path = path
        self.origin = origin
        super().__init__(f"dataset file not found: {path}. {origin}")


class MalformedDataset(DatasetError):
    """A dataset file exists but does not have the expected shape; ``where`` locates the problem.
    ``problem`` is cut to a few lines' worth: it may quote the file's text."""

    def __init__(self, path: Path, where: str, problem: str, origin: str) -> None:
        self.path = path
        self.where = where
        self.problem = shortened(problem, 4 * QUOTED)
        self.origin = origin
        super().__init__(f"malformed dataset file {path} ({where}): {self.problem}. {origin}")


class GenerationShortfall(DatasetError):
    """The generator ran out of attempts before every cell of its grid had its quota."""

    def __init__(self, missing: dict[tuple[int, int], int], attempts: int) -> None:
        self.missing = missing
        cells = ", ".join(
            f"(#States {s}, StarDepth {d}): {n} short" for (s, d), n in sorted(missing.items())
        )
        super().__init__(
            f"after {attempts} attempts these cells are not full: {cells}; "
            "raise max_attempts or max_leaves, or ask for fewer tasks per cell"
        )
