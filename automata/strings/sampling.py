"""Drawing strings from a DFA's language: uniformly at random, or the shortest ones first.

Uniform sampling is *unranking*. The completion table of :mod:`automata.strings.counting` says how many
accepted strings of length ``r`` leave each state, so the strings of length ``n`` can be numbered
``0..N-1`` (edges in a fixed order, characters in code-point order), and a uniform integer below
``N`` names a uniform string. Walking from the start state, the index picks the outgoing edge group
whose block of numbers contains it (a group of ``m`` characters leading to a state with ``c``
completions owns ``m * c`` numbers), and ``divmod`` by ``c`` splits it into the character within
the group and the index of the rest of the string. Exact integers all the way, so uniformity holds
however large the counts get (over Unicode they pass 2**64 at length 4).

That shape also makes it fast. Distinct ``(length, index)`` pairs name distinct strings, so
duplicates are rejected before any string is built. Indices come from a Python ``random.Random``
seeded from the caller's ``numpy.random.Generator`` (exact below any bound, and cheap per call).
The walk runs in Python integers only while the counts ahead exceed int64, then a numba kernel
(:func:`automata.strings._count_kernels.unrank`) finishes all strings in one call: over ``{a,b,c}`` that is
every string, over ``[A-Za-z0-9#]`` at least the last ten characters of each.

Two modes. ``"uniform"`` is uniform over the strings themselves: a class of a thousand characters is
a thousand times as likely as a one-character class. ``"representatives"`` is uniform over the
strings spelled with each class's representative (its smallest character), every class counting
once: readable witnesses, one per distinct class sequence, so a Unicode "anything else" class does
not drown out the literal characters.

:func:`shortest` lists the shortest accepted strings in shortlex order, spelled with class
representatives or with every character, by a walk per length pruned to states that can still
accept in exactly the remaining steps (:mod:`automata.strings._shortest_kernel`); it keeps only the states
each length reaches, under a budget, so a DFA whose shortest string has a hundred thousand
characters costs a hundred thousand (length, state) pairs, not a dense table per length.
"""

from __future__ import annotations

import functools
import itertools
import random
from bisect import bisect_right
from collections.abc import Callable, Iterator
from typing import Literal

import numpy as np

from automata.core.alphabet import Alphabet
from automata.core.dfa import DFA, classes_by_target, coreachable
from automata.errors import SizeLimitExceeded
from automata.jit.arrays import Int64Array
from automata.strings import _count_kernels, _shortest_kernel
from automata.strings.counting import Completions, completions
from regexlang.charset import MAX_CODE_POINT

Mode = Literal["uniform", "representatives"]
Spelling = Literal["representatives", "characters"]

#: The most (length, state) pairs :func:`shortest` keeps before giving up.
MAX_SHORTEST_CELLS = 4_000_000
LengthDistribution = Literal["uniform", "proportional"]


class _Unranker:
    """Maps indices ``0..count(n)-1`` to the accepted strings of length ``n``, bijectively."""

    def __init__(self, table: Completions) -> None:
        dfa = table.dfa
        classes = dfa.alphabet.classes
        live = coreachable(dfa).tolist()
        self.table = table
        # Per state, one entry per live next state: (target, number of characters, the characters
        # as interval starts and the prefix sums of interval lengths). With ``per_class`` the
        # characters are the representatives, one per class.
        self.groups: list[list[tuple[int, int, list[int], list[int]]]] = []
        for row in dfa.transitions.tolist():
            groups = []
            for target, group in classes_by_target(row, live).items():
                if table.per_class:
                    intervals = [(classes[k].intervals[0][0],) * 2 for k in group]
                else:
                    intervals = [interval for k in group for interval in classes[k].intervals]
                groups.append((target, *_flatten(sorted(intervals))))
            self.groups.append(groups)
        # Rows below ``int64_rows`` (and every block within them) fit the compiled unranker.
        self.int64_rows = table.int64_rows()
        self._flat: tuple[Int64Array, ...] = ()  # the kernel's arrays, built at the first draw

    def strings(self, picks: list[tuple[int, int]]) -> list[str]:
        """The strings named by ``(length, index)`` pairs, in order.

        Python integers walk the first steps, while the counts left may exceed int64; the compiled
        kernel finishes every string from there (for most languages, from the first character).
        """
        if not picks:
            return []
        heads, states, remaining, indices = [], [], [], []
        start = self.table.dfa.start
        for length, index in picks:
            steps = length - self.int64_rows + 1
            head, state = "", start
            if steps > 0:  # the counts ahead may pass int64: walk in Python integers first
                head, state, index = self._walk(length, index, steps)
            heads.append(head)
            states.append(state)
            remaining.append(length - len(head))
            indices.append(index)
        lengths = np.asarray(remaining, dtype=np.int64)
        if not self._flat:
            self._flat = (*self._arrays(), self.table.int64_table(self.int64_rows))
        groups, targets, sizes, intervals, starts, offsets, table = self._flat
        codes = _count_kernels.unrank(
            groups,
            targets,
            sizes,
            intervals,
            starts,
            offsets,
            table,
            np.asarray(states, dtype=np.int64),
            lengths,
            np.asarray(indices, dtype=np.int64),
        )
        text = codes.tobytes().decode("utf-32-le", "surrogatepass")
        ends = np.cumsum(lengths).tolist()
        return [head + text[end - n : end] for head, end, n in zip(heads, ends, remaining)]

    def _walk(self, length: int, index: int, steps: int) -> tuple[str, int, int]:
        """The first ``steps`` characters of the ``index``-th string of ``length``, the state they
        reach and the index of the rest among the strings accepted from there."""
        state = self.table.dfa.start
        codes: list[int] = []
        for remaining in range(length, length - steps, -1):
            below = self.table.row(remaining - 1)
            for target, size, starts, offsets in self.groups[state]:
                tail = below[target]
                block = size * tail
                if index < block:
                    within, index = divmod(index, tail)
                    i = bisect_right(offsets, within) - 1
                    codes.append(starts[i] + within - offsets[i])
                    state = target
                    break
                index -= block
        return "".join(map(chr, codes)), state, index

    def _arrays(
        self,
    ) -> tuple[Int64Array, Int64Array, Int64Array, Int64Array, Int64Array, Int64Array]:
        """The edge groups as the flat arrays :func:`automata.strings._count_kernels.unrank` reads."""
        group_bounds, interval_bounds = [0], [0]
        targets, sizes, starts, offsets = [], [], [], []
        for groups in self.groups:
            for target, size, group_starts, group_offsets in groups:
                targets.append(target)
                sizes.append(size)
                starts.extend(group_starts)
                offsets.extend(group_offsets)
                interval_bounds.append(len(starts))
            group_bounds.append(len(targets))
        group_bounds_, targets_, sizes_, interval_bounds_, starts_, offsets_ = (
            np.asarray(a, dtype=np.int64)
            for a in (group_bounds, targets, sizes, interval_bounds, starts, offsets)
        )
        return group_bounds_, targets_, sizes_, interval_bounds_, starts_, offsets_


def _flatten(intervals: list[tuple[int, int]]) -> tuple[int, list[int], list[int]]:
    """Size, interval starts and prefix sums of the lengths of sorted disjoint ``intervals``."""
    starts, offsets, size = [], [], 0
    for lo, hi in intervals:
        starts.append(lo)
        offsets.append(size)
        size += hi - lo + 1
    return size, starts, offsets


def sample(
    dfa: DFA, length: int, rng: np.random.Generator, *, mode: Mode = "uniform"
) -> str | None:
    """One accepted string of exactly ``length``, uniform in ``mode``; None when there is none."""
    strings = sample_strings(dfa, 1, rng, min_len=length, max_len=length, mode=mode, unique=False)
    return strings[0] if strings else None


def sample_strings(
    dfa: DFA,
    n: int,
    rng: np.random.Generator,
    *,
    max_len: int = 32,
    min_len: int = 0,
    lengths: LengthDistribution = "uniform",
    mode: Mode = "uniform",
    unique: bool = True,
) -> list[str]:
    """Up to ``n`` accepted strings with lengths in ``min_len..max_len``.

    ``lengths="uniform"`` first draws a length uniformly among those that have strings, then a
    string of that length uniformly; ``"proportional"`` is uniform over all the strings in range.
    With ``unique`` the strings are distinct: a length leaves the draw once its strings are used up,
    and fewer than ``n`` come back when the language in range has fewer (or after ``8 * n + 64``
    duplicate draws, which needs very skewed counts).
    """
    return StringSampler(dfa, max_len, mode).draw(
        n, rng, min_len=min_len, lengths=lengths, unique=unique
    )


class StringSampler:
    """:func:`sample_strings` of one DFA, its strings up to ``max_len`` and one ``mode``, built once
    (the counts, the edge groups, the kernel's arrays) for many draws: a run that draws from its
    target every epoch keeps one."""

    def __init__(self, dfa: DFA, max_len: int, mode: Mode = "uniform") -> None:
        self._unranker = _Unranker(completions(dfa, max_len, per_class=mode == "representatives"))
        self._counts = self._unranker.table.by_length()

    def draw(
        self,
        n: int,
        rng: np.random.Generator,
        *,
        min_len: int = 0,
        lengths: LengthDistribution = "uniform",
        unique: bool = True,
    ) -> list[str]:
        """What :func:`sample_strings` draws with the sampler's DFA, ``max_len`` and ``mode``."""
        pieces = self.pieces(n, rng, first=n, min_len=min_len, lengths=lengths, unique=unique)
        return [string for piece in pieces for string in piece]

    def pieces(
        self,
        n: int,
        rng: np.random.Generator,
        *,
        first: int,
        min_len: int = 0,
        lengths: LengthDistribution = "uniform",
        unique: bool = True,
    ) -> Iterator[list[str]]:
        """:meth:`draw`'s strings in order, built lazily in pieces of ``first`` strings, then twice
        as many each time: a caller that needs only some of them (the first few not seen before)
        stops early and builds no more, and the strings it took are those :meth:`draw` gives.
        ``rng`` is read here, once, as by :meth:`draw`."""
        draw = random.Random(int(rng.integers(2**63)))  # exact for big ints, and fast per call
        return self._unranked(self._picks(n, draw, min_len, lengths, unique), max(first, 1))

    def _unranked(self, picks: Iterator[tuple[int, int]], size: int) -> Iterator[list[str]]:
        while chunk := list(itertools.islice(picks, size)):
            yield self._unranker.strings(chunk)
            size *= 2

    def _picks(
        self,
        n: int,
        draw: random.Random,
        min_len: int,
        lengths: LengthDistribution,
        unique: bool,
    ) -> Iterator[tuple[int, int]]:
        """Up to ``n`` (length, index) pairs; with ``unique`` distinct pairs name distinct strings."""
        counts = self._counts
        available = [length for length in range(min_len, len(counts)) if counts[length]]
        drawn = dict.fromkeys(available, 0)
        seen: set[tuple[int, int]] = set()
        picked = misses = 0
        # What ``randrange(k)`` returns for k > 0 (the same draws), without its argument checks.
        below: Callable[[int], int] = getattr(draw, "_randbelow", draw.randrange)
        while picked < n and available and misses <= 8 * n + 64:
            if lengths == "uniform":
                length = available[below(len(available))]
            else:
                length = _proportional_length(draw, available, counts)
            pick = (length, below(counts[length]))
            if unique:
                if pick in seen:
                    misses += 1
                    continue
                seen.add(pick)
                drawn[length] += 1
                if drawn[length] == counts[length]:
                    available.remove(length)
            picked += 1
            yield pick


def _proportional_length(draw: random.Random, available: list[int], counts: list[int]) -> int:
    index = draw.randrange(sum(counts[length] for length in available))
    for length in available:
        if index < counts[length]:
            return length
        index -= counts[length]
    raise AssertionError("index below the total always lands in a length")


def shortest(
    dfa: DFA,
    k: int,
    *,
    max_len: int | None = None,
    max_cells: int = MAX_SHORTEST_CELLS,
    spelling: Spelling = "representatives",
) -> list[str]:
    """The ``k`` shortest accepted strings (of at most ``max_len`` characters), in shortlex order
    by code point: spelled with each class's representative (``"representatives"``), or with every
    character of every class (``"characters"``: what a listing over characters, such as
    interegular's ``strings()``, gives).

    Walks forward length by length, keeping the live states each length reaches, and lists the
    strings of each length that has some (:func:`automata.strings._shortest_kernel.shortest_codes`). Memory
    is the (length, state) pairs kept: past ``max_cells`` it raises :class:`SizeLimitExceeded`, so a
    language whose shortest string is very long fails fast instead of filling memory.
    """
    edges, separator = _edges(dfa.alphabet, spelling)
    status, length, codes, cells, ends = _shortest_kernel.shortest_codes(
        dfa.transitions,
        dfa.accepting,
        dfa.start,
        edges,
        k,
        -1 if max_len is None else max_len,
        max_cells,
        max(separator, 0),
    )
    if status != _shortest_kernel.OK:
        raise SizeLimitExceeded(
            f"listing the shortest strings (still none of length {length})",
            cells,
            max_cells,
            "stored (length, state) pairs",
            "pass a smaller max_len= or a larger max_cells=",
        )
    text = codes.astype(np.uint32).tobytes().decode("utf-32-le", "surrogatepass")
    if separator >= 0:  # one split in C instead of a slice per string
        return text.split(chr(separator))[:-1]
    bounds = ends.tolist()
    return [text[end - n : end] for end, n in zip(bounds, _lengths(bounds))]


def _lengths(ends: list[int]) -> list[int]:
    """The length of each string written as ``string + separator`` and ending at ``ends``."""
    return [end - previous - 1 for previous, end in zip([-1, *ends], ends)]


@functools.lru_cache(maxsize=256)
def _edges(alphabet: Alphabet, spelling: Spelling) -> tuple[Int64Array, int]:
    """The characters a listing spells each class with, as rows (first, last, class) sorted by code
    point, and the smallest code point outside them all (-1 when they cover everything)."""
    if spelling == "representatives":
        edges = sorted((ord(alphabet.representative(c)),) * 2 + (c,) for c in range(len(alphabet)))
    else:
        edges = sorted(
            (lo, hi, c) for c, chars in enumerate(alphabet.classes) for lo, hi in chars.intervals
        )
    free = 0
    for lo, hi, _ in edges:
        if free < lo:
            break
        free = max(free, hi + 1)
    table = np.asarray(edges, dtype=np.int64).reshape(len(edges), 3)
    table.flags.writeable = False
    return table, free if free <= MAX_CODE_POINT else -1
