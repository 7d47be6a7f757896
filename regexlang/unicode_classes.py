"""The Unicode character classes of Python's ``re`` for ``str`` patterns, as interval sets.

``re`` decides ``\\w``, ``\\d`` and ``\\s`` with the same predicates as ``str.isalnum``,
``str.isdecimal`` and ``str.isspace`` (plus ``_`` for ``\\w``), so those predicates are the
reference here. Scanning all 1.1 million code points takes a fraction of a second, so each class is
computed once per process, on first use, and never at import time.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from regexlang.charset import MAX_CODE_POINT, CharSet


def _scan(predicate: Callable[[str], bool]) -> CharSet:
    intervals: list[tuple[int, int]] = []
    start = -1
    for code in range(MAX_CODE_POINT + 1):
        if predicate(chr(code)):
            if start < 0:
                start = code
        elif start >= 0:
            intervals.append((start, code - 1))
            start = -1
    if start >= 0:
        intervals.append((start, MAX_CODE_POINT))
    return CharSet(intervals)


@functools.cache
def word_chars() -> CharSet:
    """``\\w``: alphanumeric characters and the underscore."""
    return _scan(str.isalnum) | CharSet.of("_")


@functools.cache
def digit_chars() -> CharSet:
    """``\\d``: Unicode decimal digits."""
    return _scan(str.isdecimal)


@functools.cache
def space_chars() -> CharSet:
    """``\\s``: Unicode whitespace."""
    return _scan(str.isspace)
