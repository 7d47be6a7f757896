"""Precedence-based printing with minimal parentheses, shared by the three dialects.

The dialects agree on the shape of a regex and its operator ladder and differ only in spelling, so
one printer walks the tree and asks a :class:`Notation` for the dialect's words. Every printed
piece carries the binding strength (:class:`Prec`) of its outermost operator; a parent wraps a
child in a group exactly when the child binds more loosely than the parent's operand slot needs.
That single rule gives minimal parentheses, and because parsing flattens groups away it is also
what makes ``parse(unparse(r)) == r`` hold for the flat n-ary nodes of :mod:`regexlang.ast`.

The ladder, loosest first: union, intersection, concatenation, postfix quantifiers, prefix
complement, atoms. Complement binds tighter than quantifiers (``~a*`` is ``(~a)*``, as in the
extended dialect's brics/KB13 ancestry). A notation may print a node at a looser level than its
kind suggests to force grouping: python prints ``\\b`` at the postfix level because ``re`` refuses
to repeat an assertion, and ε as the empty string at the concatenation level so that ``a|`` needs
no group while ``(?:)*`` does.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Protocol

from regexlang.ast import (
    AssertKind,
    Chars,
    Complement,
    Concat,
    EmptySet,
    Epsilon,
    Intersection,
    Lookaround,
    Optional,
    Plus,
    Regex,
    Repeat,
    Star,
    Union,
)
from regexlang.charset import CharSet
from regexlang.errors import NotExpressible


class Prec(enum.IntEnum):
    """How tightly the outermost operator of a printed piece binds (higher binds tighter)."""

    UNION = 0
    INTERSECTION = 1
    CONCAT = 2
    POSTFIX = 3
    PREFIX = 4
    ATOM = 5


Printed = tuple[str, Prec]


class Notation(Protocol):
    """The spelling of one dialect; ``None`` separators mean the dialect lacks the operator."""

    name: str
    union_sep: str
    concat_sep: str
    intersection_sep: str | None
    complement_prefix: str | None
    group_open: str
    #: Whether a quantifier may follow a quantifier (``a**``) instead of needing a group.
    stacked_postfix: bool
    #: Whether ``(?=…)``, ``(?!…)``, ``(?<=…)``, ``(?<!…)`` can be written.
    lookarounds: bool

    def epsilon(self) -> Printed:
        """The empty string."""
        ...

    def empty_set(self) -> Printed:
        """The empty language (raise NotExpressible when the dialect has no spelling)."""
        ...

    def chars(self, chars: CharSet) -> Printed:
        """One character from ``chars``."""
        ...

    def assertion(self, kind: AssertKind) -> Printed:
        """A zero-width assertion."""
        ...


def quantifier_suffix(node: Star | Plus | Optional | Repeat) -> str:
    """The postfix spelling shared by every dialect: ``*``, ``+``, ``?``, ``{n}``, ``{n,m}``, ``{n,}``."""
    if isinstance(node, Star):
        return "*"
    if isinstance(node, Plus):
        return "+"
    if isinstance(node, Optional):
        return "?"
    if node.max is None:
        return f"{{{node.min},}}"
    if node.max == node.min:
        return f"{{{node.min}}}"
    return f"{{{node.min},{node.max}}}"


def unparse(regex: Regex, notation: Notation) -> str:
    """Print ``regex`` in ``notation`` with the fewest groups its precedence allows."""
    return _print(regex, notation)[0]


def _operand(node: Regex, notation: Notation, weakest: Prec) -> str:
    text, prec = _print(node, notation)
    return text if prec >= weakest else f"{notation.group_open}{text})"


def _print(node: Regex, notation: Notation) -> Printed:
    if isinstance(node, Union):
        texts = (_operand(option, notation, Prec.INTERSECTION) for option in node.options)
        return notation.union_sep.join(texts), Prec.UNION
    if isinstance(node, Intersection):
        if notation.intersection_sep is None:
            raise NotExpressible(f"intersection cannot be written in the {notation.name} dialect")
        texts = (_operand(part, notation, Prec.CONCAT) for part in node.parts)
        return notation.intersection_sep.join(texts), Prec.INTERSECTION
    if isinstance(node, Concat):
        texts = (_operand(part, notation, Prec.POSTFIX) for part in node.parts)
        return notation.concat_sep.join(texts), Prec.CONCAT
    if isinstance(node, (Star, Plus, Optional, Repeat)):
        weakest = Prec.POSTFIX if notation.stacked_postfix else Prec.PREFIX
        return _operand(node.inner, notation, weakest) + quantifier_suffix(node), Prec.POSTFIX
    if isinstance(node, Complement):
        if notation.complement_prefix is None:
            raise NotExpressible(f"complement cannot be written in the {notation.name} dialect")
        return notation.complement_prefix + _operand(node.inner, notation, Prec.PREFIX), Prec.PREFIX
    if isinstance(node, Chars):
        return notation.chars(node.chars)
    if isinstance(node, Epsilon):
        return notation.epsilon()
    if isinstance(node, EmptySet):
        return notation.empty_set()
    if isinstance(node, Lookaround):
        if not notation.lookarounds:
            raise NotExpressible(f"lookarounds cannot be written in the {notation.name} dialect")
        # Printed at the postfix level so that a quantifier groups it first: JavaScript refuses a
        # bare quantified lookbehind, and the group costs nothing in the others.
        return (
            f"{LOOKAROUND_OPEN[node.behind, node.negative]}{_print(node.inner, notation)[0]})",
            Prec.POSTFIX,
        )
    return notation.assertion(node.kind)


#: The opening of a lookaround by (behind, negative).
LOOKAROUND_OPEN = {
    (False, False): "(?=",
    (False, True): "(?!",
    (True, False): "(?<=",
    (True, True): "(?<!",
}


def _class_order(interval: tuple[int, int]) -> tuple[int, int]:
    lo = chr(interval[0])
    group = 0 if "A" <= lo <= "Z" else 1 if "a" <= lo <= "z" else 2 if "0" <= lo <= "9" else 3
    return group, interval[0]


def class_body(chars: CharSet, spell: Callable[[str], str]) -> str:
    """The items of a character class, conventional order first: ``A-Za-z0-9#`` rather than ``#0-9A-Za-z``.

    ``spell`` writes one character as it must appear inside brackets (escaped where needed).
    """
    items = []
    for lo, hi in sorted(chars.intervals, key=_class_order):
        if hi - lo >= 2:
            items.append(f"{spell(chr(lo))}-{spell(chr(hi))}")
        else:
            items.extend(spell(chr(code)) for code in range(lo, hi + 1))
    return "".join(items)
