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

Parsing has one fast path, :mod:`regexlang.simple_tokens`, because a learning loop parses thousands
of answers and this character-level recursive descent costs several method calls per character. It
accepts only well-formed text and gives up at the first thing it does not expect; the parser here
then reads the text again and produces the tree or the positioned error, so every error message
comes from one place.
"""

from __future__ import annotations

from regexlang import printing, simple_tokens
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
    return (
        "{"
        + ", ".join(f"{chr(lo)}-{chr(hi)}" if lo < hi else chr(lo) for lo, hi in alphabet.intervals)
        + "}"
    )


def parse(text: str, alphabet: CharSet) -> Regex:
    """Parse simple-dialect ``text`` whose symbols are characters of ``alphabet``."""
    regex = simple_tokens.parse(text, alphabet, METACHARS)
    return regex if regex is not None else _parse_carefully(text, alphabet)


def _parse_carefully(text: str, alphabet: CharSet) -> Regex:
    """The character-level parser: every error comes from here, with its position."""
    parser = _Parser(text, alphabet)
    parser.skip_space()
    if parser.scan.at_end():
        raise parser.scan.error("empty regex")
    regex = parser.union()
    if not parser.scan.at_end():
        raise parser.scan.error("unbalanced ')'")
    return regex


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
                hint = (
                    " ('+' is union here)" if after == "+" and self.scan.peek() in ("", ")") else ""
                )
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
        raise scan.error(
            f"{char!r} is not in the alphabet {describe_alphabet(self.alphabet)}", at=start
        )

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
        raise NotExpressible(
            f"repetition {spelled} is too large to write out in the simple dialect"
        )
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
        raise NotExpressible(
            f"{bad.first()!r} is not a symbol of the simple dialect over {symbols}"
        )


class _SimpleNotation:
    name = "simple"
    union_sep = "+"
    concat_sep = " "
    intersection_sep: str | None = None
    complement_prefix: str | None = None
    group_open = "("
    stacked_postfix = True
    lookarounds = False

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
