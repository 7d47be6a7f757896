"""Backslash escapes of Python ``re`` patterns, inside and outside classes.

``re`` reads a pattern as tokens where a backslash and the character after it form one token, so
a lone trailing backslash is an error wherever it appears (even inside a ``(?#...)`` comment), and
``\\)`` never closes a group. :class:`EscapeReader` owns that tokenisation and the escape table:
``\\n``-style controls, ``\\x41``, ``\\u00e9``, ``\\U0001F600``, ``\\N{EM DASH}``, octal (``\\0``,
``\\012``, ``\\123``), the Unicode shorthands ``\\d \\w \\s`` and their negations, and, outside
classes only, the assertions ``\\A \\Z \\b \\B`` and backreferences. The rules on digits are
``re``'s: outside a class ``\\1``-``\\99`` are backreferences unless three octal digits follow the
backslash; inside a class digits are octal and ``\\8`` is an error. Unknown letters are errors,
other escaped characters are themselves.
"""

from __future__ import annotations

import functools
import unicodedata

from regexlang.ast import AssertKind
from regexlang.charset import CharSet
from regexlang.scanner import Scanner
from regexlang.unicode_classes import digit_chars, space_chars, word_chars

_CONTROLS = {
    "a": 0x07,
    "b": 0x08,
    "f": 0x0C,
    "n": 0x0A,
    "r": 0x0D,
    "t": 0x09,
    "v": 0x0B,
    "\\": 0x5C,
}
_ASSERTIONS = {
    "A": AssertKind.TEXT_START,
    "Z": AssertKind.TEXT_END,
    "b": AssertKind.WORD_BOUNDARY,
    "B": AssertKind.NOT_WORD_BOUNDARY,
}
_HEX_WIDTH = {"x": 2, "u": 4, "U": 8}
_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")
_OCT_DIGITS = frozenset("01234567")
_DIGITS = frozenset("0123456789")


@functools.cache
def category(letter: str) -> CharSet:
    """The set of ``\\d``, ``\\w``, ``\\s`` or (upper case) its complement."""
    base = {"d": digit_chars, "w": word_chars, "s": space_chars}[letter.lower()]()
    return base.complement() if letter.isupper() else base


class EscapeReader:
    """Reads tokens and escapes from a scanner positioned on them."""

    def __init__(self, scan: Scanner) -> None:
        self.scan = scan

    def token(self) -> str:
        """The next token: one character, or a backslash with the character after it; "" at the end."""
        char = self.scan.next()
        if char == "\\":
            escaped = self.scan.next()
            if not escaped:
                raise self.scan.error("bad escape (end of pattern)", at=len(self.scan.text) - 1)
            return char + escaped
        return char

    def until(self, terminator: str, what: str) -> str:
        """Tokens up to ``terminator`` (consumed), for group and character names."""
        start = self.scan.pos
        name = ""
        while (token := self.token()) != terminator:
            if not token:
                message = f"missing {terminator}, unterminated name" if name else f"missing {what}"
                raise self.scan.error(message, at=start)
            name += token
        if not name:
            raise self.scan.error(f"missing {what}", at=self.scan.pos - 1)
        return name

    def outside_class(self) -> int | CharSet | AssertKind:
        """An escape outside brackets (a character code, a shorthand's set or an assertion), the
        scanner being on its backslash."""
        start = self.scan.pos
        letter = self.token()[1]
        if letter in _ASSERTIONS:
            return _ASSERTIONS[letter]
        if letter in "dDsSwW":
            return category(letter)
        if letter == "0":
            return int(letter + self.scan.take_while(_OCT_DIGITS, 2), 8)
        if letter in _DIGITS:
            digits = letter + self.scan.take_while(_DIGITS, 1)
            octal = digits + self.scan.peek()
            if len(octal) == 3 and _OCT_DIGITS.issuperset(octal):
                return self.octal(digits + self.scan.next(), start)
            raise self.scan.unsupported("backreferences are not regular", at=start)
        return self.common(letter, start)

    def in_class(self) -> int | CharSet:
        """A class member: a character code, or the set of a shorthand such as ``\\d``."""
        start = self.scan.pos
        token = self.token()
        if len(token) == 1:
            return ord(token)
        letter = token[1]
        if letter in "dDsSwW":
            return category(letter)
        if letter in _OCT_DIGITS:
            return self.octal(letter + self.scan.take_while(_OCT_DIGITS, 2), start)
        if letter in _DIGITS:
            raise self.scan.error(f"unknown escape \\{letter}", at=start)
        return self.common(letter, start)

    def octal(self, digits: str, start: int) -> int:
        code = int(digits, 8)
        if code > 0o377:
            raise self.scan.error(
                f"octal escape value \\{digits} outside of range 0-0o377", at=start
            )
        return code

    def common(self, letter: str, start: int) -> int:
        """The escapes that mean the same inside and outside classes."""
        if letter in _CONTROLS:
            return _CONTROLS[letter]
        if letter in _HEX_WIDTH:
            digits = self.scan.take_while(_HEX_DIGITS, _HEX_WIDTH[letter])
            escape = f"\\{letter}{digits}"
            if len(digits) != _HEX_WIDTH[letter]:
                raise self.scan.error(f"incomplete escape {escape}", at=start)
            if int(digits, 16) > 0x10FFFF:
                raise self.scan.error(f"bad escape {escape}", at=start)
            return int(digits, 16)
        if letter == "N":
            if not self.scan.accept("{"):
                raise self.scan.error("missing {")
            name = self.until("}", "character name")
            try:
                return ord(unicodedata.lookup(name))
            except KeyError:
                raise self.scan.error(f"undefined character name {name!r}", at=start) from None
        if letter.isascii() and letter.isalpha():
            raise self.scan.error(f"unknown escape \\{letter}", at=start)
        return ord(letter)
