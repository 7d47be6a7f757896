"""The input alphabet a state-merging learner works over: characters, or atoms of the examples.

Over ``[A-Za-z0-9#]`` or Unicode, one symbol per character cannot generalize ``[A-Za-z]`` from
sparse data. Atoms are the coarsest partition of the universe that splits none of the examples'
character sets (Argyros & D'Antoni, CAV 2018); an example becomes a *symbolic word*, per position
the tuple of classes its characters cover. Both alphabets are :class:`automata.core.alphabet.Alphabet`."""

from __future__ import annotations

import array
import functools
import itertools
import math
import operator
from collections.abc import Callable, Iterable, Sequence
from collections.abc import Set as AbstractSet
from typing import Literal, TypeVar

import attrs
import numpy as np

from automata.core.alphabet import Alphabet, partition
from oracle.examples import ClusteredExample, Counterexample, Example
from regexlang.charset import CharSet

K = TypeVar("K")
V = TypeVar("V")

#: Characters (classic RPNI) or atoms of the examples' character sets (the symbolic learner).
Granularity = Literal["characters", "atoms"]

#: A class larger than this is kept whole even at character granularity (``[^0-9]`` over Unicode).
_MAX_SPLIT = 256

#: One position of a symbolic word: the classes its characters cover.
Position = tuple[int, ...]


@attrs.frozen(cache_hash=True)  # keys the caches of every round (tied words, alike classes)
class SymbolicWord:
    """An example over an alphabet's classes; every class of a position leads the same way."""

    positions: tuple[Position, ...]
    label: bool
    # Both follow from the positions (given only by :meth:`literal`, which knows them already).
    combinations: int = attrs.field(kw_only=True, eq=False, repr=False)  # strings it stands for
    largest: int = attrs.field(kw_only=True, eq=False, repr=False)  # its largest class, -1 if empty
    # The classes as machine integers, for the compiled code: a prefix tree joins thousands of
    # words a round, cheaper than reading each position again. ``spelling``: a word of one class
    # per position as C ints (empty for others); ``packing``: every class of every position in
    # order, and ``widths``: how many classes each position has (64-bit, as
    # :class:`cegis.symbolic.merging.core.words.PackedWords` holds them).
    spelling: bytes = attrs.field(kw_only=True, eq=False, repr=False)
    packing: bytes = attrs.field(kw_only=True, eq=False, repr=False)
    widths: bytes = attrs.field(kw_only=True, eq=False, repr=False)

    @combinations.default
    def _combinations(self) -> int:
        return math.prod(map(len, self.positions))

    @largest.default
    def _largest(self) -> int:
        return max((max(p) for p in self.positions), default=-1)

    @spelling.default
    def _spelling(self) -> bytes:
        return (
            array.array("i", (p[0] for p in self.positions)).tobytes()
            if self.combinations == 1
            else b""
        )

    @packing.default
    def _packing(self) -> bytes:
        return array.array("q", itertools.chain.from_iterable(self.positions)).tobytes()

    @widths.default
    def _widths(self) -> bytes:
        return array.array("q", map(len, self.positions)).tobytes()

    @classmethod
    def literal(cls, classes: Sequence[int], label: bool) -> SymbolicWord:
        """The word of one class per position."""
        spelling, packing = array.array("i", classes).tobytes(), array.array("q", classes).tobytes()
        widths = _ones(len(classes))
        return cls(
            tuple(map(_single, classes)),
            label,
            combinations=1,
            largest=max(classes, default=-1),
            spelling=spelling,
            packing=packing,
            widths=widths,
        )


def several(words: Sequence[SymbolicWord]) -> list[int]:
    """The indices of the ``words`` that stand for several strings, found in C (thousands of words
    a round; their combinations are compared as Python ints, since they pass 64 bits)."""
    many = np.fromiter(map((1).__lt__, map(_COMBINATIONS, words)), dtype=np.bool_, count=len(words))
    return list(np.flatnonzero(many).tolist())


_COMBINATIONS = operator.attrgetter("combinations")


@functools.lru_cache(maxsize=64)
def _ones(length: int) -> bytes:
    """``length`` positions of one class each, as :attr:`SymbolicWord.widths`."""
    return array.array("q", [1] * length).tobytes()


@functools.cache
def _single(k: int) -> Position:
    """``(k,)``, one tuple per class for all words."""
    return (k,)


def symbol_alphabet(
    examples: Sequence[Counterexample],
    universe: CharSet,
    granularity: Granularity,
    refine: Iterable[str] = (),
) -> Alphabet:
    """The partition of ``universe`` a learner of ``granularity`` reads the examples with.

    At ``atoms`` granularity only clustered examples (the teacher's own classes) and the characters
    in ``refine`` cut the universe: a character of a plain string stands for its whole class until
    evidence (:func:`distinguishing`) says it must be told apart.
    """
    return Cuts.of(examples, granularity).alphabet(universe, granularity, refine)


@attrs.frozen(cache_hash=True)
class Cuts:
    """What cuts the universe for :func:`symbol_alphabet`, besides the characters to refine: the
    clustered examples and (at ``characters`` granularity) the characters of the plain ones. The
    alphabets are remembered by it, and it is hashed once: a prefix tree that refines its alphabet
    makes several from one sample of thousands of examples."""

    clustered: tuple[ClusteredExample, ...]
    characters: frozenset[str]

    @classmethod
    def of(cls, examples: Sequence[Counterexample], granularity: Granularity) -> Cuts:
        clustered = tuple([e for e in examples if isinstance(e, ClusteredExample)])
        plain = (
            frozenset(c for e in examples if isinstance(e, Example) for c in e.string)
            if granularity == "characters"
            else frozenset()
        )
        return cls(clustered, plain)

    def alphabet(
        self, universe: CharSet, granularity: Granularity, refine: Iterable[str] = ()
    ) -> Alphabet:
        """The partition with the characters in ``refine`` cut off too."""
        return _partition_of(self, frozenset(refine), universe, granularity)


@functools.lru_cache(maxsize=64)  # a learner call reads the same clustered examples in every round
def _partition_of(
    cuts: Cuts, refine: frozenset[str], universe: CharSet, granularity: Granularity
) -> Alphabet:
    sets: set[CharSet] = {CharSet.of(c) for c in cuts.characters | refine}
    for example in cuts.clustered:
        sets.update(example.positions)
    clipped = {s & universe for s in sets} - {CharSet()}
    if granularity == "characters":
        clipped = {single for s in clipped for single in _split(s)}
    return partition(universe, clipped)


def _split(chars: CharSet) -> list[CharSet]:
    return [CharSet.of(c) for c in chars] if len(chars) <= _MAX_SPLIT else [chars]


def distinguishing(
    first: Counterexample, second: Counterexample, refined: AbstractSet[str]
) -> set[str]:
    """Characters of plain strings, not yet in ``refined``, at the first position where two
    equally long examples share no character: splitting them off their classes tells the two
    apart. Empty when no such position exists (the examples may contradict each other)."""
    for one, other in zip(_position_chars(first), _position_chars(second)):
        found = {
            p.first()
            for p, example in ((one, first), (other, second))
            if isinstance(example, Example)
        }
        if not one & other and found - refined:
            return found - refined
    return set()


def _position_chars(example: Counterexample) -> list[CharSet]:
    return (
        [CharSet.of(c) for c in example.string]
        if isinstance(example, Example)
        else list(example.positions)
    )


@functools.lru_cache(maxsize=16)
def encoder(alphabet: Alphabet) -> Callable[[Counterexample], SymbolicWord | None]:
    """The symbolic word of an example over ``alphabet`` (``None`` for a negative that leaves the
    universe), remembered per example and per position: a learner call encodes the same examples
    over the same alphabet for every round of agreements and witnesses."""
    representatives = [c.first() for c in alphabet.classes]
    universe = alphabet.universe
    class_of = Remembered(alphabet.class_of)  # few distinct characters spell a call's examples

    @functools.lru_cache(maxsize=1 << 12)
    def covered(chars: CharSet) -> Position:
        # The set is a union of classes (the partition came from it), so a class's smallest
        # character decides; a binary search each, not an interval intersection.
        return tuple(k for k, first in enumerate(representatives) if first in chars)

    @functools.lru_cache(maxsize=1 << 12)
    def fits(chars: CharSet) -> tuple[bool, bool]:  # inside the universe; meets it
        inside = chars & universe
        return inside == chars, bool(inside)

    @functools.lru_cache(
        maxsize=1 << 16
    )  # an encoder outlives a run: one process runs many on one alphabet
    def encode(example: Counterexample) -> SymbolicWord | None:
        if isinstance(example, Example):
            classes = list(map(class_of.__getitem__, example.string))
            if -1 in classes:
                return _outside(example)
            return SymbolicWord.literal(classes, example.label)
        if not all(fits(chars)[0] for chars in example.positions):
            if example.label or not all(fits(chars)[1] for chars in example.positions):
                return _outside(example)
        return SymbolicWord(tuple(covered(chars) for chars in example.positions), example.label)

    return encode


@functools.lru_cache(maxsize=1 << 16)
def interned(string: str, label: bool) -> Example:
    """The one :class:`Example` of ``string`` and ``label`` for the process. The rounds make the
    same plain examples again and again (a witness or an implied string in every round and epoch
    that finds it); :func:`encoder` and the other caches keyed by examples would then test each new
    copy for equality at every lookup, a Python call each, where one shared object is found by
    identity."""
    return Example(string, label)


class Remembered(dict[K, V]):
    """``function`` of each key, computed at its first lookup: a plain dict after that, so a
    lookup costs a dict's (``map(table.__getitem__, string)``), not a cached call's."""

    def __init__(self, function: Callable[[K], V]) -> None:
        super().__init__()
        self.function = function

    def __missing__(self, key: K) -> V:
        self[key] = found = self.function(key)
        return found


def _outside(example: Counterexample) -> SymbolicWord | None:
    """Nothing to learn from a negative that leaves the universe; a positive cannot be met."""
    if example.label:
        raise ValueError(f"positive example {example.text()!r} leaves the universe")
    return None
