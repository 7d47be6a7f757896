"""Dispatch between the three regex dialects and the universe of characters each one ranges over.

* ``simple``: the textbook syntax of the Simple Regex dataset (pyformlang ``Regex``), over ``{a,b,c}``.
* ``extended``: the Extended Regex syntax of the seed paper, with ``&`` and ``~``, over ``[A-Za-z0-9#]``.
* ``python``: Python ``re`` with ``re.fullmatch`` semantics, over all of Unicode.

The universe matters wherever the language depends on what characters exist: complement (``~``),
``.``, negated classes, and the alphabet of the automata built from a regex.
"""

from __future__ import annotations

from typing import Literal, get_args

from regexlang import extended, python_syntax, simple
from regexlang.ast import Regex
from regexlang.charset import EXTENDED_ALPHABET, SIMPLE_ALPHABET, UNICODE, CharSet

Dialect = Literal["simple", "extended", "python"]
DIALECTS: tuple[Dialect, ...] = get_args(Dialect)

_DEFAULT_UNIVERSE: dict[Dialect, CharSet] = {
    "simple": SIMPLE_ALPHABET,
    "extended": EXTENDED_ALPHABET,
    "python": UNICODE,
}


def universe(dialect: Dialect) -> CharSet:
    """The default set of characters a dialect's languages range over."""
    try:
        return _DEFAULT_UNIVERSE[dialect]
    except KeyError:
        raise ValueError(f"unknown dialect {dialect!r}; expected one of {', '.join(DIALECTS)}") from None


def parse(text: str, dialect: Dialect, alphabet: CharSet | None = None) -> Regex:
    """Parse ``text`` in ``dialect``; ``alphabet`` overrides the dialect's default universe.

    Raises ``RegexSyntaxError`` with the 0-based position of the first problem.
    """
    sigma = universe(dialect) if alphabet is None else alphabet
    if dialect == "simple":
        return simple.parse(text, sigma)
    if dialect == "extended":
        return extended.parse(text, sigma)
    return python_syntax.parse(text)


def unparse(regex: Regex, dialect: Dialect, alphabet: CharSet | None = None) -> str:
    """Print ``regex`` in ``dialect`` with minimal parentheses.

    Raises ``NotExpressible`` when the dialect has no syntax for a node of the tree.
    """
    sigma = universe(dialect) if alphabet is None else alphabet
    if dialect == "simple":
        return simple.unparse(regex, sigma)
    if dialect == "extended":
        return extended.unparse(regex, sigma)
    return python_syntax.unparse(regex)
