"""The Unicode character classes of Python's ``re`` for ``str`` patterns, as interval sets.

``re`` decides ``\\w``, ``\\d`` and ``\\s`` with the same predicates as ``str.isalnum``,
``str.isdecimal`` and ``str.isspace`` (plus ``_`` for ``\\w``), so those predicates are the
reference here. Scanning all 1.1 million code points takes a tenth of a second, so each class is
computed once per process, on first use, and never at import time; threads that ask for it at once
(the runner's units compiling their targets together) wait for one scan instead of each scanning.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable

from regexlang.charset import MAX_CODE_POINT, CharSet

_scanning = threading.Lock()


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


def word_chars() -> CharSet:
    """``\\w``: alphanumeric characters and the underscore."""
    with _scanning:
        return _word_chars()


def digit_chars() -> CharSet:
    """``\\d``: Unicode decimal digits."""
    with _scanning:
        return _digit_chars()


def space_chars() -> CharSet:
    """``\\s``: Unicode whitespace."""
    with _scanning:
        return _space_chars()


@functools.cache
def _word_chars() -> CharSet:
    return _scan(str.isalnum) | CharSet.of("_")


@functools.cache
def _digit_chars() -> CharSet:
    return _scan(str.isdecimal)


@functools.cache
def _space_chars() -> CharSet:
    return _scan(str.isspace)
