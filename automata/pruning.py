"""Simplification of regexes written with ``&`` and ``~``, each step checked on automata.

A learner's templates spell conjunctions as they were assembled (``…&Σ*&[A-Za-z#]*``); here what
changes nothing is dropped: conjuncts the others imply, options inside the others, parts with an
empty language; and a conjunction or complement is written without ``&``/``~`` where the readable
print of its automaton (:func:`automata.printing.readable.readable`) is lighter.
"""

from __future__ import annotations

import functools

from automata.algebra.ops import intersection as intersection_dfa
from automata.algebra.ops import is_empty, is_subset
from automata.algebra.ops import union as union_dfa
from automata.building.compile import compile_many, compile_regex
from automata.errors import AutomataError
from automata.printing.readable import readable, weight
from automata.printing.structure import STATE_LIMIT
from regexlang.ast import (
    Complement,
    Concat,
    EmptySet,
    Intersection,
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
from regexlang.normalize import normalize


def pruned(regex: Regex, universe: CharSet) -> Regex:
    """``regex`` without the conjuncts of its intersections that the other conjuncts imply, the
    options of its unions inside the other options, and its parts with an empty language (``∅``
    then simplifies away); an intersection or complement written without ``&``/``~`` where that is
    lighter (:func:`readable`). Same language over ``universe``, each change checked on automata.
    A regex without ``&`` and ``~`` is returned as it is (a learner's templates without them are
    written minimal, and checking each union costs a compile per option)."""
    if not _boolean(regex):
        return regex
    match regex:
        case Intersection(parts) | Union(parts):
            kept = [pruned(part, universe) for part in parts]
            try:
                kept = _drop_redundant(kept, isinstance(regex, Intersection), universe)
            except AutomataError:
                pass
            rebuilt = normalize((intersection if isinstance(regex, Intersection) else union)(*kept))
            return _plainer(rebuilt, universe) if isinstance(rebuilt, Intersection) else rebuilt
        case Concat(parts):
            return normalize(concat(*(pruned(part, universe) for part in parts)))
        case Complement(inner):
            return _plainer(normalize(Complement(pruned(inner, universe))), universe)
        case Star(inner) | Plus(inner) | Optional(inner):
            return normalize(type(regex)(pruned(inner, universe)))
        case Repeat(inner, low, high):
            return normalize(Repeat(pruned(inner, universe), low, high))
        case _:
            return regex


@functools.lru_cache(maxsize=4096)
def _boolean(regex: Regex) -> bool:
    return isinstance(regex, (Intersection, Complement)) or any(map(_boolean, children(regex)))


def _plainer(regex: Regex, universe: CharSet) -> Regex:
    """:func:`readable` of ``regex``'s automaton when that is lighter than ``regex``, else ``regex``."""
    try:
        plain = readable(
            compile_regex(regex, universe, state_limit=STATE_LIMIT), size_limit=STATE_LIMIT
        )
    except AutomataError:
        return regex
    return plain if weight(plain) < weight(regex) else regex


def _drop_redundant(parts: list[Regex], conjunction: bool, universe: CharSet) -> list[Regex]:
    """``parts`` without those the others make redundant, the last first: for a conjunction, a part
    containing the intersection of the others; for a union, a part inside the union of the others."""
    dfas = compile_many(parts, universe, state_limit=STATE_LIMIT)
    if conjunction and any(is_empty(dfa) for dfa in dfas):
        return [EmptySet()]
    combine = intersection_dfa if conjunction else union_dfa
    kept = list(range(len(parts)))
    for i in reversed(range(len(parts))):
        others = [dfas[j] for j in kept if j != i]
        if not others:
            break
        rest = functools.reduce(lambda a, b: combine(a, b, state_limit=STATE_LIMIT), others)
        smaller, larger = (rest, dfas[i]) if conjunction else (dfas[i], rest)
        if is_subset(smaller, larger, state_limit=STATE_LIMIT):
            kept.remove(i)
    return [parts[i] for i in kept]
