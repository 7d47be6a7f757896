"""Labeled examples as the learner sees them: plain strings and clustered (symbolic) strings.

An :class:`Example` is one string and whether the target contains it. A :class:`ClusteredExample`
is a sequence of *positions*, each a set of characters (a single character is a literal), and it
stands for every string that picks one character per position. The teacher builds clustered
examples from a path through a minimal difference automaton, grouping the characters that lead from
one state to the same successor, so every string a clustered example stands for follows the same
state path and has the same label. The learner must read it *universally*: a hypothesis satisfies
it only if it labels every one of those strings correctly (:func:`oracle.clustered.satisfies`).

Both print in the prompt format of the seed paper, ``<string>, <label>`` with the empty string as an
empty field (``, 1``). Clustered positions print as a literal character, a class such as ``[0-9]``
or ``[A-Za-z]``, or the negated class ``[^0-9]`` relative to the universe when that needs fewer
ranges, so ``S[0-9]#run, 1`` stands for ``S0#run`` … ``S9#run``; ``.`` is the whole universe where
listing it would need escapes (all of Unicode). Every
character that is regex syntax in some dialect is escaped with a backslash where it stands for
itself (``\\. \\* \\( \\[`` … outside a class, ``\\] \\\\ \\^ \\-`` inside one), so a printed example reads back
to exactly the strings it stands for (:func:`parse_pattern`, given the same universe): ``a\\.b``
is one string and ``a.b`` is every ``a?b``. The ``cegml`` spelling prints classes as the reference
code does (ranges of three or more, ``[^…]`` only when strictly shorter, no escapes). A
plain example prints its string verbatim except for backslashes and characters that cannot be
printed, which take Python string escapes (``\\\\``, ``\\n``, ``\\x00``): a line break inside a string
would otherwise end the line, and the python dialect's teacher does produce such strings (the
shortest string telling ``.*`` from ``(?s).*`` is a newline).
"""

from __future__ import annotations

import functools
import itertools
import operator
import re
from collections.abc import Iterator
from typing import Literal, TypeAlias

import attrs

from regexlang.charset import UNICODE, CharSet

_STRING_ESCAPES = frozenset("\\")
#: Regex syntax in at least one dialect, escaped where it stands for itself in a clustered example.
_LITERAL_ESCAPES = frozenset("\\.[](){}*+?|^$&~")
_CLASS_ESCAPES = frozenset("[]\\^-")

#: How clustered positions print: escaped (unambiguous) or as the reference code spells them.
Spelling = Literal["escaped", "cegml"]


@attrs.frozen(cache_hash=True)  # examples are dictionary keys in every learner round
class Example:
    """A string and whether the target language contains it."""

    string: str
    label: bool

    def strings(self) -> Iterator[str]:
        """The one string (the view every counterexample shares with :meth:`ClusteredExample.strings`)."""
        return iter((self.string,))

    def representative(self) -> str:
        """The string itself (as :meth:`ClusteredExample.representative`)."""
        return self.string

    def size(self) -> int:
        """How many strings the example stands for: one."""
        return 1

    def __contains__(self, string: object) -> bool:
        return string == self.string

    def text(self) -> str:
        """The prompt line: ``<string>, <1|0>``, with backslashes and unprintable characters escaped."""
        return f"{escape_string(self.string)}, {int(self.label)}"

    def __str__(self) -> str:
        return self.text()

    @classmethod
    def from_text(cls, line: str) -> Example:
        """Parse a prompt line ``<string>, <1|0>`` (the string may itself contain ``", "``)."""
        string, sep, label = line.rpartition(", ")
        if not sep or label.strip() not in ("0", "1"):
            raise ValueError(f"not an example line '<string>, <0|1>': {line!r}")
        return cls(unescape_string(string), label.strip() == "1")


class _SingleChars(dict[tuple[tuple[int, int], ...], "str | None"]):
    """The one character of each single-character interval tuple seen (None for larger sets), so
    that telling a literal clustered example from a class runs in C (``map`` over a dict)."""

    def __missing__(self, intervals: tuple[tuple[int, int], ...]) -> str | None:
        single = (
            chr(intervals[0][0])
            if len(intervals) == 1 and intervals[0][0] == intervals[0][1]
            else None
        )
        if len(self) < 65_536:
            self[intervals] = single
        return single


_SINGLE = _SingleChars()
_INTERVALS = operator.attrgetter("intervals")


def _positions(value: tuple[CharSet | str, ...]) -> tuple[CharSet, ...]:
    if type(value) is tuple and set(map(type, value)) <= {CharSet} and all(map(_INTERVALS, value)):
        return value  # type: ignore[return-value]  # the common case, checked without rebuilding
    sets = []
    for p in value:
        if isinstance(p, str):
            if len(p) != 1:
                raise ValueError("a literal position must be exactly one character")
            p = CharSet.of(p)
        elif not p.intervals:
            raise ValueError("a clustered position cannot be empty")
        sets.append(p)
    return tuple(sets)


@attrs.frozen(cache_hash=True)
class ClusteredExample:
    """Positions (literal characters or character classes) standing for many strings, one label.

    ``universe`` and ``spelling`` only decide how a class prints (``[^0-9]`` is relative to the
    universe); they take no part in equality, since the strings represented are fixed by
    ``positions`` alone.
    """

    positions: tuple[CharSet, ...] = attrs.field(converter=_positions)
    label: bool
    universe: CharSet = attrs.field(default=UNICODE, eq=False, repr=False)
    spelling: Spelling = attrs.field(default="escaped", eq=False, repr=False)

    @classmethod
    def from_text(cls, line: str, universe: CharSet = UNICODE) -> ClusteredExample:
        """Parse a prompt line ``<pattern>, <1|0>`` printed with the escaped spelling over ``universe``."""
        pattern, sep, label = line.rpartition(", ")
        if not sep or label.strip() not in ("0", "1"):
            raise ValueError(f"not an example line '<pattern>, <0|1>': {line!r}")
        return cls(parse_pattern(pattern, universe), label.strip() == "1", universe)

    @classmethod
    def of_string(cls, string: str, label: bool, universe: CharSet = UNICODE) -> ClusteredExample:
        """The clustered example holding exactly one string."""
        return cls(tuple(CharSet.of(c) for c in string), label, universe)

    def is_literal(self) -> bool:
        """Whether every position is a single character (it stands for exactly one string)."""
        return all(p.is_single() for p in self.positions)

    def representative(self) -> str:
        """The smallest string represented: the first character of every position."""
        return "".join(p.first() for p in self.positions)

    def size(self) -> int:
        """How many strings the example stands for."""
        count = 1
        for p in self.positions:
            count *= len(p)
        return count

    def __contains__(self, string: object) -> bool:
        return (
            isinstance(string, str)
            and len(string) == len(self.positions)
            and all(c in p for c, p in zip(string, self.positions))
        )

    def strings(self) -> Iterator[str]:
        """Every represented string, in lexicographic order of code points (can be huge)."""
        return map("".join, itertools.product(*self.positions))

    def pattern(self) -> str:
        """The positions printed compactly, e.g. ``S[0-9]#run``."""
        return self._printed

    @functools.cached_property
    def _printed(self) -> str:
        # Printed once per example: a learner prints every example into every prompt of a run.
        return "".join(format_position(p, self.universe, self.spelling) for p in self.positions)

    def text(self) -> str:
        """The prompt line: ``<pattern>, <1|0>``."""
        return f"{self.pattern()}, {int(self.label)}"

    def __str__(self) -> str:
        return self.text()


Counterexample: TypeAlias = Example | ClusteredExample
ExampleKey: TypeAlias = str | tuple[CharSet, ...]


def length(example: Counterexample) -> int:
    """How many characters every string of ``example`` has."""
    return len(example.string) if isinstance(example, Example) else len(example.positions)


def identity(example: Counterexample) -> ExampleKey:
    """What makes two counterexamples the same one, whatever their label or type: the string, or the
    positions of a clustered example (a clustered example of single characters is its string)."""
    if isinstance(example, Example):
        return example.string
    singles = list(map(_SINGLE.__getitem__, map(_INTERVALS, example.positions)))
    return example.positions if None in singles else "".join(singles)  # type: ignore[arg-type]


def escape_string(string: str) -> str:
    """``string`` with backslashes doubled and unprintable characters as Python escapes."""
    if string.isprintable() and "\\" not in string:  # most examples, at C speed: prompts hold many
        return string
    return "".join(_char(c, _STRING_ESCAPES) for c in string)


_ESCAPE = re.compile(r"\\(\\|n|t|r|x[0-9a-f]{2}|u[0-9a-f]{4}|U[0-9a-f]{8})")
_NAMED = {"\\": "\\", "n": "\n", "t": "\t", "r": "\r"}


def unescape_string(text: str) -> str:
    """The inverse of :func:`escape_string`."""
    return _ESCAPE.sub(lambda m: _NAMED.get(m[1]) or chr(int(m[1][1:], 16)), text)


def _char(c: str, escapes: frozenset[str]) -> str:
    if c in escapes:
        return "\\" + c
    if c.isprintable():
        return c
    if c in "\n\t\r":
        return {"\n": "\\n", "\t": "\\t", "\r": "\\r"}[c]
    code = ord(c)
    return (
        f"\\x{code:02x}"
        if code < 0x100
        else f"\\u{code:04x}"
        if code < 0x10000
        else f"\\U{code:08x}"
    )


def _class_body(chars: CharSet) -> str:
    parts = []
    for lo, hi in chars.intervals:
        first = _char(chr(lo), _CLASS_ESCAPES)
        if hi == lo:
            parts.append(first)
        elif hi == lo + 1:
            parts.append(first + _char(chr(hi), _CLASS_ESCAPES))
        else:
            parts.append(f"{first}-{_char(chr(hi), _CLASS_ESCAPES)}")
    return "".join(parts)


def format_position(
    chars: CharSet, universe: CharSet = UNICODE, spelling: Spelling = "escaped"
) -> str:
    """A position printed compactly: a literal, ``[a-c]``, or ``[^0-9]`` relative to ``universe``.

    The negated form is used when it needs fewer ranges than the positive one (and ``chars`` lies in
    the universe). A class holding exactly the universe prints as ``.`` when listing it would need
    escapes (all of Unicode); a small printable universe such as ``{a, b, c}`` prints as the class
    itself. ``spelling="cegml"`` prints the reference code's way instead (see the module doc).
    """
    if spelling == "cegml":
        return _cegml_position(chars, universe)
    if chars.is_single():
        return _char(chars.first(), _LITERAL_ESCAPES)
    positive = f"[{_class_body(chars)}]"
    if not chars.issubset(universe):
        return positive
    rest = universe.difference(chars)
    if rest.is_empty():
        return positive if positive.isascii() and "\\" not in positive else "."
    if len(rest.intervals) < len(chars.intervals):
        return f"[^{_class_body(rest)}]"
    return positive


def _cegml_position(chars: CharSet, universe: CharSet) -> str:
    """The reference code's spelling: runs of three or more as ``lo-hi``, shorter runs listed, the
    complement relative to the universe only when its text is strictly shorter, no escapes."""
    if chars.is_single():
        return chars.first()
    positive = f"[{_runs(chars)}]"
    rest = universe.difference(chars)
    if not chars.issubset(universe) or rest.is_empty():
        return positive
    negative = f"[^{_runs(rest)}]"
    return negative if len(negative) < len(positive) else positive


def _runs(chars: CharSet) -> str:
    return "".join(
        f"{chr(lo)}-{chr(hi)}" if hi - lo >= 2 else "".join(map(chr, range(lo, hi + 1)))
        for lo, hi in chars.intervals
    )


_PATTERN_ESCAPE = re.compile(r"\\(x[0-9a-f]{2}|u[0-9a-f]{4}|U[0-9a-f]{8}|[nrt]|.)", re.DOTALL)


def parse_pattern(text: str, universe: CharSet = UNICODE) -> tuple[CharSet, ...]:
    """The positions of a clustered pattern printed with the escaped spelling: the inverse of
    :meth:`ClusteredExample.pattern` for the same ``universe``."""
    positions: list[CharSet] = []
    i = 0
    while i < len(text):
        if text[i] == "[":
            chars, i = _parse_class(text, i + 1, universe)
            positions.append(chars)
        elif text[i] == ".":
            positions.append(universe)
            i += 1
        else:
            char, i = _parse_char(text, i)
            positions.append(CharSet.of(char))
    return tuple(positions)


def _parse_char(text: str, i: int) -> tuple[str, int]:
    """One character at ``i`` (an escape or itself) and the index after it."""
    if text[i] != "\\":
        return text[i], i + 1
    match = _PATTERN_ESCAPE.match(text, i)
    if match is None:
        raise ValueError(f"dangling backslash at {i} in {text!r}")
    code = match[1]
    return (
        _NAMED.get(code) or chr(int(code[1:], 16)) if len(code) > 1 or code in "nrt" else code
    ), match.end()


def _parse_class(text: str, i: int, universe: CharSet) -> tuple[CharSet, int]:
    """The class whose body starts at ``i`` (after ``[``) and the index after its ``]``."""
    negated = text.startswith("^", i)
    i += negated
    intervals: list[tuple[int, int]] = []
    while i < len(text) and text[i] != "]":
        low, i = _parse_char(text, i)
        high = low
        if text.startswith("-", i) and i + 1 < len(text) and text[i + 1] != "]":
            high, i = _parse_char(text, i + 1)
        intervals.append((ord(low), ord(high)))
    if i >= len(text):
        raise ValueError(f"unterminated class in {text!r}")
    chars = CharSet(tuple(intervals))
    return (universe.difference(chars) if negated else chars), i + 1
