"""Reading dataset files at the edge: every way a file can be missing or unreadable becomes a
:class:`DatasetError` that names the path and where the file comes from.

Loaders read a whole file with :func:`read_text` and parse each target with :func:`parse_target`,
so a bad line is reported with its location instead of surfacing as a bare ``RegexSyntaxError``
from deep inside a run.
"""

from __future__ import annotations

from pathlib import Path

from experiments.datasets.errors import DatasetNotFound, MalformedDataset
from regexlang import CharSet, Dialect, RegexError, parse
from regexlang.ast import Regex


def read_text(path: Path, origin: str) -> str:
    """The UTF-8 text of ``path``; ``origin`` says where the file comes from, for the error message."""
    try:
        return path.read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
        raise DatasetNotFound(path, origin) from None
    except UnicodeDecodeError as error:
        raise MalformedDataset(path, f"byte {error.start}", "not UTF-8 text", origin) from None


def parse_target(text: str, dialect: Dialect, alphabet: CharSet | None, path: Path, where: str, origin: str) -> Regex:
    """``text`` parsed in ``dialect``, or a ``MalformedDataset`` locating the line that does not parse."""
    try:
        return parse(text, dialect, alphabet)
    except RegexError as error:
        raise MalformedDataset(path, where, f"{text!r} is not a {dialect} regex: {error}", origin) from None
