"""Pieces of a sequence (words, or one character of a class) and where a string holds them one
after another: the matching that the shared factors' conjunctions and sequences
(:mod:`cegis.symbolic.merging.families.shared`, :mod:`cegis.symbolic.merging.families.sequences`)
are built on, and the regexes that spell pieces in order.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from cegis.symbolic.merging.core.run_cache import RunCache
from regexlang.ast import Chars, Regex, concat
from regexlang.ast import text as text_regex
from regexlang.charset import CharSet
from regexlang.python_printing import interval_class

Piece = str | CharSet
"""A piece of a sequence: a word, or one character of a class."""

Gaps = list[tuple[int, int | None]]
"""The fewest and most characters (None: no bound) between each two pieces of an order."""

#: Most matches of an order in one string that :func:`all_gaps` lists.
MOST_MATCHES = 1_000


def starts_of(
    string: str,
    order: Sequence[Piece],
    cache: RunCache,
    start: int = 0,
    end: int | None = None,
    tight: bool = True,
) -> list[int] | None:
    """Where the pieces of ``order`` start in ``string[start:end]``, one after another, or None when
    they are not there: the first occurrences, then, when ``tight``, each piece as late as the next
    one allows (the narrowest gaps before the last piece's first occurrence), else the last piece
    as late as it occurs (the widest last gap). The class patterns are kept in the run's
    ``cache``."""
    end = len(string) if end is None else end
    starts: list[int] = []
    for piece in order:
        found = find_piece(string, piece, start, end, cache)
        if found < 0:
            return None
        starts.append(found)
        start = found + width(piece)
    if tight:
        for k in range(len(order) - 2, -1, -1):
            starts[k] = find_piece(string, order[k], starts[k], starts[k + 1], cache, last=True)
    else:
        starts[-1] = find_piece(string, order[-1], starts[-1], end, cache, last=True)
    return starts


def all_gaps(
    string: str, order: Sequence[Piece], start: int, end: int, cache: RunCache
) -> list[tuple[int, ...]]:
    """The gaps between the pieces of ``order`` of every match in ``string[start:end]`` (at most
    :data:`MOST_MATCHES`)."""
    found: list[tuple[int, ...]] = []

    def walk(k: int, at: int, gaps: tuple[int, ...]) -> None:
        place = find_piece(string, order[k], at, end, cache)
        while place >= 0 and len(found) < MOST_MATCHES:
            following = gaps + (place - at,) if k else ()
            if k + 1 == len(order):
                found.append(following)
            else:
                walk(k + 1, place + width(order[k]), following)
            place = find_piece(string, order[k], place + 1, end, cache)

    walk(0, start, ())
    return found


def find_piece(
    string: str, piece: Piece, start: int, end: int, cache: RunCache, last: bool = False
) -> int:
    """The first (or ``last``) place where ``piece`` lies wholly in ``string[start:end]``, or -1
    (the class patterns kept in the run's ``cache``)."""
    if isinstance(piece, str):
        return string.rfind(piece, start, end) if last else string.find(piece, start, end)
    found = (
        cache(class_pattern, piece, True).match(string, start, end)
        if last
        else cache(class_pattern, piece, False).search(string, start, end)
    )
    return -1 if found is None else found.end() - 1


def width(piece: Piece) -> int:
    """The characters ``piece`` spans."""
    return len(piece) if isinstance(piece, str) else 1


def piece_regex(piece: Piece) -> Regex:
    """The regex of ``piece``: its word, or its class."""
    return text_regex(piece) if isinstance(piece, str) else Chars(piece)


def class_pattern(chars: CharSet, last: bool = False) -> re.Pattern[str]:
    """A pattern of one character of ``chars``, searched for to find the first one; or, when
    ``last``, one that, matched at the start of a slice, ends after the slice's last one. Testing
    each character against the intervals of ``chars`` is far slower (compiling it too: callers
    keep it in the run's cache)."""
    one = interval_class(chars)
    return re.compile(f"(?s:.*){one}" if last else one)


def smallest_holding(
    classes: tuple[CharSet, ...], chars: CharSet, universe: CharSet
) -> CharSet | None:
    """The smallest of ``classes`` (short of the ``universe``; the first on a tie) that holds
    ``chars``, if any (the callers keep it in the run's cache: the same classes and characters
    come back every epoch and agreement round)."""
    return min(
        (c for c in classes if chars.issubset(c) and not universe.issubset(c)),
        key=len,
        default=None,
    )


def piece_name(piece: Piece) -> str:
    """``piece`` described: its word, or its class by its first character (``[0…]``)."""
    return piece if isinstance(piece, str) else f"[{piece.first()}…]"


def contains(piece: Regex, times: int, anything: Regex) -> Regex:
    """Strings with ``times`` occurrences of ``piece`` (``.*w.*w.*``)."""
    return one_after_another([piece] * times, anything)


def one_after_another(pieces: Sequence[Regex], anything: Regex) -> Regex:
    """Strings that contain ``pieces`` one after another, anything around them."""
    return concat(anything, *[concat(piece, anything) for piece in pieces])
