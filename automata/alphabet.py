"""Alphabets as equivalence classes of characters.

A DFA over all of Unicode cannot have a column per character. Instead the characters of a
universe are split into *classes*: two characters share a class when every character set in play
(every ``Chars`` node of every regex being compiled, plus ``\\w`` when word boundaries occur)
contains both or neither. No regex built from those sets can tell them apart, so a DFA needs one
column per class. This is the ``ByteClasses`` idea of rust-lang/regex, lifted from bytes to code
points.

A partition is stored as the sorted start points of its *elementary intervals* (maximal runs of
code points with the same membership signature) and the class of each interval, so looking up the
class of a character is one binary search. Classes are numbered in order of their smallest code
point, so comparing class sequences compares the strings of their representatives. DFAs built over
different partitions of the same universe are combined by refining both to their common partition
(:func:`common_refinement`) and re-indexing their columns.

Partitions are pure functions of (universe, sets) and the same few alphabets recur constantly (every
simple-dialect regex uses a subset of ``{a}, {b}, {c}``), so both constructions are memoised.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType

import attrs
import numpy as np

from automata.errors import AlphabetMismatch
from automata.jit.arrays import IntArray
from regexlang.charset import MAX_CODE_POINT, CharSet


@attrs.frozen(eq=False)
class Alphabet:
    """A partition of ``universe`` into character classes, numbered ``0..len(classes)-1``.

    ``starts[i]`` is the first code point of elementary interval ``i`` (which runs to
    ``starts[i+1]-1``, the last to ``MAX_CODE_POINT``) and ``interval_class[i]`` its class, or -1
    for code points outside the universe.
    """

    universe: CharSet
    classes: tuple[CharSet, ...]
    starts: IntArray
    interval_class: IntArray
    class_sizes: tuple[int, ...] = attrs.field()
    _hash: int = attrs.field(init=False, repr=False)  # alphabets key many caches

    @class_sizes.default
    def _count(self) -> tuple[int, ...]:
        return tuple(len(c) for c in self.classes)

    @_hash.default
    def _hashed(self) -> int:
        return hash((self.universe, self.classes))

    def __len__(self) -> int:
        return len(self.classes)

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        return (
            isinstance(other, Alphabet)
            and self.universe == other.universe
            and self.classes == other.classes
        )

    def __hash__(self) -> int:
        return self._hash

    def class_of(self, char: str) -> int:
        """The class index of ``char``, or -1 when it is outside the universe."""
        i = int(np.searchsorted(self.starts, ord(char), side="right")) - 1
        return int(self.interval_class[i])

    def encode(self, string: str) -> IntArray:
        """The class index of each character of ``string`` (-1 outside the universe)."""
        codes = np.frombuffer(string.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
        idx = np.searchsorted(self.starts, codes, side="right") - 1
        return self.interval_class[idx]

    def representative(self, cls: int) -> str:
        """The canonical character of a class: its smallest code point."""
        return self.classes[cls].first()

    @functools.cached_property
    def representatives(self) -> str:
        """Each class's representative, in class order (a witness spells one per step)."""
        return "".join(c.first() for c in self.classes)

    def sizes(self) -> list[int]:
        """The number of characters in each class (Python ints; classes can hold a million).

        Counted once, when the (memoised) partition is built: a Unicode class such as ``\\w`` has
        hundreds of intervals, and counting them on every call cost ~100 µs.
        """
        return list(self.class_sizes)

    def classes_within(self, chars: CharSet) -> list[int]:
        """The classes that ``chars`` contains. ``chars`` must be a union of classes."""
        return [i for i, c in enumerate(self.classes) if c.intersection(chars)]


def partition(universe: CharSet, sets: Iterable[CharSet] = ()) -> Alphabet:
    """The coarsest partition of ``universe`` that does not split any of ``sets``."""
    return _partition(universe, frozenset(sets))[0]


def partition_with_members(
    universe: CharSet, sets: Iterable[CharSet]
) -> tuple[Alphabet, Mapping[CharSet, tuple[int, ...]]]:
    """:func:`partition`, plus for each of ``sets`` the sorted classes it contains."""
    return _partition(universe, frozenset(sets))


def classes_of(
    universe: CharSet, sets: Sequence[CharSet]
) -> tuple[Alphabet, tuple[tuple[int, ...], ...]]:
    """:func:`partition_with_members` for these very objects: the alphabet and, for each of
    ``sets`` in order, the classes it contains.

    Looked up by the identity of the sets first, like :func:`common_refinement`: the parsers share
    one CharSet per literal, and hashing a CharSet is a Python-level call. The entry keeps the sets
    alive, so their ids stay valid.
    """
    key = (id(universe), *map(id, sets))
    hit = _CLASSES_BY_IDENTITY.get(key)
    if hit is None:
        if len(_CLASSES_BY_IDENTITY) >= 4096:
            _CLASSES_BY_IDENTITY.clear()
        alphabet, members = partition_with_members(universe, sets)
        hit = _CLASSES_BY_IDENTITY[key] = (
            universe,
            tuple(sets),
            alphabet,
            tuple(members[s] for s in sets),
        )
    return hit[2], hit[3]


_CLASSES_BY_IDENTITY: dict[
    tuple[int, ...], tuple[CharSet, tuple[CharSet, ...], Alphabet, tuple[tuple[int, ...], ...]]
] = {}


@functools.lru_cache(maxsize=4096)
def _partition(
    universe: CharSet, sets: frozenset[CharSet]
) -> tuple[Alphabet, Mapping[CharSet, tuple[int, ...]]]:
    ordered = sorted(sets, key=lambda s: s.intervals)
    clipped = [s.intersection(universe) for s in ordered]
    cuts = {0, MAX_CODE_POINT + 1}
    for s in [universe, *clipped]:
        for lo, hi in s.intervals:
            cuts.add(lo)
            cuts.add(hi + 1)
    bounds = sorted(cuts)
    starts = bounds[:-1]
    # One sweep per set marks the elementary intervals it covers; interval i belongs to a set
    # exactly when its start does, because every set boundary is a cut.
    inside = [_covered(universe, starts)] + [_covered(s, starts) for s in clipped]
    signature_class: dict[tuple[bool, ...], int] = {}
    members: list[list[tuple[int, int]]] = []
    interval_class: list[int] = []
    for i, lo in enumerate(starts):
        if not inside[0][i]:
            interval_class.append(-1)
            continue
        signature = tuple(row[i] for row in inside[1:])
        cls = signature_class.get(signature)
        if cls is None:
            cls = signature_class[signature] = len(members)
            members.append([])
        members[cls].append((lo, bounds[i + 1] - 1))
        interval_class.append(cls)
    alphabet = Alphabet(
        universe=universe,
        classes=tuple(CharSet(m) for m in members),
        starts=_frozen(np.asarray(starts, dtype=np.int64).astype(np.int32)),
        interval_class=_frozen(np.asarray(interval_class, dtype=np.int32)),
    )
    contained = {
        s: tuple(sorted(cls for sig, cls in signature_class.items() if sig[j]))
        for j, s in enumerate(ordered)
    }
    return alphabet, MappingProxyType(contained)


def _covered(chars: CharSet, starts: list[int]) -> list[bool]:
    covered = []
    intervals = chars.intervals
    j = 0
    for lo in starts:
        while j < len(intervals) and intervals[j][1] < lo:
            j += 1
        covered.append(j < len(intervals) and intervals[j][0] <= lo)
    return covered


def _frozen(array: IntArray) -> IntArray:
    array.flags.writeable = False
    return array


def common_refinement(alphabets: Sequence[Alphabet]) -> tuple[Alphabet, list[IntArray]]:
    """The coarsest partition refining every alphabet, and for each input alphabet the map
    ``new class -> old class`` used to re-index a DFA's columns (``transitions[:, map]``)."""
    if not alphabets:
        raise ValueError("no alphabets to refine")
    first = alphabets[0]
    if all(a is first for a in alphabets):
        identity = identity_map(len(first))
        return first, [identity for _ in alphabets]
    # Hashing an alphabet hashes all its classes, so look up by identity first (partitions are
    # memoised, so the same objects recur); the entry keeps its alphabets alive, so ids stay valid.
    key = tuple(map(id, alphabets))
    hit = _BY_IDENTITY.get(key)
    if hit is None or any(a is not b for a, b in zip(hit[0], alphabets)):
        if len(_BY_IDENTITY) >= 4096:
            _BY_IDENTITY.clear()
        hit = _BY_IDENTITY[key] = (tuple(alphabets), *_refine(tuple(alphabets)))
    return hit[1], list(hit[2])


_BY_IDENTITY: dict[
    tuple[int, ...], tuple[tuple[Alphabet, ...], Alphabet, tuple[IntArray, ...]]
] = {}


@functools.lru_cache(maxsize=256)
def identity_map(n: int) -> IntArray:
    """The map of ``n`` classes onto themselves (read-only, shared)."""
    return _frozen(np.arange(n, dtype=np.int32))


@functools.lru_cache(maxsize=4096)
def _refine(alphabets: tuple[Alphabet, ...]) -> tuple[Alphabet, tuple[IntArray, ...]]:
    universe = alphabets[0].universe
    if any(a.universe != universe for a in alphabets):
        raise AlphabetMismatch("alphabets over different universes cannot be combined")
    refined = partition(universe, [c for a in alphabets for c in a.classes])
    maps = tuple(
        _frozen(
            np.asarray(
                [a.class_of(refined.representative(k)) for k in range(len(refined))], dtype=np.int32
            )
        )
        for a in alphabets
    )
    return refined, maps
