"""The small-regex path of the compiler: a position (Glushkov) automaton, determinized and
minimized by one small kernel.

Why it exists: the regexes of a learning loop are small (a dozen characters, DFAs of 3 to 30
states). For them the general pipeline (Thompson program in :mod:`automata.building.nfa`, subset
construction in :mod:`automata.building.determinize`, Valmari–Lehtinen in :mod:`automata.core.minimize`) spends
its time building the NFA program, converting arrays and dispatching three kernels; here one tree
walk builds the position automaton and one call of :func:`automata.core._small_kernels.minimal_positions`
returns the canonical minimal DFA, the same arrays the general pipeline produces.

How: every ``Chars`` occurrence is a *position*, and one pass over the tree computes, as Python int
bitsets, the positions that can come first, the ones that can come last, and links "any of these
may be followed by any of those" whose union is the follow relation (Glushkov's construction: no
ε-edges, so no ε-closures). The kernel's subset construction keys a DFA state by the positions that
can fire next plus one bit "the last character read can end a match". That key is exactly the item
set the Thompson subset construction stores (its CHAR items are these positions, its MATCH item this
bit), so the states counted and the items stored are the ones :func:`automata.building.determinize.determinize`
would count, and ``state_limit`` trips at the same point with the same message. Intersection and
complement are compiled by the caller's ``nested`` and spliced in with one position per (state, next
state) pair, mirroring the Thompson splice. The alphabet is read off the automata (the sets their
positions read), so the tree is walked once; a tree with an intersection or complement needs the
alphabet first and takes the general route to it.

When it is taken: for every regex without assertions whose positions fit one bitset
(:data:`automata.core._small_kernels.MAX_POSITIONS`) and whose DFA has at most :data:`MAX_DFA_STATES`
states, unless the Thompson NFA could exceed ``state_limit`` (an upper bound on its size is kept
along the way; only the Thompson builder knows its exact size, and it must report that limit as it
always has). Otherwise :class:`Fallback` is raised and the caller runs the general pipeline.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np

from automata.building.determinize import ITEMS_PER_STATE
from automata.core._small_kernels import (
    MAX_POSITIONS,
    OK,
    TOO_LARGE,
    TOO_MANY_STATES,
    minimal_positions,
)
from automata.core.alphabet import Alphabet
from automata.core.dfa import DFA, classes_by_target, coreachable_states, minimal
from automata.errors import StateLimitExceeded
from regexlang.ast import (
    Chars,
    Complement,
    Concat,
    EmptySet,
    Epsilon,
    Intersection,
    Optional,
    Plus,
    Regex,
    Repeat,
    Star,
    Union,
    children,
)
from regexlang.charset import CharSet

#: Most DFA states the small kernel builds before handing over to the general pipeline.
MAX_DFA_STATES = 4096
#: The room the small kernel's work arrays have on a first try.
FEW_DFA_STATES = 64

#: (nullable, first positions, last positions) of a subexpression.
Fragment = tuple[bool, int, int]
_EMPTY: Fragment = (False, 0, 0)

Nested = Callable[[Intersection | Complement], DFA]


class Fallback(Exception):
    """The regex is not one for this path; compile it with the numba pipeline instead."""


class Positions:
    """The position automaton of one regex: the positions reading each character set (or each
    class tuple of a spliced DFA edge), the links "any of these may be followed by any of those"
    (pairs of bitsets) whose union is the follow relation, and the first and last positions."""

    __slots__ = (
        "size",
        "reads",
        "reading",
        "unread",
        "links",
        "nullable",
        "first",
        "last",
        "limit",
        "nested",
        "extra",
    )

    def __init__(self, state_limit: int, nested: Nested | None) -> None:
        self.size = 0  # positions so far
        # What each group of positions reads, and the group, keyed by the id of what is read: the
        # parsers share one CharSet per literal, and an id hashes without a Python-level call.
        self.reads: dict[int, CharSet | tuple[int, ...]] = {}
        self.reading: dict[int, int] = {}
        self.unread: list[
            CharSet
        ] = []  # sets under ``{0}``: no position reads them, the alphabet keeps them
        self.links: list[int] = []  # pairs: last positions, then the positions that may follow them
        self.nullable, self.first, self.last = _EMPTY
        self.limit = state_limit
        self.nested = nested
        # The Thompson states that are not CHAR states (one per position): ``1 + positions +
        # extra`` bounds the Thompson NFA built so far, MATCH included.
        self.extra = 0

    def check(self) -> None:
        """Hand over to the Thompson builder when its NFA could pass the limit (it reports that);
        :meth:`position` hands over when the positions outgrow one bitset."""
        if 1 + self.size + self.extra > self.limit:
            raise Fallback

    def position(self, reads: CharSet | tuple[int, ...]) -> int:
        """A new position reading ``reads``, as a one-bit set; past one bitset, :class:`Fallback`
        at once, so a long regex never builds its quadratic bitsets here."""
        if self.size == MAX_POSITIONS:
            raise Fallback
        bit = 1 << self.size
        self.size += 1
        key = id(reads)
        group = self.reading.get(key)
        if group is None:
            self.reads[key] = reads
            self.reading[key] = bit
        else:
            self.reading[key] = group | bit
        return bit

    def link(self, last: int, first: int) -> None:
        """Every position of ``last`` may be followed by every position of ``first``."""
        self.links.append(last)
        self.links.append(first)

    def build(self, node: Regex) -> Fragment:
        """Glushkov's construction. Sequences are built right to left and options left to right,
        the order of the Thompson builder, so ``nested`` sees the same nodes in the same order and
        an error it raises is the one the Thompson path would raise."""
        if type(node) is Chars:
            bit = self.position(node.chars)
            return False, bit, bit
        if type(node) is Concat:
            nullable, first, last = True, 0, 0  # ε, then each part in front of what follows it
            for part in node.parts[::-1]:
                # Most parts are a character or a starred one: build those here, without a call.
                if type(part) is Chars:
                    part_nullable = False
                    part_first = part_last = self.position(part.chars)
                elif type(part) is Star and type(part.inner) is Chars:
                    self.extra += 1
                    part_nullable = True
                    part_first = part_last = self.position(part.inner.chars)
                    self.links.append(part_first)
                    self.links.append(part_first)
                else:
                    part_nullable, part_first, part_last = self.build(part)
                if part_last and first:
                    self.links.append(part_last)
                    self.links.append(first)
                if part_nullable:
                    first |= part_first
                else:
                    first = part_first
                if nullable:
                    last |= part_last
                nullable = nullable and part_nullable
            return nullable, first, last
        if type(node) is Star or type(node) is Plus:
            self.extra += 1
            inner = node.inner
            if type(inner) is Chars:
                nullable, first = False, self.position(inner.chars)
                last = first
            else:
                nullable, first, last = self.build(inner)
            if last and first:
                self.links.append(last)
                self.links.append(first)
            return nullable or type(node) is Star, first, last
        if type(node) is Union:
            options = node.options
            self.extra += len(options)
            nullable, first, last = False, 0, 0
            for option in options:
                if type(option) is Chars:
                    bit = self.position(option.chars)
                    first |= bit
                    last |= bit
                    continue
                option_nullable, option_first, option_last = self.build(option)
                nullable = nullable or option_nullable
                first |= option_first
                last |= option_last
            return nullable, first, last
        if type(node) is Optional:
            self.extra += 1
            _, first, last = self.build(node.inner)
            return True, first, last
        if type(node) is Repeat:
            return self.repeat(node)
        if type(node) is Epsilon:
            return True, 0, 0
        if type(node) is EmptySet:
            self.extra += 1
            return _EMPTY
        if (type(node) is Intersection or type(node) is Complement) and self.nested is not None:
            self.check()
            return self.splice(self.nested(node))
        raise Fallback  # an assertion, or a nested node before the alphabet is known

    def repeat(self, node: Repeat) -> Fragment:
        # x{2,4} = x x (x (x)?)?, built from the back like the Thompson builder does; every copy is
        # expanded, so the bound is checked per copy.
        if node.max is None:
            self.extra += 1
            nullable, first, last = self.build(node.inner)
            self.link(last, first)
            fragment = True, first, last
        else:
            if node.max == 0:
                self.unread.extend(_sets(node.inner))
            fragment = True, 0, 0
            for _ in range(node.max - node.min):
                self.extra += 1
                self.check()
                _, first, last = self.then(self.build(node.inner), fragment)
                fragment = True, first, last
        for _ in range(node.min):
            self.extra += 1  # not a Thompson state, but it keeps a repeated ε from looping for long
            self.check()
            fragment = self.then(self.build(node.inner), fragment)
        return fragment

    def then(self, head: Fragment, tail: Fragment) -> Fragment:
        """``head`` followed by ``tail``."""
        head_nullable, head_first, head_last = head
        tail_nullable, tail_first, tail_last = tail
        if head_last and tail_first:
            self.link(head_last, tail_first)
        return (
            head_nullable and tail_nullable,
            head_first | tail_first if head_nullable else head_first,
            tail_last | head_last if tail_nullable else tail_last,
        )

    def splice(self, dfa: DFA) -> Fragment:
        """One position per (state, live next state) pair of ``dfa``, reading the classes between."""
        rows = dfa.transitions.tolist()
        accepting = dfa.accepting.tolist()
        live = coreachable_states(rows, accepting)
        if not live[dfa.start]:
            self.extra += 1
            return _EMPTY
        leaving = [0] * len(rows)  # leaving[q]: the positions that leave state q
        reaching: list[list[tuple[int, int]]] = [[] for _ in rows]  # (position, target) pairs
        last = 0
        for state, row in enumerate(rows):
            if not live[state]:
                continue
            by_target = classes_by_target(row, live)
            self.extra += len(by_target) + 1
            for target, classes in by_target.items():
                bit = self.position(tuple(classes))
                leaving[state] |= bit
                reaching[state].append((bit, target))
                if accepting[target]:
                    last |= bit
        self.check()
        for pairs in reaching:
            for bit, target in pairs:
                if leaving[target]:
                    self.link(bit, leaving[target])
        return accepting[dfa.start], leaving[dfa.start], last


def _sets(regex: Regex) -> list[CharSet]:
    """The character sets of a tree."""
    found = []
    stack = [regex]
    while stack:
        node = stack.pop()
        if type(node) is Chars:
            found.append(node.chars)
        stack.extend(children(node))
    return found


def glushkov(regex: Regex, state_limit: int, nested: Nested | None = None) -> Positions:
    """The position automaton of ``regex``. Without ``nested`` (before the alphabet is known) an
    intersection or complement raises :class:`Fallback`, like an assertion does."""
    positions = Positions(state_limit, nested)
    positions.nullable, positions.first, positions.last = positions.build(regex)
    positions.check()
    return positions


def minimal_dfa(
    positions: Positions, alphabet: Alphabet, classes: Sequence[tuple[int, ...]], state_limit: int
) -> DFA:
    """The canonical minimal DFA of the position automaton over ``alphabet``; ``classes`` are the
    classes each group of :attr:`Positions.reading` reads, in its order (see :func:`classes_read`)."""
    by_class = [0] * len(alphabet.classes)  # by_class[c]: the positions that can read class c
    never = 0  # positions whose set has no class: the Thompson builder makes them FAIL, not CHAR
    for mask, group_classes in zip(positions.reading.values(), classes):
        if not group_classes:
            never |= mask
        for cls in group_classes:
            by_class[cls] |= mask
    data = np.array(positions.links + by_class, dtype=np.int64)
    first, last, nullable, links = (
        positions.first & ~never,
        positions.last,
        positions.nullable,
        len(positions.links) // 2,
    )
    item_limit = state_limit * ITEMS_PER_STATE
    # Work arrays sized for a typical DFA first; the rare larger one runs again with room for more.
    for room in (FEW_DFA_STATES, MAX_DFA_STATES):
        transitions, accepting, status = minimal_positions(
            positions.size, links, data, first, last, nullable, never, state_limit, item_limit, room
        )
        if status != TOO_LARGE:
            break
    if status != OK:
        if status == TOO_LARGE:
            raise Fallback
        what = "determinizing this regex (subset construction)"
        if status == TOO_MANY_STATES:
            raise StateLimitExceeded(what, state_limit)
        raise StateLimitExceeded(what, state_limit * ITEMS_PER_STATE, "stored NFA states")
    return minimal(transitions, accepting, alphabet)


def classes_read(
    positions: Positions, members: Mapping[CharSet, tuple[int, ...]]
) -> list[tuple[int, ...]]:
    """The classes each group of positions reads, for :func:`minimal_dfa`."""
    return [
        members[what] if isinstance(what, CharSet) else what for what in positions.reads.values()
    ]
