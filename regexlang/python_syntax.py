"""The python dialect: Python ``re`` syntax for ``str`` patterns, read with ``re.fullmatch`` semantics.

The parser follows ``re._parser`` step by step (same tokens, same order of checks, the same odd
corners: ``{`` that is not a valid repetition is a literal, ``a(?#c)*`` repeats ``a``, global
flags only at the very start, verbose-mode whitespace and comments), so it accepts what
``re.compile`` accepts, with the same meaning, and reports errors at the positions ``re`` would.
Flags are applied while parsing: ``(?i)`` turns each literal and class into the set of characters
``re`` would match (:mod:`regexlang.python_casefold`), ``(?s)`` widens ``.``, ``(?m)`` picks the
line anchors. The tree therefore needs no flags, and printing never emits any except ``(?m:^)``
and ``(?m:$)`` for the line anchors.

Lookarounds ``(?=…)``, ``(?!…)``, ``(?<=…)``, ``(?<!…)`` are read as the regular languages they
denote (:class:`~regexlang.ast.Lookaround`; :mod:`automata.building.lookaround` compiles them), a lookbehind
only with a fixed width, as ``re`` demands. Possessive quantifiers and atomic groups cut
backtracking and so change the language (``a*+a`` matches nothing); they are read exactly where
the cut is a quantified character class (:mod:`regexlang.cuts`): ``C*+`` is ``C*(?!C)``, and an
atomic group is read when everything in it matches one way, but for a last loop of one class.
Rejected although ``re`` accepts them, because they are not regular in general or the tree cannot
hold them: backreferences, conditionals, other possessive quantifiers and atomic groups (their
language depends on the order ``re`` tries things), the ``(?a)`` and ``(?t)`` flags, and counts
above :data:`~regexlang.scanner.MAX_REPEAT_COUNT`. Capture groups, names and lazy quantifiers
parse and vanish: under ``fullmatch`` they do not change the language.

One deliberate simplification of ``re``'s optimiser: ``re`` turns an alternation of single
characters into a class, which changes the language only under ``(?i)`` for uppercase letters
outside the BMP; that case is reproduced when the alternatives are single characters, but not
after ``re`` factors out a common prefix (``(?i)x\\U00010400|xy``).
Alternatives written apart that read the same set (``(?i)a|A``) become that one class, as in
``re``; written alike (``a|a``), they stay a union, which ``re`` runs as two routes.

Printing lives in :mod:`regexlang.python_printing`; intersection and complement have no ``re``
spelling and raise ``NotExpressible``.
"""

from __future__ import annotations

import enum
import functools
import re
from typing import Literal

import attrs

from regexlang import cuts, python_printing
from regexlang.ast import (
    Assertion,
    AssertKind,
    Chars,
    EmptySet,
    Epsilon,
    Lookaround,
    Optional,
    Plus,
    Regex,
    Repeat,
    Star,
    concat,
    union,
)
from regexlang.charset import UNICODE, CharSet
from regexlang.python_casefold import ClassSpec, class_chars, literal_chars
from regexlang.python_escapes import EscapeReader
from regexlang.scanner import MAX_NESTING, MAX_REPEAT_COUNT, Scanner
from regexlang.widths import width


class Flag(enum.IntFlag):
    """The inline flags that change how a pattern reads."""

    IGNORECASE = 1
    MULTILINE = 2
    DOTALL = 4
    VERBOSE = 8


_FLAGS = {
    "i": Flag.IGNORECASE,
    "m": Flag.MULTILINE,
    "s": Flag.DOTALL,
    "x": Flag.VERBOSE,
    "u": Flag(0),
}
_REJECTED_FLAGS = {
    "a": "the ASCII flag (?a) is not supported",
    "L": "bad inline flags: cannot use 'L' flag with a str pattern",
    "t": "the template flag (?t) is not supported",
}
_SPECIAL = frozenset(".\\[{()*+?^$|")
_LITERAL_RUN = re.compile("[^" + re.escape("".join(sorted(_SPECIAL))) + "]+")
_WHITESPACE = frozenset(" \t\n\r\v\f")
_DIGITS = frozenset("0123456789")

_QUANTIFIERS: dict[str, type[Star] | type[Plus] | type[Optional]] = {
    "*": Star,
    "+": Plus,
    "?": Optional,
}

_Kind = Literal["unit", "assert", "repeat"]


@attrs.frozen
class _Item:
    """One element of a sequence, as ``re`` sees it: a unit, an assertion or a repetition.

    ``spec`` is set for single characters and non-negated classes, which ``re`` merges when they
    are the whole of every alternative; ``contents`` holds the items of a plain ``(?:...)`` group,
    which ``re`` splices into the enclosing sequence. ``lazy`` marks a lazy repetition;
    ``one_way``, a repetition or group that matches at most one way wherever it starts (a cut).
    """

    node: Regex
    kind: _Kind = "unit"
    spec: ClassSpec | None = None
    contents: tuple[_Item, ...] | None = None
    lazy: bool = False
    one_way: bool = False

    @property
    def matches_one_way(self) -> bool:
        """Whether the item matches at most one way wherever it starts, as an atomic group would."""
        one_way_node = isinstance(self.node, (Chars, EmptySet, Epsilon, Lookaround))
        return self.one_way or self.kind == "assert" or (self.kind == "unit" and one_way_node)


def _chars_node(chars: CharSet) -> Regex:
    return Chars(chars) if chars else EmptySet()


def parse(text: str) -> Regex:
    """Parse a Python ``re`` pattern into the language ``re.fullmatch`` accepts."""
    parser = _Parser(text)
    items = parser.alternation(Flag(0), 0)
    if not parser.scan.at_end():
        raise parser.scan.error("unbalanced ')'")
    return concat(*(item.node for item in items))


class _Parser:
    def __init__(self, text: str) -> None:
        self.scan = Scanner(text)
        self.escapes = EscapeReader(self.scan)
        self.global_flags = Flag(0)
        self.group_names: set[str] = set()

    def alternation(self, flags: Flag, depth: int) -> list[_Item]:
        branches: list[list[_Item]] = []
        while True:
            if depth == 0:
                flags = self.global_flags
            branches.append(self.sequence(flags, depth, first=depth == 0 and not branches))
            if not self.scan.accept("|"):
                break
        if len(branches) == 1:
            return branches[0]
        return [_merge_branches(branches, bool(flags & Flag.IGNORECASE))]

    def sequence(self, flags: Flag, depth: int, first: bool) -> list[_Item]:
        scan = self.scan
        text = scan.text
        items: list[_Item] = []
        # The flags only change at a global-flags group: read them once per change, not per character.
        ignorecase, verbose = bool(flags & Flag.IGNORECASE), bool(flags & Flag.VERBOSE)
        while scan.pos < len(text) and (char := text[scan.pos]) not in "|)":
            if (
                not verbose and (run := _LITERAL_RUN.match(text, scan.pos)) is not None
            ):  # literals, found in C
                scan.pos = run.end()
                items.extend([_literal_item(ord(c), ignorecase) for c in run.group()])
            elif char not in _SPECIAL and char not in _WHITESPACE and char != "#":
                scan.pos += 1
                items.append(_literal_item(ord(char), ignorecase))
            elif verbose and char in _WHITESPACE:
                scan.next()
            elif verbose and char == "#":
                while self.escapes.token() not in ("", "\n"):
                    pass
            elif char == "\\":
                items.append(self.escape(ignorecase))
            elif char == "[":
                items.append(self.char_class(ignorecase))
            elif char in "*+?{":
                self.repeat(items, ignorecase)
            elif char == ".":
                scan.next()
                items.append(
                    _Item(Chars(UNICODE if flags & Flag.DOTALL else python_printing.NOT_NEWLINE))
                )
            elif char == "(":
                group = self.group(flags, depth, first and not items)
                if group is None:
                    flags = self.global_flags if depth == 0 else flags
                    ignorecase, verbose = bool(flags & Flag.IGNORECASE), bool(flags & Flag.VERBOSE)
                else:
                    items.append(group)
            else:
                scan.next()
                items.append(_anchor(char, flags))
        return [inner for item in items for inner in (item.contents or (item,))]

    def escape(self, ignorecase: bool) -> _Item:
        value = self.escapes.outside_class()
        if isinstance(value, AssertKind):
            return _Item(Assertion(value), "assert")
        if isinstance(value, CharSet):
            spec = ClassSpec(categories=frozenset([value]))
            return _Item(_chars_node(class_chars(spec, ignorecase)), spec=spec)
        return _literal_item(value, ignorecase)

    def char_class(self, ignorecase: bool) -> _Item:
        scan = self.scan
        start = scan.pos
        scan.next()
        negate = scan.accept("^")
        literals: set[int] = set()
        ranges: set[tuple[int, int]] = set()
        categories: set[CharSet] = set()
        while True:
            item_start = scan.pos
            if scan.at_end():
                raise scan.error("unterminated character set", at=start)
            if scan.peek() == "]" and (literals or ranges or categories):
                scan.next()
                break
            low = self.escapes.in_class()
            if scan.peek() == "-" and scan.peek(1) not in ("", "]"):
                scan.next()
                high = self.escapes.in_class()
                if not isinstance(low, int) or not isinstance(high, int) or high < low:
                    raise scan.error(f"bad range {scan.text[item_start : scan.pos]}", at=item_start)
                ranges.add((low, high))
            else:
                if scan.peek() == "-" and scan.peek(1) == "]":
                    literals.add(ord("-"))
                    scan.next()
                if isinstance(low, int):
                    literals.add(low)
                else:
                    categories.add(low)
        if len(literals) == 1 and not ranges and not categories:
            (code,) = literals
            if not negate:
                return _literal_item(code, ignorecase)
            return _Item(_chars_node(literal_chars(code, ignorecase).complement()))
        spec = ClassSpec(frozenset(literals), frozenset(ranges), frozenset(categories), negate)
        return _Item(_chars_node(class_chars(spec, ignorecase)), spec=None if negate else spec)

    def repeat(self, items: list[_Item], ignorecase: bool) -> None:
        scan = self.scan
        start = scan.pos
        char = scan.next()
        node_for: type[Star] | type[Plus] | type[Optional] | tuple[int, int | None]
        if char == "{":
            if scan.peek() == "}":
                items.append(_literal_item(ord("{"), ignorecase))
                return
            low = scan.take_while(_DIGITS)
            high = scan.take_while(_DIGITS) if scan.accept(",") else low
            if not scan.accept("}"):
                scan.pos = start + 1
                items.append(_literal_item(ord("{"), ignorecase))
                return
            minimum, maximum = int(low or 0), int(high) if high else None
            if max(minimum, maximum or 0) > MAX_REPEAT_COUNT:
                raise scan.error(f"repetition count too large (max {MAX_REPEAT_COUNT})", at=start)
            if maximum is not None and maximum < minimum:
                raise scan.error(
                    f"repetition {scan.text[start : scan.pos]} has max below min", at=start
                )
            node_for = (minimum, maximum)
        else:
            node_for = _QUANTIFIERS[char]
        if not items or items[-1].kind == "assert":
            raise scan.error("nothing to repeat", at=start)
        if items[-1].kind == "repeat":
            raise scan.error("multiple repeat", at=start)
        inner = items.pop().node
        node = Repeat(inner, *node_for) if isinstance(node_for, tuple) else node_for(inner)
        if scan.accept("+"):
            cut = cuts.possessive(node)
            if cut is None:
                raise scan.unsupported(
                    "a possessive quantifier is supported only on one character class "
                    "(elsewhere its language depends on the order re backtracks in)",
                    at=start,
                )
            items.append(_Item(cut, "repeat", one_way=True))
            return
        items.append(_Item(node, "repeat", lazy=scan.accept("?")))

    def group(self, flags: Flag, depth: int, first: bool) -> _Item | None:
        """A parenthesised construct; None for comments and global flags, which add no item."""
        scan = self.scan
        start = scan.pos
        scan.next()
        capture = True
        if scan.accept("?"):
            capture = False
            char = scan.next()
            if char == "P":
                capture = self.named_group(start)
            elif char == "#":
                while (token := self.escapes.token()) != ")":
                    if not token:
                        raise scan.error("missing ), unterminated comment", at=start)
                return None
            elif char in ("=", "!", "<"):
                behind = char == "<"
                if behind and (char := scan.next()) not in ("=", "!"):
                    raise self.unknown_extension("?<", char, start)
                return self.lookaround(flags, depth, start, behind, negative=char == "!")
            elif char == "(":
                raise scan.unsupported(
                    "conditional groups are not supported (they test a captured group: not regular in general)",
                    at=start,
                )
            elif char == ">":
                return self.atomic(flags, depth, start)
            elif char in _FLAGS or char in _REJECTED_FLAGS or char == "-":
                scoped = self.flags(char)
                if scoped is None:
                    if not first:
                        raise scan.error(
                            "global flags not at the start of the expression", at=start
                        )
                    return None
                flags = (flags | scoped[0]) & ~scoped[1]
                return self.group_body(flags, depth, start, plain=False)
            elif not char:
                raise scan.error("unexpected end of pattern")
            elif char != ":":
                raise scan.error(f"unknown extension ?{char}", at=start + 1)
        return self.group_body(flags, depth, start, plain=not capture)

    def group_body(self, flags: Flag, depth: int, start: int, plain: bool) -> _Item:
        # Counted here, not on the text, so that comments and escaped parentheses never count.
        if depth >= MAX_NESTING:
            raise self.scan.error(f"groups nested deeper than {MAX_NESTING} levels", at=start)
        items = self.alternation(flags, depth + 1)
        if not self.scan.accept(")"):
            raise self.scan.error("unbalanced '('", at=start)
        node = concat(*(item.node for item in items))
        return _Item(node, contents=tuple(items) if plain else None)

    def lookaround(
        self, flags: Flag, depth: int, start: int, behind: bool, negative: bool
    ) -> _Item:
        """The rest of ``(?=``, ``(?!``, ``(?<=`` or ``(?<!``; a lookbehind needs a fixed width, as in ``re``."""
        body = self.group_body(flags, depth, start, plain=False).node
        if behind and len(set(width(body))) != 1:
            raise self.scan.error("look-behind requires fixed-width pattern", at=start)
        return _Item(Lookaround(body, behind, negative))

    def atomic(self, flags: Flag, depth: int, start: int) -> _Item:
        """The rest of ``(?>``: read where every item of its body matches one way, but for a last
        loop of one class, which it cuts (:mod:`regexlang.cuts`); rejected elsewhere."""
        contents = self.group_body(flags, depth, start, plain=True).contents or ()
        *fixed, last = contents or (_Item(Epsilon()),)
        cut: Regex | None = None
        if last.matches_one_way:
            cut = last.node
        elif last.kind == "repeat":  # a group's node has lost whether its loop was lazy
            cut = cuts.lazy_cut(last.node) if last.lazy else cuts.possessive(last.node)
        if cut is None or not all(item.matches_one_way for item in fixed):
            raise self.scan.unsupported(
                "an atomic group is supported only when all in it matches one way but for a last "
                "loop of one character class (elsewhere its language depends on the order re "
                "backtracks in)",
                at=start,
            )
        return _Item(concat(*(item.node for item in fixed), cut), one_way=True)

    def named_group(self, start: int) -> bool:
        """After ``(?P``: read ``<name>`` and return True (capture); reject ``=name)``."""
        scan = self.scan
        if scan.accept("<"):
            name = self.escapes.until(">", "group name")
            self.check_group_name(name)
            if name in self.group_names:
                raise scan.error(
                    f"redefinition of group name {name!r}", at=scan.pos - len(name) - 1
                )
            self.group_names.add(name)
            return True
        if scan.accept("="):
            self.check_group_name(self.escapes.until(")", "group name"))
            raise scan.unsupported("backreferences are not regular", at=start)
        raise self.unknown_extension("?P", scan.next(), start)

    def check_group_name(self, name: str) -> None:
        if not name.isidentifier():
            raise self.scan.error(
                f"bad character in group name {name!r}", at=self.scan.pos - len(name) - 1
            )

    def unknown_extension(self, prefix: str, char: str, start: int) -> Exception:
        """The error for ``(?P`` or ``(?<`` followed by ``char`` ("" at the end)."""
        if not char:
            return self.scan.error("unexpected end of pattern")
        return self.scan.error(f"unknown extension {prefix}{char}", at=start + 1)

    def flags(self, char: str) -> tuple[Flag, Flag] | None:
        """Flags after ``(?``: None for global ``(?imsx)`` (recorded), else the scoped (on, off) pair."""
        scan = self.scan
        on = off = Flag(0)
        while char not in ("-", ":", ")"):
            on |= self.flag_letter(char, "missing -, : or )")
            char = scan.next()
        if char == ")":
            self.global_flags |= on
            return None
        if char == "-":
            char = scan.next()
            if char in (":", ")", ""):
                raise scan.error("missing flag", at=scan.pos - len(char))
            while char != ":":
                off |= self.flag_letter(char, "missing :")
                char = scan.next()
            if on & off:
                raise scan.error("bad inline flags: flag turned on and off", at=scan.pos - 1)
        return on, off

    def flag_letter(self, char: str, missing: str) -> Flag:
        scan = self.scan
        if char in _REJECTED_FLAGS:
            raise scan.unsupported(_REJECTED_FLAGS[char])
        if char not in _FLAGS:
            message = "unknown flag" if char.isalpha() else missing
            raise scan.error(message, at=scan.pos - len(char))
        return _FLAGS[char]


@functools.lru_cache(maxsize=4096)
def _literal_item(code: int, ignorecase: bool) -> _Item:
    # Shared per character: items and their sets are immutable, and a long literal run then costs
    # one cache hit per character instead of building a set and a spec for each.
    return _Item(Chars(literal_chars(code, ignorecase)), spec=ClassSpec(literals=frozenset([code])))


def _anchor(char: str, flags: Flag) -> _Item:
    multiline = bool(flags & Flag.MULTILINE)
    if char == "^":
        kind = AssertKind.LINE_START if multiline else AssertKind.TEXT_START
    else:
        kind = AssertKind.LINE_END if multiline else AssertKind.END_OR_FINAL_NEWLINE
    return _Item(Assertion(kind), "assert")


def _single_spec(branch: list[_Item]) -> ClassSpec | None:
    return branch[0].spec if len(branch) == 1 else None


def _merge_branches(branches: list[list[_Item]], ignorecase: bool) -> _Item:
    """The alternation as one item; see the module docstring for ``re``'s class merging."""
    written = union(*(concat(*(item.node for item in branch)) for branch in branches))
    specs = [spec for spec in map(_single_spec, branches) if spec is not None]
    if len(specs) < len(branches):
        return _Item(written)
    merged = functools.reduce(ClassSpec.merge, specs)
    if ignorecase:
        chars = class_chars(merged, True)
        separate = [
            branch[0].node.chars for branch in branches if isinstance(branch[0].node, Chars)
        ]
        if chars != functools.reduce(CharSet.union, separate, CharSet()):
            return _Item(_chars_node(chars), spec=merged)
    nodes = {branch[0].node for branch in branches}
    if len(nodes) == 1 and len(set(specs)) > 1:
        # (?i)a|A: one class for re, which compares the items as written before merging them; the
        # union of equal trees would stand for a|a, whose shared item re factors out instead
        return _Item(nodes.pop(), spec=merged)
    return _Item(written, spec=merged)


def unparse(regex: Regex) -> str:
    """Print ``regex`` as a Python ``re`` pattern (for ``re.fullmatch``) with minimal groups."""
    return python_printing.unparse(regex)
