"""The extended dialect: the Extended Regex syntax of the seed paper (Appendix F), over ``[A-Za-z0-9#]``.

Grammar, loosest first: ``|`` union, ``&`` intersection, implicit concatenation, postfix
quantifiers ``* + ? {n} {n,m} {n,}``, prefix ``~`` complement, atoms (a character, a class
``[A-Z0-9]``, a group ``( ... )``, ``()`` for the empty string). Complement binds tighter than the
quantifiers and applies to the following atom or group, as in the brics automaton syntax the KB13
corpus comes from: ``~a*`` is ``(~a)*``; the corpora always write ``~( ... )``. ``~r`` is relative
to Σ*, where Σ is the alphabet (the :class:`~regexlang.ast.Complement` node).

The dialect is deliberately strict, because its texts are a learner's answers: everything outside
the alphabet is an error at its position, and the constructs the paper's prompt forbids (``.``,
negated classes, anchors, word boundaries, lookarounds, backreferences, ``\\d``-style escapes) are
rejected by name. Other choices: an empty operand (``a|``, ``|a``, ``a&``, the empty text) is an
error, write ``()`` for ε; a quantifier cannot follow a quantifier (``a**``: "multiple repeat",
write ``(a*)*``); ``{,m}`` is an error that suggests ``{0,m}``; counts above
:data:`~regexlang.scanner.MAX_REPEAT_COUNT` are rejected; a backslash before a non-alphanumeric
character makes it literal, which only matters for custom alphabets.

One leniency: a class means the alphabet characters it contains, so members outside Σ are dropped
rather than rejected (KB13 writes ``[A-Z-a-z]``, whose ``-`` is not in Σ; ``[0-z]`` is
``[0-9A-Za-z]``). No string over Σ contains those characters, so the language is the same; a
class with no member in Σ is still an error.

The empty set has no spelling (no negated or empty classes), so printing it raises
``NotExpressible``; every other tree over the alphabet prints, and ``parse(unparse(r)) == r``.
"""

from __future__ import annotations

from regexlang import printing
from regexlang.ast import (
    AssertKind,
    Chars,
    Complement,
    Epsilon,
    Optional,
    Plus,
    Regex,
    Repeat,
    Star,
    concat,
    intersection,
    union,
)
from regexlang.charset import CharSet
from regexlang.errors import NotExpressible
from regexlang.printing import Prec, Printed
from regexlang.scanner import MAX_REPEAT_COUNT, Scanner

#: Characters that need a backslash to be literal (only possible with a custom alphabet).
METACHARS = frozenset("\\|&~*+?{}()[].^$")
_CLASS_METACHARS = frozenset("\\]-^[")
_QUANTIFIERS = frozenset("*+?{")
_DIGITS = frozenset("0123456789")

_NAMED_ESCAPES = {
    "d": "'\\d' is not part of the extended dialect; write [0-9]",
    "w": "'\\w' is not part of the extended dialect; write a class such as [A-Za-z0-9]",
    "s": "'\\s' is not part of the extended dialect",
    "D": "negated classes are not part of the extended dialect",
    "W": "negated classes are not part of the extended dialect",
    "S": "negated classes are not part of the extended dialect",
    "b": "word boundaries are not part of the extended dialect",
    "B": "word boundaries are not part of the extended dialect",
    "A": "anchors are not part of the extended dialect",
    "Z": "anchors are not part of the extended dialect",
}


def describe_alphabet(alphabet: CharSet) -> str:
    """The alphabet as a class for error messages, e.g. ``[A-Za-z0-9#]``."""
    return f"[{printing.class_body(alphabet, _spell_in_class)}]"


def parse(text: str, alphabet: CharSet) -> Regex:
    """Parse extended-dialect ``text`` over ``alphabet``."""
    parser = _Parser(text, alphabet)
    if not text:
        raise parser.scan.error("empty regex; write () for the empty string")
    regex = parser.union()
    if not parser.scan.at_end():
        raise parser.scan.error("unbalanced ')'")
    return regex


class _Parser:
    def __init__(self, text: str, alphabet: CharSet) -> None:
        self.scan = Scanner(text)
        self.alphabet = alphabet

    def union(self) -> Regex:
        options = [self.intersection(None)]
        while self.scan.accept("|"):
            options.append(self.intersection("|"))
        return union(*options)

    def intersection(self, after: str | None) -> Regex:
        parts = [self.concat(after)]
        while self.scan.accept("&"):
            parts.append(self.concat("&"))
        return intersection(*parts)

    def concat(self, after: str | None) -> Regex:
        parts = []
        while self.scan.peek() not in ("", "|", "&", ")"):
            parts.append(self.postfix())
        if not parts:
            if after is not None:
                raise self.scan.error(f"missing operand after '{after}'")
            if self.scan.peek() == ")":
                raise self.scan.error("unbalanced ')'")
            raise self.scan.error(f"missing operand before '{self.scan.peek()}'")
        return concat(*parts)

    def postfix(self) -> Regex:
        node = self.prefix()
        if self.scan.peek() in _QUANTIFIERS:
            node = self.quantifier(node)
            if self.scan.peek() in _QUANTIFIERS:
                raise self.scan.error("multiple repeat; add a group as in (a*)*")
        return node

    def prefix(self) -> Regex:
        complements = 0  # a loop, not recursion: ``~`` chains can be long
        while self.scan.accept("~"):
            if self.scan.peek() in ("", "|", "&", ")") or self.scan.peek() in _QUANTIFIERS:
                raise self.scan.error("missing operand after '~'")
            complements += 1
        node = self.atom()
        for _ in range(complements):
            node = Complement(node)
        return node

    def quantifier(self, node: Regex) -> Regex:
        scan = self.scan
        start = scan.pos
        char = scan.next()
        if char == "*":
            return Star(node)
        if char == "+":
            return Plus(node)
        if char == "?":
            return Optional(node)
        low = scan.take_while(_DIGITS)
        high = scan.take_while(_DIGITS) if scan.accept(",") else low
        if not scan.accept("}") or (not low and not high):
            raise scan.error("bad repetition; expected {n}, {n,m} or {n,}", at=start)
        spelled = scan.text[start : scan.pos]
        if not low:
            raise scan.error(f"repetition {spelled} needs a minimum; write {{0,{high}}}", at=start)
        minimum, maximum = int(low), int(high) if high else None
        if max(minimum, maximum or 0) > MAX_REPEAT_COUNT:
            raise scan.error(f"repetition count too large (max {MAX_REPEAT_COUNT})", at=start)
        if maximum is not None and maximum < minimum:
            raise scan.error(f"repetition {spelled} has max below min", at=start)
        return Repeat(node, minimum, maximum)

    def atom(self) -> Regex:
        scan = self.scan
        start = scan.pos
        char = scan.next()
        if char == "(":
            if scan.peek() == "?":
                message = "'(?' groups (lookarounds, flags, named groups) are not part of the extended dialect"
                raise scan.error(message, at=start)
            if scan.accept(")"):
                return Epsilon()
            inner = self.union()
            if not scan.accept(")"):
                raise scan.error("unbalanced '('", at=start)
            return inner
        if char == "[":
            return self.char_class(start)
        if char in _QUANTIFIERS:
            raise scan.error("nothing to repeat", at=start)
        if char == ".":
            raise scan.error("'.' is not part of the extended dialect", at=start)
        if char in ("^", "$"):
            raise scan.error(f"anchor '{char}' is not part of the extended dialect", at=start)
        if char == "\\":
            char = self.escape(start)
        if char not in self.alphabet:
            raise scan.error(
                f"{char!r} is not in the alphabet {describe_alphabet(self.alphabet)}", at=start
            )
        return Chars(CharSet.of(char))

    def escape(self, start: int) -> str:
        """The character after a backslash at ``start`` (the backslash is already read)."""
        char = self.scan.next()
        if not char:
            raise self.scan.error("escape at end of pattern", at=start)
        if char in _NAMED_ESCAPES:
            raise self.scan.error(_NAMED_ESCAPES[char], at=start)
        if char.isdigit():
            raise self.scan.unsupported("backreferences are not regular", at=start)
        if char.isalnum():
            raise self.scan.error(f"unknown escape \\{char}", at=start)
        return char

    def char_class(self, start: int) -> Regex:
        scan = self.scan
        if scan.peek() == "^":
            raise scan.error("negated classes are not part of the extended dialect", at=start)
        if scan.peek() == "]":
            raise scan.error("empty class", at=start)
        chars = CharSet()
        while not scan.accept("]"):
            if scan.at_end():
                raise scan.error("unbalanced '['", at=start)
            item_start = scan.pos
            low = self.class_char()
            if scan.peek() == "-" and scan.peek(1) not in ("]", ""):
                scan.next()
                high = self.class_char()
                if high < low:
                    raise scan.error(f"bad range {low}-{high}", at=item_start)
                chars |= CharSet.range(low, high)
            else:
                chars |= CharSet.of(low)
        if not chars & self.alphabet:
            raise scan.error(
                f"class has no character in the alphabet {describe_alphabet(self.alphabet)}",
                at=start,
            )
        return Chars(chars & self.alphabet)

    def class_char(self) -> str:
        start = self.scan.pos
        char = self.scan.next()
        return self.escape(start) if char == "\\" else char


def _spell(char: str) -> str:
    return "\\" + char if char in METACHARS else char


def _spell_in_class(char: str) -> str:
    return "\\" + char if char in _CLASS_METACHARS else char


class _ExtendedNotation:
    name = "extended"
    union_sep = "|"
    concat_sep = ""
    intersection_sep: str | None = "&"
    complement_prefix: str | None = "~"
    group_open = "("
    stacked_postfix = False
    lookarounds = False

    def __init__(self, alphabet: CharSet) -> None:
        self.alphabet = alphabet

    def epsilon(self) -> Printed:
        return "()", Prec.ATOM

    def empty_set(self) -> Printed:
        raise NotExpressible("the empty set cannot be written in the extended dialect")

    def chars(self, chars: CharSet) -> Printed:
        outside = chars - self.alphabet
        if outside or not chars:
            raise NotExpressible(
                f"{outside.first()!r} is not in the alphabet {describe_alphabet(self.alphabet)}"
                if outside
                else "the empty set cannot be written in the extended dialect"
            )
        if chars.is_single():
            return _spell(chars.first()), Prec.ATOM
        return f"[{printing.class_body(chars, _spell_in_class)}]", Prec.ATOM

    def assertion(self, kind: AssertKind) -> Printed:
        raise NotExpressible(f"assertion {kind.value} cannot be written in the extended dialect")


def unparse(regex: Regex, alphabet: CharSet) -> str:
    """Print ``regex`` in the extended dialect with minimal parentheses."""
    return printing.unparse(regex, _ExtendedNotation(alphabet))
