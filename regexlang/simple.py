"""The simple dialect: the textbook syntax of the Simple Regex dataset (pyformlang ``Regex``).

Grammar, loosest first: ``+`` union, concatenation, postfix ``*``; parentheses group; ``epsilon``
(or pyformlang's ``$``) is the empty string. Symbols are single characters of the task alphabet
(default ``{a, b, c}``), and whitespace only separates tokens, so the corpus style
``((b)* ((c a))*)`` and the compact ``b*(ca)*`` read alike. The printer writes the compact,
minimally parenthesised form with spaces for concatenation: ``b* (c a)*``.

Decisions where pyformlang is odd or silent, checked against pyformlang 1.x:

* A run of symbols such as ``ab`` is the concatenation ``a b``. Pyformlang would read one
  two-character symbol ``ab``; the dataset's alphabets have single-character symbols only.
* ``|`` is accepted as a synonym of ``+`` and ``.`` as explicit concatenation, as pyformlang
  does, so an answer that pyformlang accepts means the same thing here.
* ``epsilon`` is a keyword wherever it appears (``aepsilon`` is ``a epsilon``).
* An empty operand is an error: ``a+`` (pyformlang silently reads ``a+∅``), ``()`` (pyformlang
  crashes) and the empty text (pyformlang: the empty language). So the empty set has no spelling
  here, and printing it raises ``NotExpressible``.
* A symbol outside the alphabet, and any operator of the other dialects (``? [ { ~ &`` ...), is a
  syntax error at its position.

Printing is defined for the nodes of the dialect (ε, single symbols, concatenation, union, star);
:func:`desugar` first rewrites the rest into those: ``r+`` → ``r r*``, ``r?`` → ``r+epsilon``,
``r{n,m}`` → n copies then m−n optional copies, a class → the union of its symbols. So
``parse(unparse(r)) == desugar(r)``, which is ``r`` itself for every tree of the dialect.

Parsing has one fast path, because a learning loop parses thousands of answers and character-level
recursive descent costs several method calls per character: :func:`_parse_tokens` splits the text
with one compiled ``re`` (``epsilon`` or any single character, whitespace dropped) and folds the
tokens with an explicit stack of open groups. It accepts only well-formed text over the alphabet
and gives up (returns None) at the first thing it does not expect; the character-level parser
then reads the text again and produces the result or the positioned error, so every error message
comes from one place.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from typing import NamedTuple

from regexlang import printing
from regexlang.ast import (
    AssertKind,
    Chars,
    Concat,
    Epsilon,
    Optional,
    Plus,
    Regex,
    Repeat,
    Star,
    Union,
    concat,
    literal,
    union,
)
from regexlang.charset import CharSet
from regexlang.errors import NotExpressible
from regexlang.printing import Prec, Printed
from regexlang.scanner import Scanner

#: Characters with a meaning in this dialect; they are never symbols, whatever the alphabet.
METACHARS = frozenset("+|.*()$")
#: Operators of the other dialects, named in errors instead of "not in the alphabet".
FOREIGN_OPERATORS = frozenset("?[]{}^\\&~-,")
#: The most copies :func:`desugar` writes out for one counted repetition.
MAX_EXPANDED_COUNT = 1000

_EPSILON_WORD = "epsilon"


def describe_alphabet(alphabet: CharSet) -> str:
    """The alphabet as a brace list for error messages, e.g. ``{a, b, c}``."""
    if len(alphabet) <= 12:
        return "{" + ", ".join(alphabet) + "}"
    return "{" + ", ".join(f"{chr(lo)}-{chr(hi)}" if lo < hi else chr(lo) for lo, hi in alphabet.intervals) + "}"


def parse(text: str, alphabet: CharSet) -> Regex:
    """Parse simple-dialect ``text`` whose symbols are characters of ``alphabet``."""
    symbols = _symbols(alphabet)
    if symbols is not None:
        regex = _parse_tokens(_tokens(text, symbols.groups), symbols)
        if regex is not None:
            return regex
    parser = _Parser(text, alphabet)
    parser.skip_space()
    if parser.scan.at_end():
        raise parser.scan.error("empty regex")
    regex = parser.union()
    if not parser.scan.at_end():
        raise parser.scan.error("unbalanced ')'")
    return regex


#: One token: ``epsilon`` or a single character, after the common whitespace (other whitespace
#: becomes a token that :func:`_parse_tokens` rejects, leaving it to the careful parser).
_TOKEN = re.compile(r"[ \t\n\r]*(epsilon|[^ \t\n\r])")
_SPACES = str.maketrans("", "", " \t\n\r")  # without ``epsilon``, the tokens are the other characters
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
def _symbols(alphabet: CharSet) -> _Symbols | None:
    """The fast path's tables for a small alphabet (None for a large one: no fast path)."""
    if len(alphabet) > 4096:
        return None
    literals = {c: literal(c) for c in alphabet if c not in METACHARS and not c.isspace()}
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
            flat.append(Union(part))
        else:
            flat.append(part)
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
            flat.append(Concat(tuple(option)))
        else:
            flat.append(option)  # type: ignore[arg-type]
    return tuple(flat)


def _node(item: _Item) -> Regex:
    """The node of an item, built now if it is pending."""
    if type(item) is list:
        return Concat(tuple(item))
    if type(item) is tuple:
        return Union(item)
    return item  # type: ignore[return-value]


class _Parser:
    def __init__(self, text: str, alphabet: CharSet) -> None:
        self.scan = Scanner(text)
        self.alphabet = alphabet

    def skip_space(self) -> None:
        while self.scan.peek().isspace():
            self.scan.next()

    def union(self) -> Regex:
        options = [self.concat(None)]
        while self.scan.peek() in ("+", "|"):
            options.append(self.concat(self.scan.next()))
        return union(*options)

    def concat(self, after: str | None) -> Regex:
        parts = [self.operand(after)]
        while True:
            if self.scan.peek() == ".":
                parts.append(self.operand(self.scan.next()))
            elif self.scan.peek() and self.scan.peek() not in "+|)":
                parts.append(self.postfix())
            else:
                return concat(*parts)

    def operand(self, after: str | None) -> Regex:
        """A postfix expression where one is required, ``after`` the operator just read."""
        self.skip_space()
        if self.scan.peek() in ("", "+", "|", ")", "."):
            if after is not None:
                hint = " ('+' is union here)" if after == "+" and self.scan.peek() in ("", ")") else ""
                raise self.scan.error(f"missing operand after '{after}'{hint}")
            if self.scan.peek() == ")":
                raise self.scan.error("unbalanced ')'")
            raise self.scan.error(f"missing operand before '{self.scan.peek()}'")
        return self.postfix()

    def postfix(self) -> Regex:
        node = self.atom()
        self.skip_space()
        while self.scan.accept("*"):
            node = Star(node)
            self.skip_space()
        return node

    def atom(self) -> Regex:
        scan = self.scan
        start = scan.pos
        if scan.accept(_EPSILON_WORD) or scan.accept("$"):
            return Epsilon()
        char = scan.next()
        if char == "(":
            return self.group(start)
        if char == "*":
            raise scan.error("nothing to repeat", at=start)
        if char in self.alphabet and char not in METACHARS and not char.isspace():
            return literal(char)
        if char == "ε":
            raise scan.error("'ε' is not part of the simple dialect; write epsilon", at=start)
        if char in FOREIGN_OPERATORS:
            raise scan.error(f"'{char}' is not part of the simple dialect", at=start)
        raise scan.error(f"{char!r} is not in the alphabet {describe_alphabet(self.alphabet)}", at=start)

    def group(self, start: int) -> Regex:
        self.skip_space()
        if self.scan.peek() == ")":
            raise self.scan.error("empty group; write epsilon for the empty string", at=start)
        if self.scan.at_end():
            raise self.scan.error("unbalanced '('", at=start)
        inner = self.union()
        if not self.scan.accept(")"):
            raise self.scan.error("unbalanced '('", at=start)
        return inner


def desugar(regex: Regex, alphabet: CharSet) -> Regex:
    """The same language using only simple-dialect nodes (see the module docstring).

    Raises ``NotExpressible`` for the empty set, intersection, complement, assertions and
    characters outside ``alphabet``.
    """
    if isinstance(regex, Union):
        return union(*(desugar(option, alphabet) for option in regex.options))
    if isinstance(regex, Concat):
        return concat(*(desugar(part, alphabet) for part in regex.parts))
    if isinstance(regex, Star):
        return Star(desugar(regex.inner, alphabet))
    if isinstance(regex, Plus):
        inner = desugar(regex.inner, alphabet)
        return concat(inner, Star(inner))
    if isinstance(regex, Optional):
        return union(desugar(regex.inner, alphabet), Epsilon())
    if isinstance(regex, Repeat):
        return _expand_repeat(regex, alphabet)
    if isinstance(regex, Chars) and not regex.chars.is_single():
        _check_symbols(regex.chars, alphabet)
        return union(*(literal(c) for c in regex.chars))
    return regex


def _expand_repeat(regex: Repeat, alphabet: CharSet) -> Regex:
    if max(regex.min, regex.max or 0) > MAX_EXPANDED_COUNT:
        spelled = printing.quantifier_suffix(regex)
        raise NotExpressible(f"repetition {spelled} is too large to write out in the simple dialect")
    inner = desugar(regex.inner, alphabet)
    if regex.max is None:
        return concat(*[inner] * regex.min, Star(inner))
    return concat(*[inner] * regex.min, *[union(inner, Epsilon())] * (regex.max - regex.min))


def _check_symbols(chars: CharSet, alphabet: CharSet) -> None:
    if not chars:
        raise NotExpressible("the empty set cannot be written in the simple dialect")
    bad = chars.difference(alphabet) | (chars & CharSet.of(METACHARS))
    if not bad:
        bad = CharSet.of(c for c in chars if c.isspace())
    if bad:
        symbols = describe_alphabet(alphabet)
        raise NotExpressible(f"{bad.first()!r} is not a symbol of the simple dialect over {symbols}")


class _SimpleNotation:
    name = "simple"
    union_sep = "+"
    concat_sep = " "
    intersection_sep: str | None = None
    complement_prefix: str | None = None
    group_open = "("
    stacked_postfix = True

    def __init__(self, alphabet: CharSet) -> None:
        self.alphabet = alphabet

    def epsilon(self) -> Printed:
        return _EPSILON_WORD, Prec.ATOM

    def empty_set(self) -> Printed:
        raise NotExpressible("the empty set cannot be written in the simple dialect")

    def chars(self, chars: CharSet) -> Printed:
        _check_symbols(chars, self.alphabet)
        return chars.first(), Prec.ATOM

    def assertion(self, kind: AssertKind) -> Printed:
        raise NotExpressible(f"assertion {kind.value} cannot be written in the simple dialect")


def unparse(regex: Regex, alphabet: CharSet) -> str:
    """Print ``desugar(regex)`` in the simple dialect with minimal parentheses."""
    return printing.unparse(desugar(regex, alphabet), _SimpleNotation(alphabet))
