"""Printing a hypothesis in the task's dialect and reading it back.

Learners print their hypotheses with :func:`regexlang.unparse`, but the empty language has no
syntax in the simple and extended dialects, and a union of no positives (or an L* table before the
first positive) is exactly that. It prints as ``∅`` here, and reads back to the same tree, so a
record can always be turned back into the hypothesis it names.
"""

from __future__ import annotations

from regexlang.ast import EmptySet, Regex
from regexlang.charset import CharSet
from regexlang.dialects import Dialect, parse, unparse
from regexlang.errors import NotExpressible

EMPTY_LANGUAGE = "∅"


def print_hypothesis(regex: Regex, dialect: Dialect, universe: CharSet) -> str:
    """``regex`` printed in ``dialect``; the empty language as ``∅`` where the dialect cannot say it."""
    try:
        return unparse(regex, dialect, universe)
    except NotExpressible:
        if isinstance(regex, EmptySet):
            return EMPTY_LANGUAGE
        raise


def read_hypothesis(text: str, dialect: Dialect, universe: CharSet) -> Regex:
    """The inverse of :func:`print_hypothesis` (raises ``RegexError`` on text that does not parse)."""
    return EmptySet() if text == EMPTY_LANGUAGE else parse(text, dialect, universe)
