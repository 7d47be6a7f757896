"""Language-preserving simplification of regexes, for the output of generators and learners.

A model that writes ``((a)*)*`` or ``(b|b)`` means ``a*`` or ``b``; comparing, deduplicating and
measuring candidates is easier on such a simplified tree. :func:`normalize` rebuilds a tree bottom
up through *smart constructors*: each one receives children that are already normalized and applies
the identities below for its own node type, so a single pass reaches a fixed point and
``normalize(normalize(r)) == normalize(r)``. Every rewrite preserves the language and none
increases the star depth (:func:`regexlang.metrics.star_depth`). A rewrite may produce a construct
its input lacked (``(r+)?`` becomes ``r*``, ``a|b`` one class ``[ab]``, ``[ab]&[c]`` becomes ``∅``),
so whether a dialect can print the result is the printer's question.

Rewrites (``ε`` the empty string, ``∅`` the empty language, ``⊤ = ~∅`` every string):

* Characters: an empty character set is ``∅``.
* Concatenation: flattened; any ``∅`` part makes it ``∅``; ``ε`` parts are dropped; adjacent equal
  stars ``r* r*`` become ``r*``.
* Union: flattened; ``∅`` options are dropped; repeated options are dropped, keeping the first
  occurrence; ``ε`` is dropped when another option already matches the empty string; a ``⊤``
  option makes it ``⊤``; options that are all character sets merge into one character set.
* Intersection: flattened; any ``∅`` part makes it ``∅``; ``⊤`` parts and repeated parts are
  dropped; parts that are all character sets merge into their common characters (``∅`` if none).
* Complement: ``~~r`` becomes ``r``.
* Star: ``ε*`` and ``∅*`` are ``ε``. Under a star only the body's non-empty strings matter, so the
  body is simplified as :func:`_star_body` explains: ``(r*)*``, ``(r+)*``, ``(r?)*`` and ``(r{0,m})*``,
  ``(r{1,m})*`` become ``r*``; star-like wrappers and ``ε`` inside a union are removed,
  ``(ε|r|s*)*`` becoming ``(r|s)*``; and a concatenation of parts that all match ``ε`` becomes the
  union of its parts, ``(r* s?)*`` becoming ``(r|s)*``.
* Plus: ``ε+`` is ``ε``, ``∅+`` is ``∅``; ``(r+)+`` and ``(r{1,m})+`` become ``r+``; ``r+`` with
  ``ε`` in ``r`` is ``r*`` (so ``(r*)+`` and ``(r?)+`` become ``r*``).
* Optional: ``ε?`` and ``∅?`` are ``ε``; ``(r+)?`` becomes ``r*``; ``r?`` with ``ε`` in ``r`` is
  ``r`` (so ``(r*)?`` is ``r*`` and ``(r?)?`` is ``r?``).
* Counted repetition: ``r{0}`` is ``ε``; ``r{1}`` is ``r``; ``r{0,}``, ``r{1,}`` and ``r{0,1}`` are
  ``r*``, ``r+`` and ``r?``; ``ε{n,m}`` is ``ε``; ``∅{0,m}`` is ``ε`` and ``∅{n,m}`` with ``n > 0``
  is ``∅``; ``(r*){n,m}`` is ``r*``; ``r{n,}`` with ``ε`` in ``r`` is ``r*``.

"Matches the empty string" is decided conservatively (:func:`nullable`): assertions and
complements count as not matching it, so a rewrite that needs it is skipped rather than risked.
The star, union and concatenation identities are those of Kleene algebra, so they hold for the
python dialect's zero-width assertions too, which match the empty string only at some positions.
The ``~`` and ``⊤`` identities assume, as every parser guarantees, that the tree's characters lie
in the universe its complement is taken in: ``~~r`` is ``r`` only when ``r`` has no string outside it.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from regexlang.ast import (
    Assertion,
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
    children,
    concat,
    intersection,
    union,
)
from regexlang.charset import CharSet

_EMPTY = EmptySet()
_EPSILON = Epsilon()
_TOP = Complement(_EMPTY)


@functools.lru_cache(
    maxsize=1 << 14
)  # printers normalize the same subtrees over and over (state elimination)
def normalize(regex: Regex) -> Regex:
    """A simpler tree with the same language; idempotent, never deeper in stars (rules in the module doc)."""
    match regex:
        case Chars(chars):
            return regex if chars else _EMPTY
        case Concat(parts):
            return _concat(normalize(part) for part in parts)
        case Union(options):
            return _union(normalize(option) for option in options)
        case Intersection(parts):
            return _intersection(normalize(part) for part in parts)
        case Complement(inner):
            return _complement(normalize(inner))
        case Star(inner):
            return _star(normalize(inner))
        case Plus(inner):
            return _plus(normalize(inner))
        case Optional(inner):
            return _optional(normalize(inner))
        case Repeat(inner, low, high):
            return _repeat(normalize(inner), low, high)
        case EmptySet() | Epsilon() | Assertion() | Lookaround():
            return regex  # a lookbehind's body keeps its spelling: re measures its width on it


def nullable(regex: Regex) -> bool:
    """Whether ``regex`` surely matches the empty string wherever it is placed."""
    match regex:
        case Epsilon() | Star() | Optional():
            return True
        case Concat(parts) | Intersection(parts):
            return all(nullable(part) for part in parts)
        case Union(options):
            return any(nullable(option) for option in options)
        case Plus(inner):
            return nullable(inner)
        case Repeat(inner, low, _):
            return low == 0 or nullable(inner)
        case _:
            return False


def _flat(node_type: type[Concat | Union | Intersection], items: Iterable[Regex]) -> list[Regex]:
    flat: list[Regex] = []
    for item in items:
        flat.extend(children(item) if type(item) is node_type else (item,))
    return flat


def _concat(parts: Iterable[Regex]) -> Regex:
    kept: list[Regex] = []
    for part in _flat(Concat, parts):
        if part == _EMPTY:
            return _EMPTY
        if part == _EPSILON or (isinstance(part, Star) and kept and kept[-1] == part):
            continue
        kept.append(part)
    return concat(*kept)


def _union(options: Iterable[Regex]) -> Regex:
    kept: list[Regex] = []
    for option in _flat(Union, options):
        if option == _TOP:
            return _TOP
        if option != _EMPTY and option not in kept:
            kept.append(option)
    if _EPSILON in kept and any(nullable(option) for option in kept if option != _EPSILON):
        kept.remove(_EPSILON)
    sets = [option.chars for option in kept if isinstance(option, Chars)]
    if len(kept) > 1 and len(sets) == len(kept):
        return Chars(functools.reduce(CharSet.union, sets))
    return union(*kept)


def _intersection(parts: Iterable[Regex]) -> Regex:
    kept: list[Regex] = []
    for part in _flat(Intersection, parts):
        if part == _EMPTY:
            return _EMPTY
        if part != _TOP and part not in kept:
            kept.append(part)
    if not kept:
        return _TOP
    sets = [part.chars for part in kept if isinstance(part, Chars)]
    if len(kept) > 1 and len(sets) == len(kept):
        common = functools.reduce(CharSet.intersection, sets)
        return Chars(common) if common else _EMPTY
    return intersection(*kept)


def _complement(inner: Regex) -> Regex:
    return inner.inner if isinstance(inner, Complement) else Complement(inner)


def _star_body(regex: Regex) -> Regex:
    """The simplest ``b`` with ``b* = regex*``; ``∅`` when that star is ``ε``.

    A star repeats its body's strings freely, so anything whose repetitions yield exactly the
    body's repetitions can replace it: ``ε`` contributes nothing, a star-like wrapper (``r*``,
    ``r+``, ``r?``, ``r{0,m}``, ``r{1,m}``) lies between ``r`` and ``r*``, and a concatenation of
    parts that all match ``ε`` lies between the union of its parts and that union's star.
    """
    match regex:
        case Epsilon():
            return _EMPTY
        case Star(inner) | Plus(inner) | Optional(inner):
            return _star_body(inner)
        case Repeat(inner, low, _) if low <= 1:
            return _star_body(inner)
        case Union(options):
            return _union(_star_body(option) for option in options)
        case Concat(parts) if all(nullable(part) for part in parts):
            return _union(_star_body(part) for part in parts)
        case _:
            return regex


def _star(inner: Regex) -> Regex:
    body = _star_body(inner)
    return _EPSILON if body == _EMPTY else Star(body)


def _plus(inner: Regex) -> Regex:
    match inner:
        case EmptySet() | Epsilon() | Plus():
            return inner
        case _ if nullable(inner):
            return _star(inner)
        case Repeat(body, 1, _):
            return _plus(body)
        case _:
            return Plus(inner)


def _optional(inner: Regex) -> Regex:
    match inner:
        case EmptySet() | Epsilon():
            return _EPSILON
        case Plus(body):
            return _star(body)
        case _ if nullable(inner):
            return inner
        case _:
            return Optional(inner)


def _repeat(inner: Regex, low: int, high: int | None) -> Regex:
    match (low, high):
        case (_, 0):
            return _EPSILON
        case (1, 1):
            return inner
        case (0, None):
            return _star(inner)
        case (1, None):
            return _plus(inner)
        case (0, 1):
            return _optional(inner)
    match inner:
        case Epsilon():
            return _EPSILON
        case EmptySet():
            return _EPSILON if low == 0 else _EMPTY
        case Star():
            return inner
        case _ if high is None and nullable(inner):
            return _star(inner)
        case _:
            return Repeat(inner, low, high)
