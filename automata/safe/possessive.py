"""Possessive loops: the cut Python (3.11 and later) and PCRE offer, written only where it keeps the language.

``[a-z]*+`` takes the longest run of its class and never gives a character back, so the engine has
nothing to retry inside it (:func:`automata.redos.space.build` models exactly that). It changes the
language when the rest of the pattern could have started inside the run: ``a*+a`` matches nothing.
The language of a possessive loop ``C{m,}+`` followed by ``R`` is exactly ``C{m,}(R ∩ ~(CΣ*))``, the
run followed by a rest that does not start with ``C`` (:func:`language`), so the caller compares it
with the original on minimal DFAs, not on a sufficient condition. :func:`loops` proposes the
top-level loops whose class is disjoint from what can follow, where the cut is likely to hold.
JavaScript has no possessive quantifiers.
"""

from __future__ import annotations

import functools

from automata.redos.space import loop_of
from regexlang.ast import (
    Chars,
    Complement,
    Concat,
    Epsilon,
    Optional,
    Plus,
    Regex,
    Repeat,
    Star,
    Union,
    concat,
    intersection,
)
from regexlang.charset import EMPTY, UNICODE, CharSet
from regexlang.errors import NotExpressible
from regexlang.flavors import Flavor
from regexlang.flavors import render as render_flavor

_ANY = Star(Chars(UNICODE))


def _parts(regex: Regex) -> tuple[Regex, ...]:
    return regex.parts if isinstance(regex, Concat) else (regex,)


def loops(regex: Regex) -> tuple[int, ...]:
    """Top-level loops of one class (see :func:`automata.redos.space.loop_of`) that no character
    of their class can follow: the parts to try possessive."""
    parts = _parts(regex)
    marked = []
    for index, part in enumerate(parts):
        try:
            chars, _ = loop_of(part)
        except ValueError:
            continue
        if not chars & _first(parts[index + 1 :]):
            marked.append(index)
    return tuple(marked)


def language(regex: Regex, marks: tuple[int, ...]) -> Regex:
    """The language of ``regex`` with the top-level parts ``marks`` possessive (module doc)."""
    rest: Regex = Epsilon()
    for index, part in reversed(tuple(enumerate(_parts(regex)))):
        if index in marks:
            chars, low = loop_of(part)
            cut = intersection(rest, Complement(concat(Chars(chars), _ANY)))
            rest = concat(Repeat(Chars(chars), low, None), cut)
        else:
            rest = concat(part, rest)
    return rest


def render(
    regex: Regex, marks: tuple[int, ...], flavor: Flavor, universe: CharSet = UNICODE
) -> str:
    """``regex`` printed for ``flavor`` (python or pcre) over ``universe`` (as
    :func:`regexlang.flavors.render`) with the parts ``marks`` possessive.

    Raises ``NotExpressible`` when a marked part does not print as a quantified class."""
    pieces = []
    for index, part in enumerate(_parts(regex)):
        text = render_flavor(part, flavor, "fullmatch", universe)
        if isinstance(part, Union):
            text = f"(?:{text})"
        if index in marks:
            if not text.endswith(("*", "+", "}")):
                raise NotExpressible(f"{text} does not print as a loop to make possessive")
            text += "+"
        pieces.append(text)
    return "".join(pieces)


def _first(parts: tuple[Regex, ...]) -> CharSet:
    """The characters a text matched by the sequence ``parts`` can start with (over-approximated:
    what reads nothing is taken as skippable)."""
    first = EMPTY
    for part in parts:
        chars, skippable = _starts(part)
        first |= chars
        if not skippable:
            break
    return first


@functools.lru_cache(maxsize=1 << 12)
def _starts(regex: Regex) -> tuple[CharSet, bool]:
    """(first characters, whether it may read nothing) of ``regex``, over-approximated."""
    if isinstance(regex, Chars):
        return regex.chars, False
    if isinstance(regex, Concat):
        return _first(regex.parts), all(_starts(part)[1] for part in regex.parts)
    if isinstance(regex, Union):
        found = [_starts(option) for option in regex.options]
        return functools.reduce(CharSet.union, (c for c, _ in found), EMPTY), any(
            s for _, s in found
        )
    if isinstance(regex, (Star, Optional)):
        return _starts(regex.inner)[0], True
    if isinstance(regex, Plus):
        return _starts(regex.inner)
    if isinstance(regex, Repeat):
        chars, skippable = _starts(regex.inner)
        return chars, skippable or regex.min == 0
    return UNICODE, True
