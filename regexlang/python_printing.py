"""Printing trees as Python ``re`` patterns, and character sets as short, readable ``re`` text.

A set that came from ``\\w`` is some seven hundred intervals of Unicode, so printing its intervals
would be useless to a reader. The printer tries the spellings a person would write and keeps the
shortest: a single escaped character, ``.``, a bare shorthand (``\\d``), a class made of shorthands
plus leftover ranges (``[\\d_]``), or the negation of such a class (``[^\\W_]``, ``[^\\n]``). The
shorthands are Unicode-wide, so they only appear when the set really contains all of them.

Escaping is conservative: metacharacters, class specials, and every non-printable character
(``\\n``, ``\\x00``, ``\\u200b``, ``\\U000e0001``) get a backslash form, so printed patterns never
depend on invisible characters. Trees carry no flags, so printed patterns need none either, except
``(?m:^)`` and ``(?m:$)`` for the line anchors. ε prints as nothing where ``re`` allows it (``a|``)
and as ``(?:)`` elsewhere; the empty set as ``[^\\s\\S]``.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from types import MappingProxyType

from regexlang import printing
from regexlang.ast import AssertKind, Regex
from regexlang.charset import UNICODE, CharSet
from regexlang.printing import Prec, Printed
from regexlang.unicode_classes import digit_chars, space_chars, word_chars

_METACHARS = frozenset(".^$*+?{}[]\\|()")
#: ``&``, ``~`` and ``|`` are escaped too: doubled, they make ``re`` warn about future set syntax.
_CLASS_METACHARS = frozenset("\\]-^[&~|")
_NAMED_CONTROLS = {"\n": "\\n", "\t": "\\t", "\r": "\\r", "\f": "\\f", "\v": "\\v", "\a": "\\a"}

NOT_NEWLINE = CharSet.of("\n").complement()
EMPTY_CLASS = "[^\\s\\S]"


def _code_escape(char: str) -> str:
    if char in _NAMED_CONTROLS:
        return _NAMED_CONTROLS[char]
    code = ord(char)
    return (
        f"\\x{code:02x}"
        if code < 0x100
        else f"\\u{code:04x}"
        if code < 0x10000
        else f"\\U{code:08x}"
    )


def spell_literal(char: str) -> str:
    """One character as a pattern outside brackets."""
    if char in _METACHARS:
        return "\\" + char
    return char if char.isprintable() else _code_escape(char)


def _spell_in_class(char: str) -> str:
    if char in _CLASS_METACHARS:
        return "\\" + char
    return char if char.isprintable() else _code_escape(char)


#: An ASCII sample of each shorthand: a set lacking it cannot contain the shorthand, which saves
#: computing the Unicode-wide sets for the common small classes.
_SAMPLES = {"\\d": "09", "\\w": "_az", "\\s": " \t\n", "\\D": "az_", "\\W": " !-", "\\S": "az0"}


@functools.cache
def _shorthands() -> Mapping[str, CharSet]:
    digit, word, space = digit_chars(), word_chars(), space_chars()
    return MappingProxyType(  # shared by every print: read-only
        {
            "\\d": digit,
            "\\w": word,
            "\\s": space,
            "\\D": digit.complement(),
            "\\W": word.complement(),
            "\\S": space.complement(),
        }
    )


def _contained_shorthands(chars: CharSet) -> list[tuple[str, CharSet]]:
    plausible = [text for text, sample in _SAMPLES.items() if CharSet.of(sample).issubset(chars)]
    return [
        (text, _shorthands()[text]) for text in plausible if _shorthands()[text].issubset(chars)
    ]


def _class_body(chars: CharSet) -> str:
    """Class items for ``chars``: shorthands it fully contains (greedy by coverage), then ranges."""
    shorthands = _contained_shorthands(chars)
    chosen: list[str] = []
    covered = CharSet()
    while shorthands:
        gain, text, members = max(
            (len(members - covered), text, members) for text, members in shorthands
        )
        if gain == 0:
            break
        chosen.append(text)
        covered |= members
        shorthands = [(t, m) for t, m in shorthands if t != text]
    return "".join(chosen) + printing.class_body(chars - covered, _spell_in_class)


@functools.lru_cache(maxsize=4096)  # printers spell the same classes over and over
def spell(chars: CharSet) -> str:
    """The shortest readable pattern matching exactly one character from ``chars``."""
    if not chars:
        return EMPTY_CLASS
    if chars.is_single():
        return spell_literal(chars.first())
    if chars == NOT_NEWLINE:
        return "."
    candidates = [f"[{_class_body(chars)}]"]
    rest = UNICODE - chars
    if rest:
        candidates.append(f"[^{_class_body(rest)}]")
    for text, members in _contained_shorthands(chars):
        if members == chars:
            candidates.append(text)
    return min(candidates, key=len)


def interval_class(chars: CharSet) -> str:
    """A pattern matching exactly one character of ``chars``: the bracketed list of its intervals.
    Less readable than :func:`spell`, but cheap for any set, as it never consults the Unicode-wide
    shorthand tables (for code that matches with ``re`` and never shows the pattern)."""
    return f"[{printing.class_body(chars, _spell_in_class)}]" if chars else EMPTY_CLASS


_ASSERTION_TEXT = {
    AssertKind.TEXT_START: "^",
    AssertKind.TEXT_END: "\\Z",
    AssertKind.END_OR_FINAL_NEWLINE: "$",
    AssertKind.LINE_START: "(?m:^)",
    AssertKind.LINE_END: "(?m:$)",
    AssertKind.WORD_BOUNDARY: "\\b",
    AssertKind.NOT_WORD_BOUNDARY: "\\B",
}


class _PythonNotation:
    name = "python"
    union_sep = "|"
    concat_sep = ""
    intersection_sep: str | None = None
    complement_prefix: str | None = None
    group_open = "(?:"
    stacked_postfix = False
    lookarounds = True

    def epsilon(self) -> Printed:
        return "", Prec.CONCAT

    def empty_set(self) -> Printed:
        return EMPTY_CLASS, Prec.ATOM

    def chars(self, chars: CharSet) -> Printed:
        return spell(chars), Prec.ATOM

    def assertion(self, kind: AssertKind) -> Printed:
        # re refuses to repeat an assertion, so report a level that forces a group under a quantifier.
        return _ASSERTION_TEXT[kind], Prec.POSTFIX


def unparse(regex: Regex) -> str:
    """Print ``regex`` as a Python ``re`` pattern with minimal groups (ε as ``(?:)`` or nothing)."""
    return printing.unparse(regex, _PythonNotation())
