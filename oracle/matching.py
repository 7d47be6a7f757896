"""Testing a hypothesis on strings, for a custom teacher.

The loop hands :meth:`oracle.Teacher.check` a parsed tree, so that every teacher judges the same
language whatever the text looked like; :func:`matcher` turns that tree into a predicate on whole
strings (``re.fullmatch`` semantics), compiled once.
"""

from __future__ import annotations

from collections.abc import Callable

from automata.building.compile import compile_regex
from automata.errors import DEFAULT_STATE_LIMIT
from regexlang.ast import Regex
from regexlang.charset import CharSet


def matcher(
    hypothesis: Regex, universe: CharSet, *, state_limit: int = DEFAULT_STATE_LIMIT
) -> Callable[[str], bool]:
    """Whether ``hypothesis`` matches a whole string; characters outside ``universe`` never match.

    The universe is the teacher's (a complement ``~a`` means every other string over it). Raises
    :class:`automata.StateLimitExceeded` past ``state_limit`` states."""
    return compile_regex(hypothesis, universe, state_limit=state_limit).accepts
