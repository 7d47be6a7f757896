"""How an error quotes the user's own text: whole when short, else a bounded excerpt.

A dataset entry or a plan value may be 10 kB on one line; an error that echoed it whole would bury
the one line that says what is wrong. Every loader (datasets, plans) quotes through these helpers,
so a message names the file, the entry and the problem, and quotes at most :data:`QUOTED`
characters of the text with how many more there were.
"""

from __future__ import annotations

#: The most characters of the user's own text an error message quotes.
QUOTED = 120


def shortened(text: str, limit: int = QUOTED) -> str:
    """``text`` whole when at most ``limit`` characters, else its first ``limit``, an ellipsis and
    how many more there are."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text) - limit:,} more characters)"


def excerpt(text: str) -> str:
    """``text`` quoted (``repr``) whole when short, else its first :data:`QUOTED` characters quoted
    and how many more there are."""
    if len(text) <= QUOTED:
        return repr(text)
    return f"{text[:QUOTED]!r}… ({len(text) - QUOTED:,} more characters)"
