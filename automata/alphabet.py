"""Alphabets as equivalence classes of characters.

A DFA over all of Unicode cannot have a column per character. Instead the characters of a
universe are split into *classes*: two characters share a class when every character set in play
(every ``Chars`` node of every regex being compiled, plus ``\\w`` when word boundaries occur)
contains both or neither. No regex built from those sets can tell them apart, so a DFA needs one
column per class. This is the ``ByteClasses`` idea of rust-lang/regex, lifted from bytes to code
points.

A partition is stored as the sorted start points of its *elementary intervals* (maximal runs of
code points with the same membership signature) and the class of each interval, so looking up the
class of a character is one binary search. DFAs built over different partitions of the same
universe are combined by refining both to their common partition (:func:`common_refinement`) and
re-indexing their columns.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import attrs
import numpy as np
import numpy.typing as npt

from regexlang.charset import MAX_CODE_POINT, CharSet

IntArray = npt.NDArray[np.int32]


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

    def __len__(self) -> int:
        return len(self.classes)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Alphabet) and self.universe == other.universe and self.classes == other.classes

    def __hash__(self) -> int:
        return hash((self.universe, self.classes))

    def class_of(self, char: str) -> int:
        """The class index of ``char``, or -1 when it is outside the universe."""
        i = int(np.searchsorted(self.starts, ord(char), side="right")) - 1
        return int(self.interval_class[i])

    def encode(self, string: str) -> IntArray:
        """The class index of each character of ``string`` (-1 outside the universe)."""
        codes = np.fromiter((ord(c) for c in string), dtype=np.int64, count=len(string))
        idx = np.searchsorted(self.starts, codes, side="right") - 1
        return self.interval_class[idx].astype(np.int32)

    def representative(self, cls: int) -> str:
        """The canonical character of a class: its smallest code point."""
        return self.classes[cls].first()

    def sizes(self) -> list[int]:
        """The number of characters in each class (Python ints; classes can hold a million)."""
        return [len(c) for c in self.classes]

    def classes_within(self, chars: CharSet) -> list[int]:
        """The classes that ``chars`` contains. ``chars`` must be a union of classes."""
        return [i for i, c in enumerate(self.classes) if c.intersection(chars)]


def partition(universe: CharSet, sets: Iterable[CharSet] = ()) -> Alphabet:
    """The coarsest partition of ``universe`` that does not split any of ``sets``."""
    set_list = [s.intersection(universe) for s in sets]
    cuts = {0, MAX_CODE_POINT + 1}
    for s in [universe, *set_list]:
        for lo, hi in s.intervals:
            cuts.add(lo)
            cuts.add(hi + 1)
    starts = sorted(cuts)[:-1]
    signature_class: dict[tuple[bool, ...], int] = {}
    members: list[list[tuple[int, int]]] = []
    interval_class: list[int] = []
    ends = sorted(cuts)[1:]
    for lo, end in zip(starts, ends):
        if lo not in universe:
            interval_class.append(-1)
            continue
        signature = tuple(lo in s for s in set_list)
        cls = signature_class.get(signature)
        if cls is None:
            cls = signature_class[signature] = len(members)
            members.append([])
        members[cls].append((lo, end - 1))
        interval_class.append(cls)
    return Alphabet(
        universe=universe,
        classes=tuple(CharSet(m) for m in members),
        starts=np.asarray(starts, dtype=np.int64).astype(np.int32),
        interval_class=np.asarray(interval_class, dtype=np.int32),
    )


def common_refinement(alphabets: Sequence[Alphabet]) -> tuple[Alphabet, list[IntArray]]:
    """The coarsest partition refining every alphabet, and for each input alphabet the map
    ``new class -> old class`` used to re-index a DFA's columns."""
    if not alphabets:
        raise ValueError("no alphabets to refine")
    universe = alphabets[0].universe
    if any(a.universe != universe for a in alphabets):
        raise ValueError("alphabets over different universes cannot be combined")
    if all(a == alphabets[0] for a in alphabets):
        identity = np.arange(len(alphabets[0]), dtype=np.int32)
        return alphabets[0], [identity for _ in alphabets]
    refined = partition(universe, [c for a in alphabets for c in a.classes])
    maps = [
        np.asarray([a.class_of(refined.representative(k)) for k in range(len(refined))], dtype=np.int32)
        for a in alphabets
    ]
    return refined, maps
