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
from regexlang.ast import Regex, depth
from regexlang.charset import EXTENDED_ALPHABET, SIMPLE_ALPHABET, UNICODE, CharSet
from regexlang.errors import RegexSyntaxError
from regexlang.scanner import MAX_DEPTH, MAX_NESTING

Dialect = Literal["simple", "extended", "python"]
DIALECTS: tuple[Dialect, ...] = get_args(Dialect)

__all__ = ["DIALECTS", "MAX_DEPTH", "MAX_NESTING", "Dialect", "parse", "universe", "unparse"]

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
        raise ValueError(
            f"unknown dialect {dialect!r}; expected one of {', '.join(DIALECTS)}"
        ) from None


def parse(text: str, dialect: Dialect, alphabet: CharSet | None = None) -> Regex:
    """Parse ``text`` in ``dialect``; ``alphabet`` overrides the dialect's default universe.

    Raises ``RegexSyntaxError`` with the 0-based position of the first problem; groups nested
    deeper than :data:`MAX_NESTING` and trees deeper than :data:`MAX_DEPTH` are errors too.
    """
    sigma = universe(dialect) if alphabet is None else alphabet
    if (
        dialect == "python"
    ):  # its parser counts groups itself: comments and verbose-mode text hold parentheses too
        tree = python_syntax.parse(text)
    else:
        _check_nesting(text)
        tree = simple.parse(text, sigma) if dialect == "simple" else extended.parse(text, sigma)
    # Every level of a tree costs at least one character, so only long texts can nest too deep.
    if len(text) >= MAX_DEPTH and depth(tree) > MAX_DEPTH:
        raise RegexSyntaxError(
            f"expression nested deeper than {MAX_DEPTH} levels (groups, operators and quantifiers all count)",
            text,
            0,
        )
    return tree


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


def _check_nesting(text: str) -> None:
    """Reject group nesting deeper than ``MAX_NESTING`` (escapes and class contents skipped) before
    the recursive parsers see it."""
    if text.count("(") <= MAX_NESTING:  # nesting cannot pass the bound with fewer parentheses
        return
    level = 0
    in_class = False
    i = 0
    while i < len(text):
        char = text[i]
        if char == "\\":
            i += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
            if text.startswith("]", i + 1) or text.startswith("^]", i + 1):
                i += 1 + (text[i + 1] == "^")
        elif char == "(":
            level += 1
            if level > MAX_NESTING:
                raise RegexSyntaxError(f"groups nested deeper than {MAX_NESTING} levels", text, i)
        elif char == ")":
            level = max(0, level - 1)
        i += 1
