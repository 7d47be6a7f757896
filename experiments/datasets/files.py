"""Reading dataset files at the edge: every way a file can be missing or unreadable becomes a
:class:`DatasetError` that names the path and where the file comes from.

Loaders read a whole file with :func:`read_text` and parse each target with :func:`parse_target`,
so a bad line is reported with its location instead of surfacing as a bare ``RegexSyntaxError``
from deep inside a run.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TypeAlias

from experiments.datasets.errors import DatasetNotFound, MalformedDataset
from experiments.quoting import excerpt
from experiments.regular_file import FileTooLarge, NotRegularFile, read_regular
from regexlang import CharSet, Dialect, RegexError, parse
from regexlang.ast import Regex

#: A path as the loaders take it: a ``Path`` or a string (they are public API, called from scripts).
StrPath: TypeAlias = str | os.PathLike[str]

#: The largest dataset file read (the largest the papers use, KB13's, is under 100 kB).
MAX_DATASET_BYTES = 64 * 1024 * 1024


def read_text(path: StrPath, origin: str) -> str:
    """The UTF-8 text of ``path``, a regular file of at most :data:`MAX_DATASET_BYTES`; ``origin``
    says where the file comes from, for the error message. Opened without blocking, so a FIFO (or
    a device) is refused at once instead of waiting forever for a writer."""
    path = Path(path)
    try:
        data = read_regular(path, MAX_DATASET_BYTES)
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
        raise DatasetNotFound(path, origin) from None  # where a loader looks for a file
    except OSError as error:
        problem = error.strerror if isinstance(error, NotRegularFile | FileTooLarge) else None
        raise MalformedDataset(
            path, "the file", problem or f"cannot be read: {error.strerror}", origin
        ) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise MalformedDataset(path, f"byte {error.start}", "not UTF-8 text", origin) from None


def parse_target(
    text: str, dialect: Dialect, alphabet: CharSet | None, path: Path, where: str, origin: str
) -> Regex:
    """``text`` parsed in ``dialect``, or a ``MalformedDataset`` locating the line that does not parse."""
    try:
        return parse(text, dialect, alphabet)
    except RegexError as error:
        raise MalformedDataset(
            path, where, f"{excerpt(text)} is not a {dialect} regex: {error}", origin
        ) from None
