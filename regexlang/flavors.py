"""Printing a tree for the regex engine a practitioner pastes it into: Python, PCRE, JavaScript, RE2, POSIX.

The tree's language is a whole-string match over a universe of characters. Engines differ in how
that is written: escapes and class syntax (POSIX brackets take no backslashes), which shorthands
mean what (``\\d`` is ASCII in PCRE, JavaScript and RE2, Unicode in Python), group syntax, and how a
whole-string match is asked for: ``re.fullmatch`` and ``RE2::FullMatch`` need no anchors, while a
search (JavaScript ``test``, ``grep -E``, ``preg_match``) needs them, or it silently matches
substrings. ``.`` stands for "any character but a newline" (POSIX's: any character), so a class
holding a newline of the universe prints as ``[\\s\\S]``.
Intersection and complement exist in no engine: they raise :class:`NotExpressible` (a caller with
automata writes them with lookaheads where the flavour has them, :mod:`automata.printing.lookahead_print`,
or prints the equivalent automaton's regex). Lookarounds print in the python, pcre and javascript
flavours (:data:`LOOKAROUND_FLAVORS`); RE2 and POSIX matchers are automata without them."""

from __future__ import annotations

from typing import Literal

from regexlang import printing, python_printing
from regexlang.ast import AssertKind, Regex, Union
from regexlang.charset import UNICODE, CharSet
from regexlang.errors import NotExpressible
from regexlang.printing import Prec, Printed

Flavor = Literal["python", "pcre", "javascript", "re2", "posix"]
FLAVORS: tuple[Flavor, ...] = ("python", "pcre", "javascript", "re2", "posix")
#: The flavours whose engines read ``(?=…)``, ``(?!…)``, ``(?<=…)`` and ``(?<!…)``.
LOOKAROUND_FLAVORS: frozenset[Flavor] = frozenset({"python", "pcre", "javascript"})

#: ``fullmatch``: printed for an engine's whole-string call; ``search``: anchored for a search call.
Anchoring = Literal["fullmatch", "search"]
ANCHORINGS: tuple[Anchoring, ...] = ("fullmatch", "search")

#: The anchoring each flavour's usual call needs: Python and RE2 have a full-match call, the others
#: search.
DEFAULT_ANCHORING: dict[Flavor, Anchoring] = {
    "python": "fullmatch",
    "re2": "fullmatch",
    "pcre": "search",
    "javascript": "search",
    "posix": "search",
}

#: Anchors that make a search match the whole string (``$`` in PCRE and Python also matches before
#: a final newline, so they get ``\\z``/``\\Z``).
_ANCHORS: dict[Flavor, tuple[str, str]] = {
    "python": ("^", "\\Z"),
    "pcre": ("\\A", "\\z"),
    "javascript": ("^", "$"),
    "re2": ("^", "$"),
    "posix": ("^", "$"),
}

_METACHARS = frozenset(".^$*+?{}[]\\|()")
_CLASS_SPECIALS = frozenset("\\]^-[")
_DIGITS = CharSet.range("0", "9")
_WORD = CharSet.range("A", "Z") | CharSet.range("a", "z") | _DIGITS | CharSet.of("_")
_NEWLINE = CharSet.of("\n")
_ANY = (UNICODE, UNICODE - _NEWLINE)


def render(
    regex: Regex, flavor: Flavor, anchored: Anchoring | None = None, universe: CharSet = UNICODE
) -> str:
    """``regex`` as a pattern of ``flavor``, anchored for a search call when ``anchored`` (default:
    :data:`DEFAULT_ANCHORING`) says so. A class holding all of ``universe`` prints as ``.``
    (``[\\s\\S]`` when it holds a newline of ``universe`` that the engine's ``.`` skips)."""
    body = printing.unparse(regex, _Notation(flavor, universe))
    return anchor(body, flavor, anchored, isinstance(regex, Union))


def anchor(
    body: str, flavor: Flavor, anchored: Anchoring | None = None, alternation: bool = False
) -> str:
    """``body``, a whole-string print for ``flavor``, anchored for a search call when ``anchored``
    (default: :data:`DEFAULT_ANCHORING`) says so; ``alternation``: the body is an alternation at
    its top, which the anchors must not split, so it is grouped first."""
    if (anchored or DEFAULT_ANCHORING[flavor]) == "fullmatch":
        return body
    start, end = _ANCHORS[flavor]
    return f"{start}{_group_open(flavor) + body + ')' if alternation else body}{end}"


def _group_open(flavor: Flavor) -> str:
    return "(" if flavor == "posix" else "(?:"


class _Notation:
    """The spelling of one flavour for :func:`regexlang.printing.unparse`."""

    union_sep = "|"
    concat_sep = ""
    intersection_sep: str | None = None
    complement_prefix: str | None = None
    stacked_postfix = False

    def __init__(self, flavor: Flavor, universe: CharSet) -> None:
        self.name: str = flavor
        self.flavor = flavor
        self.universe = universe
        self.group_open = _group_open(flavor)
        self.lookarounds = flavor in LOOKAROUND_FLAVORS

    def epsilon(self) -> Printed:
        return ("()", Prec.ATOM) if self.flavor == "posix" else ("", Prec.CONCAT)

    def empty_set(self) -> Printed:
        if self.flavor in ("posix", "re2"):
            raise NotExpressible(f"the empty language has no spelling in {self.flavor}")
        return ("[^\\s\\S]" if self.flavor != "javascript" else "[]"), Prec.ATOM

    def _any(self, chars: CharSet) -> str:
        """A class that holds the whole universe (or every character but the newline): ``.``,
        unless the universe has a newline the class holds and the engine's ``.`` skips it."""
        if self.flavor == "posix" or not chars & self.universe & _NEWLINE:
            return "."
        return "[\\s\\S]"

    def chars(self, chars: CharSet) -> Printed:
        if chars in _ANY or chars == self.universe:
            return self._any(chars), Prec.ATOM
        if self.flavor == "python":
            return python_printing.spell(chars), Prec.ATOM
        if chars.is_single():
            return self._literal(chars.first()), Prec.ATOM
        if self.flavor != "posix" and chars == _DIGITS:
            return "\\d", Prec.ATOM
        if self.flavor != "posix" and chars == _WORD:
            return "\\w", Prec.ATOM
        inside = f"[{self._body(chars)}]"
        rest = UNICODE - chars
        outside = f"[^{self._body(rest)}]" if rest else inside
        return min(inside, outside, key=len), Prec.ATOM

    def assertion(self, kind: AssertKind) -> Printed:
        if (
            kind is AssertKind.TEXT_END and self.flavor in LOOKAROUND_FLAVORS
        ):  # ends a lookahead's body
            return _ANCHORS[self.flavor][1], Prec.POSTFIX
        raise NotExpressible(f"assertion {kind.value} is not printed in the {self.flavor} flavour")

    def _literal(self, char: str) -> str:
        if char in _METACHARS:
            return "\\" + char
        if char.isprintable() or self.flavor == "posix":
            return char
        return self._code(char)

    def _code(self, char: str) -> str:
        code = ord(char)
        if self.flavor in ("pcre", "re2"):
            return f"\\x{{{code:x}}}"
        if code < 0x100:
            return f"\\x{code:02x}"
        return f"\\u{code:04x}" if code < 0x10000 else f"\\u{{{code:x}}}"

    def _body(self, chars: CharSet) -> str:
        if self.flavor != "posix":
            return printing.class_body(chars, self._in_class)
        # POSIX brackets have no escapes: ']' goes first, '-' last, '^' anywhere but first.
        tail = "-" if "-" in chars else ""
        head = "]" if "]" in chars else ""
        body = printing.class_body(chars - CharSet.of("-]"), lambda c: c)
        if not head and body.startswith("^"):
            body = body[1:] + "^"
        return head + body + tail

    def _in_class(self, char: str) -> str:
        if char in _CLASS_SPECIALS:
            return "\\" + char
        return char if char.isprintable() else self._code(char)
