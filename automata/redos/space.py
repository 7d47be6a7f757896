"""The search space of a backtracking matcher as an ε-free NFA that keeps path multiplicities.

A backtracking engine (Python ``re``, PCRE, JavaScript) explores, on a text it fails to match, every
path of the pattern's automaton that reads a prefix of the text. Its running time is therefore the
number of such paths, and that is what ambiguity measures (Weideman et al. 2016; Wüstholz et al.
2017). The automaton must keep what the engine keeps: a Glushkov (position) automaton whose follow
relation is a *set* forgets that ``(a+)+`` can go from ``a`` back to ``a`` in two ways (the inner
loop or the outer one), so here every link carries its multiplicity, one entry per ε-route of the
engine between two positions. Empty iterations of a loop are not routes: the engines stop a loop
whose iteration matched nothing, so ``(a*)*`` has two routes from ``a`` to ``a``, not infinitely
many. Counts above :data:`MANY` are kept as :data:`MANY`; two routes are all an exponential
ambiguity needs.

Each route also carries a *guard* (:class:`Guard`): the characters the next character read may not
be, and the assertions the route crosses. A possessive loop of one character class (``[a-z]*+``,
what the safe printer emits) gives up none of its characters, so the rest of the pattern starts on
a character outside the class. That is the whole search space of such a loop; general atomic groups
have none here. A negative lookahead of one class (``(?![a-z])``) is the same guard: the engine
decides it on the next character, and the python dialect reads ``[a-z]*+`` as ``[a-z]*(?![a-z])``
(:mod:`regexlang.cuts`), so a possessive print read back has the space of the loop it marks.
An assertion (``^``, ``\\b``, ``$`` …) is a route the engine takes only where it holds, which
:mod:`automata.redos.graph` decides from the character before and the one after:
``.*`` before ``^`` (how a ``search`` is modelled) cannot reach the rest of the pattern once it
has read a character, so ``^a*a*b`` under ``search`` is quadratic, not cubic.

Python's parser rewrites alternations before its engine sees them (``re._parser._parse_sub``): a
first item shared by every alternative moves out of the group (``a|a`` becomes ``a(?:|)``, still two
routes) and alternatives that are all single characters become one class (``(?i)a|A``, one route).
:func:`build` replays both for the python flavour, so the space is the one CPython explores; PCRE
and JavaScript keep alternations as written. Lookarounds are routes that read nothing: the space
over-approximates what they filter, and :mod:`automata.redos.graph` decides failure with the exact
automaton of the language, which does read them.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from automata.errors import StateLimitExceeded
from regexlang.ast import (
    Assertion,
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
from regexlang.charset import EMPTY, UNICODE, CharSet

#: Route counts are capped here: one route or several is all the analysis distinguishes.
MANY = 2
#: Positions a search space may have by default; a larger one is refused, never built slowly.
DEFAULT_POSITION_LIMIT = 4000
#: The set Python writes as ``.``: its parser never turns it into a class (it is ``ANY``).
_DOT = UNICODE - CharSet.of("\n")


@attrs.frozen(cache_hash=True)
class Guard:
    """What a route asks of the text where it lands: characters the next one may not be (what a
    possessive loop it leaves would have taken) and the assertions it crosses."""

    forbidden: CharSet = EMPTY
    asserts: frozenset[AssertKind] = frozenset()

    def __or__(self, other: Guard) -> Guard:
        if other == FREE:
            return self
        if self == FREE:
            return other
        return Guard(self.forbidden | other.forbidden, self.asserts | other.asserts)


#: The guard of a route that asks nothing.
FREE = Guard()

#: (position, guard) routes; position 0 is the start, before any character is read.
Routes = tuple[tuple[int, Guard], ...]


@attrs.frozen
class Space:
    """Positions ``1..n`` read ``sets[i]``; ``links[p]`` lists the routes ``(q, guard)`` from
    position ``p`` (0: the start) to position ``q``, one entry per route (at most :data:`MANY`
    per pair and guard). ``lookarounds`` are the bodies the engine runs as sub-matches."""

    sets: tuple[CharSet, ...]
    links: tuple[Routes, ...]
    lookarounds: tuple[Regex, ...]

    @property
    def asserts(self) -> frozenset[AssertKind]:
        """The assertions some route crosses."""
        return frozenset(kind for row in self.links for _, guard in row for kind in guard.asserts)

    @property
    def n_positions(self) -> int:
        """Positions, the start included."""
        return len(self.sets)


@attrs.frozen
class _Frag:
    """What a subexpression contributes: its ε-routes through (guards), first and last routes."""

    nullable: tuple[Guard, ...]
    first: Routes
    last: Routes


class _Builder:
    def __init__(self, python: bool, limit: int) -> None:
        self.python = python
        self.limit = limit
        self.sets: list[CharSet] = [EMPTY]
        self.links: list[list[tuple[int, Guard]]] = [[]]
        self.lookarounds: list[Regex] = []

    def position(self, chars: CharSet) -> int:
        if len(self.sets) > self.limit:
            raise StateLimitExceeded("the backtracking search space", self.limit, "positions")
        self.sets.append(chars)
        self.links.append([])
        return len(self.sets) - 1

    def link(self, sources: Routes, targets: Routes) -> None:
        for source, out_guard in sources:
            row = self.links[source]
            for target, in_guard in targets:
                guard = out_guard | in_guard
                if row.count((target, guard)) < MANY:
                    row.append((target, guard))

    def build(self, regex: Regex) -> _Frag:
        if isinstance(regex, Chars):
            p = self.position(regex.chars)
            return _Frag((), ((p, FREE),), ((p, FREE),))
        if isinstance(regex, Epsilon):
            return _Frag((FREE,), (), ())
        if isinstance(regex, Assertion):
            return _Frag((Guard(EMPTY, frozenset({regex.kind})),), (), ())
        if isinstance(regex, Lookaround):
            if regex.negative and not regex.behind and isinstance(regex.inner, Chars):
                # decided on the next character alone: a guard on the route, not a sub-match
                return _Frag((Guard(regex.inner.chars),), (), ())
            self.lookarounds.append(regex.inner)
            return _Frag((FREE,), (), ())
        if isinstance(regex, EmptySet):
            return _Frag((), (), ())
        if isinstance(regex, Concat):
            return self.sequence(regex.parts)
        if isinstance(regex, Union):
            return self.alternatives([_parts(option) for option in regex.options])
        if isinstance(regex, (Star, Plus)):
            inner = self.build(regex.inner)
            self.link(inner.last, inner.first)
            return inner if isinstance(regex, Plus) else _Frag((FREE,), inner.first, inner.last)
        if isinstance(regex, Optional):
            inner = self.build(regex.inner)
            return _Frag(_capped(inner.nullable + (FREE,)), inner.first, inner.last)
        if isinstance(regex, Repeat):
            return self.repeat(regex)
        if isinstance(regex, (Intersection, Complement)):
            raise ValueError("intersection and complement have no backtracking engine")
        raise TypeError(f"unknown regex node {type(regex).__name__}")

    def repeat(self, regex: Repeat) -> _Frag:
        """``x{m,n}`` as the engine counts it: ``m`` copies, then nested optional copies
        ``(x(x)?)?`` (each further iteration is tried after the previous one), or a loop."""
        parts: list[Regex] = [regex.inner] * regex.min
        if regex.max is None:
            parts.append(Star(regex.inner))
            return self.sequence(tuple(parts))
        tail: Regex | None = None
        for _ in range(regex.max - regex.min):
            tail = Optional(regex.inner if tail is None else Concat((regex.inner, tail)))
        if tail is not None:
            parts.append(tail)
        return self.sequence(tuple(parts))

    def sequence(self, parts: Sequence[Regex]) -> _Frag:
        frag = _Frag((FREE,), (), ())
        for part in parts:
            frag = self.then(frag, self.build(part))
        return frag

    def then(self, left: _Frag, right: _Frag) -> _Frag:
        self.link(left.last, right.first)
        first = left.first + tuple((q, g | skip) for skip in left.nullable for q, g in right.first)
        last = right.last + tuple((p, g | skip) for skip in right.nullable for p, g in left.last)
        nullable = tuple(a | b for a in left.nullable for b in right.nullable)
        return _Frag(_capped(nullable), _capped_routes(first), _capped_routes(last))

    def alternatives(self, options: list[tuple[Regex, ...]]) -> _Frag:
        if not self.python:
            return self.union_of(options)
        prefix: list[Regex] = []
        while all(options) and all(option[0] == options[0][0] for option in options):
            prefix.append(options[0][0])
            options = [option[1:] for option in options]
        if all(_is_class(option) for option in options):
            merged = EMPTY
            for option in options:
                chars = option[0]
                assert isinstance(chars, Chars)
                merged |= chars.chars
            return self.sequence((*prefix, Chars(merged)))
        frag = self.sequence(prefix)
        return self.then(frag, self.union_of(options))

    def union_of(self, options: list[tuple[Regex, ...]]) -> _Frag:
        nullable: tuple[Guard, ...] = ()
        first: Routes = ()
        last: Routes = ()
        for option in options:
            frag = self.sequence(option)
            nullable += frag.nullable
            first += frag.first
            last += frag.last
        return _Frag(_capped(nullable), _capped_routes(first), _capped_routes(last))


def _parts(regex: Regex) -> tuple[Regex, ...]:
    if isinstance(regex, Concat):
        return regex.parts
    return () if isinstance(regex, Epsilon) else (regex,)


def _is_class(option: tuple[Regex, ...]) -> bool:
    return len(option) == 1 and isinstance(option[0], Chars) and option[0].chars != _DOT


def _capped(guards: tuple[Guard, ...]) -> tuple[Guard, ...]:
    kept: list[Guard] = []
    for guard in guards:
        if kept.count(guard) < MANY:
            kept.append(guard)
    return tuple(kept)


def _capped_routes(routes: Routes) -> Routes:
    kept: list[tuple[int, Guard]] = []
    for route in routes:
        if kept.count(route) < MANY:
            kept.append(route)
    return tuple(kept)


def build(
    regex: Regex,
    *,
    python: bool,
    possessive: Sequence[int] = (),
    limit: int = DEFAULT_POSITION_LIMIT,
) -> Space:
    """The search space of ``regex``.

    ``python`` replays ``re``'s alternation rewrites. ``possessive`` lists top-level parts (of a
    ``Concat``; 0 for any other regex) that are possessive loops of one character class, see
    :func:`loop_of`; the routes leaving them forbid that class. Raises ``StateLimitExceeded`` past
    ``limit`` positions.
    """
    builder = _Builder(python, limit)
    marked = frozenset(possessive)
    frag = _Frag((FREE,), ((0, FREE),), ((0, FREE),))
    for index, part in enumerate(_parts(regex)):
        piece = _possessive(builder, part) if index in marked else builder.build(part)
        frag = builder.then(frag, piece)
    return Space(
        tuple(builder.sets), tuple(tuple(row) for row in builder.links), tuple(builder.lookarounds)
    )


def _possessive(builder: _Builder, part: Regex) -> _Frag:
    """A possessive loop of one class: a chain of its mandatory copies ending in one position that
    loops on itself; the route out of it, and around it when it may be skipped, forbids the class
    for the next character."""
    chars, low = loop_of(part)
    chain = [builder.position(chars) for _ in range(max(low, 1))]
    for a, b in zip(chain, chain[1:], strict=False):
        builder.link(((a, FREE),), ((b, FREE),))
    loop = chain[-1]
    builder.link(((loop, FREE),), ((loop, FREE),))
    leave = Guard(chars)
    return _Frag((leave,) if low == 0 else (), ((chain[0], FREE),), ((loop, leave),))


def loop_of(part: Regex) -> tuple[CharSet, int]:
    """(class, minimum) of an unbounded loop of one character class, which a possessive
    quantifier may take; ``ValueError`` for any other part."""
    if isinstance(part, (Star, Plus)) and isinstance(part.inner, Chars):
        return part.inner.chars, 0 if isinstance(part, Star) else 1
    if isinstance(part, Repeat) and part.max is None and isinstance(part.inner, Chars):
        return part.inner.chars, part.min
    raise ValueError("only an unbounded loop of one character class can be possessive")
