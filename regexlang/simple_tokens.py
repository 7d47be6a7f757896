"""The simple dialect's fast path: well-formed text to a tree in one pass over its tokens.

Why: a learning loop parses thousands of simple-dialect answers, and the character-level recursive
descent of :mod:`regexlang.simple` costs several method calls per character. Here the text becomes
tokens in C (``str.translate`` drops the common whitespace, or one compiled ``re`` when the text
spells ``epsilon``), one loop folds them with an explicit stack of open groups, and the nodes that
recur are shared (one literal per symbol, one ``Star`` per starred symbol: nodes are immutable).

When: :func:`parse` returns a tree only for well-formed text over a small alphabet, and None at
the first token it does not expect (an unknown character, an empty operand, unbalanced
parentheses, any whitespace other than space, tab, newline and carriage return).
:func:`regexlang.simple.parse` then reads the text with the careful parser, which returns the same
tree or raises the positioned error; ``tests/regexlang/test_simple_fast_path.py`` checks that the
two agree.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from typing import NamedTuple

from regexlang.ast import Chars, Concat, Epsilon, Regex, Star, Union, flat_node, literal
from regexlang.charset import CharSet


def parse(text: str, alphabet: CharSet, metachars: frozenset[str]) -> Regex | None:
    """The tree of ``text``, or None when the careful parser must decide (see the module
    docstring); ``metachars`` are the characters that are never symbols."""
    symbols = _symbols(alphabet, metachars)
    return None if symbols is None else _parse_tokens(_tokens(text, symbols.groups), symbols)


#: One token: ``epsilon`` or a single character, after the common whitespace (other whitespace
#: becomes a token that :func:`_parse_tokens` rejects, leaving it to the careful parser).
_TOKEN = re.compile(r"[ \t\n\r]*(epsilon|[^ \t\n\r])")
_SPACES = str.maketrans(
    "", "", " \t\n\r"
)  # without ``epsilon``, the tokens are the other characters
_EPSILON = Epsilon()


def _tokens(text: str, groups: tuple[tuple[str, str], ...]) -> Iterable[str]:
    """The tokens of ``text`` for :func:`_parse_tokens`. Without ``epsilon`` they are the characters
    that are not common whitespace, and a group around one symbol, which the corpus writes before
    every star (``(a)*``), is that symbol (``groups`` lists the replacements): the tree is the same
    and there are fewer tokens to read."""
    if "epsilon" in text:
        return _TOKEN.findall(text)
    tokens = text.translate(_SPACES)
    for group, symbol in groups:
        tokens = tokens.replace(group, symbol)
    return tokens


class _Symbols(NamedTuple):
    """What the fast path knows about an alphabet: the literal of each symbol, the groups
    :func:`_tokens` replaces, and the starred literals by the id of the literal (nodes are
    immutable, so ``a*`` can be one shared node like ``a``)."""

    literals: dict[str, Chars]
    groups: tuple[tuple[str, str], ...]
    stars: dict[int, Star]


@functools.lru_cache(maxsize=64)
def _symbols(alphabet: CharSet, metachars: frozenset[str]) -> _Symbols | None:
    """The fast path's tables for a small alphabet (None for a large one: no fast path)."""
    if len(alphabet) > 4096:
        return None
    literals = {c: literal(c) for c in alphabet if c not in metachars and not c.isspace()}
    groups = tuple((f"({c})", c) for c in literals) if len(literals) <= 8 else ()
    return _Symbols(literals, groups, {id(node): Star(node) for node in literals.values()})


def _parse_tokens(tokens: Iterable[str], symbols: _Symbols) -> Regex | None:
    """The tree of well-formed simple-dialect tokens, or None at anything else (see the module
    docstring). ``parts`` is the concatenation being read and ``options`` the union around it (None
    until a ``+``); each open parenthesis saves both.

    A closed group stays *pending* until it is known whether a star follows: a list for a
    concatenation, a tuple for a union. The enclosing sequence (or union) then absorbs its items,
    which is the flattening :func:`~regexlang.ast.concat` and :func:`~regexlang.ast.union` would
    do, without first building the node they would take apart. The corpus nests binary operators
    (``(c (a (a b)))``, ``((a+a)+a)``), so that saves most of the nodes.
    """
    literals, stars = symbols.literals, symbols.stars
    saved_parts: list[list[_Item]] = []
    saved_options: list[list[_Item] | None] = []
    options: list[_Item] | None = None
    parts: list[_Item] = []
    operand = True  # an operand must come next (at the start, after '(', '+', '|' and '.')
    for token in tokens:  # parentheses first: the corpus has more of them than anything else
        if token == "(":
            saved_parts.append(parts)
            saved_options.append(options)
            parts, options, operand = [], None, True
        elif token == ")":
            if operand or not saved_parts:
                return None
            if options is not None:
                item = _pending(options, parts)
            elif len(parts) == 1:
                item = parts[0]
            else:
                item = _sequence(parts)
            parts = saved_parts.pop()
            options = saved_options.pop()
            parts.append(item)
        elif (node := literals.get(token)) is not None:
            parts.append(node)
            operand = False
        elif token == "*":
            if operand:
                return None
            item = parts[-1]
            star = stars.get(id(item))
            parts[-1] = star if star is not None else Star(_node(item))
        elif token == "+" or token == "|":
            if operand:
                return None
            if options is None:
                options = []
            options.append(_sequence(parts))
            parts, operand = [], True
        elif token == "epsilon" or token == "$":
            parts.append(_EPSILON)
            operand = False
        elif token == ".":
            if operand:
                return None
            operand = True
        else:
            return None
    if operand or saved_parts:
        return None
    return _node(_pending(options, parts))


#: A parsed item: a node, or a pending group (a list of concatenated nodes, a tuple of options).
_Item = Regex | list[Regex] | tuple[Regex, ...]


def _sequence(parts: list[_Item]) -> _Item:
    """The concatenation of ``parts``, pending when it has several items (``parts`` itself when
    none of them is a pending group)."""
    if len(parts) == 1:
        return parts[0]
    for part in parts:
        if type(part) is list or type(part) is tuple:
            break
    else:
        return parts  # type: ignore[return-value]
    flat: list[Regex] = []
    for part in parts:
        if type(part) is list:
            flat.extend(part)
        elif type(part) is tuple:
            flat.append(flat_node(Union, part))
        else:
            flat.append(part)  # type: ignore[arg-type]
    return flat


def _pending(options: list[_Item] | None, parts: list[_Item]) -> _Item:
    """The union of ``options`` and the concatenation of ``parts``, pending."""
    last = _sequence(parts)
    if options is None:
        return last
    options.append(last)
    flat: list[Regex] = []
    for option in options:
        if type(option) is tuple:
            flat.extend(option)
        elif type(option) is list:
            flat.append(flat_node(Concat, tuple(option)))
        else:
            flat.append(option)  # type: ignore[arg-type]
    return tuple(flat)


def _node(item: _Item) -> Regex:
    """The node of an item, built now if it is pending."""
    if type(item) is list:
        return flat_node(Concat, tuple(item))
    if type(item) is tuple:
        return flat_node(Union, item)
    return item  # type: ignore[return-value]
