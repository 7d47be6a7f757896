"""A counted class at the end of a language, ``L = R·C{m,n}``, found on its minimal DFA.

Regexes people write are often concatenations of counted classes, the classes overlapping
(``[a-z]{1,4}[A-Za-z]{2}[a-z]{1,4}``, ``[A-Z]{2,4}[0-9]{2}[A-Z]{2,4}``). Their minimal DFAs have
no cut state (the states only know which ways of splitting a string are still open), so neither
state elimination nor the cuts of :mod:`automata.printing.structure` write them back. Here the last factor
is taken off, exactly, on the automata. As elsewhere in :mod:`automata.printing.readable`, the language is
given as a range: any language between ``lower`` and ``upper`` may be written.

* For a class ``C`` and a set of counts ``I`` (an interval ``[m,n]`` or ``[m,∞)``, with 0 or not:
  ``(C{m,n})?``), the largest ``R`` with ``R·C^I ⊆ upper`` is ``upper`` with other accepting
  states: those all of whose runs of ``C^i`` accept, for each ``i`` in ``I`` (:meth:`_Table.runs`).
* Every string of ``lower`` must split into a string of that largest ``R`` and a run of ``C`` of a
  length in ``I`` (:func:`_splits`). Then the rest may be written as any language between the
  least ``R`` needed, the first parts of the splits with the longest runs (:func:`_needed`), and
  the largest: widening it that way is what lets the rest be ``[0-9]{2,}([A-Z]{1,3})?`` when the
  last factor is ``[0-9]{2,}`` (the largest ``R`` also holds ``00A0``, as ``00A0·00`` is in ``L``).
* ``C`` holds the last characters of ``lower`` when 0 is not in ``I`` (taken equal to them), a part
  of them otherwise; the candidate counts are the longest intervals of lengths whose runs accept
  from some state (:meth:`_Table.counts`), cut down to the longest that still split every string.

Everything is a plain-Python walk over small tables (minimal DFAs of a few dozen states), state
sets as int bit masks.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

import attrs
import numpy as np

from automata.core.dfa import DFA, coreachable_states
from automata.core.minimize import minimize
from automata.printing.structure import explore
from regexlang.charset import CharSet

#: Counts larger than this are only found as part of an unbounded ``{m,}``.
MAX_COUNT = 16
#: The most parts of the last characters tried as the class of an optional last factor.
MAX_PARTS = 6

T = TypeVar("T")
Counts = tuple[
    int, int | None, bool
]  # I = [low, high] (high None: unbounded), with 0 when the flag is set


@attrs.frozen
class Peel:
    """``chars^I`` ends every language between ``lower·chars^I`` and ``upper·chars^I``, and these lie
    within the range peeled (``I`` as in :data:`Counts`)."""

    chars: CharSet
    low: int
    high: int | None
    optional: bool
    lower: DFA
    upper: DFA


def peels(lower: DFA, upper: DFA) -> Iterator[Peel]:
    """The ways found to write a language between ``lower`` and ``upper`` (minimal, one alphabet,
    ``lower`` within ``upper``) as a rest followed by a counted class (module doc); lazily, since
    each costs a few searches of the automata."""
    low_table, up_table = _Table(lower), _Table(upper)
    last = low_table.last()
    if not last:
        return
    seen = _paired(low_table, up_table)
    for classes in [last, *_parts(last)]:
        for counts in up_table.counts(classes, seen):
            if counts[2] or classes == last:
                found = _longest(low_table, up_table, classes, counts)
                if found is not None:
                    yield _peel(lower, upper, classes, found, low_table, up_table)


def _peel(
    lower: DFA,
    upper: DFA,
    classes: tuple[int, ...],
    found: tuple[Counts, int],
    low_table: _Table,
    up_table: _Table,
) -> Peel:
    """The peel of ``classes`` counted as found by :func:`_longest`, with the range of its rest."""
    counts, rest = found
    chars = functools.reduce(CharSet.union, (upper.alphabet.classes[c] for c in classes))
    largest = minimize(
        DFA(
            upper.transitions,
            np.array([bool(rest >> q & 1) for q in range(upper.n_states)]),
            upper.start,
            upper.alphabet,
        )
    )
    needed = _needed(low_table, up_table, classes, counts, rest, lower)
    return Peel(chars, *counts, largest if needed is None else needed, largest)


def _parts(last: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Proper non-empty parts of ``last``, larger first, at most :data:`MAX_PARTS`."""
    sizes = range(len(last) - 1, 0, -1)
    return list(
        itertools.islice(
            (p for size in sizes for p in itertools.combinations(last, size)), MAX_PARTS
        )
    )


class _Table:
    """One minimal DFA's table as Python lists."""

    def __init__(self, dfa: DFA) -> None:
        self.rows: list[list[int]] = dfa.transitions.tolist()
        self.start = dfa.start
        accepting = dfa.accepting.tolist()
        self.final = sum(1 << q for q, a in enumerate(accepting) if a)
        self.live = coreachable_states(self.rows, accepting)
        self.moves = [
            [(c, t) for c, t in enumerate(row) if self.live[t]] for row in self.rows
        ]  # (class, target) into live states
        self.known: dict[tuple[tuple[int, ...], bool], tuple[list[int], int]] = {}
        self.sources: dict[
            int, list[int]
        ] = {}  # per class: for each state, the states it leads from (bits)

    def last(self) -> tuple[int, ...]:
        """The classes some string of the language ends with."""
        useful = (
            _reached(self.start, lambda q: [t for t in self.rows[q] if self.live[t]])
            if self.live[self.start]
            else set()
        )
        return tuple(
            sorted({c for q in useful for c, t in enumerate(self.rows[q]) if self.final >> t & 1})
        )

    def runs(self, classes: tuple[int, ...], every: bool = True) -> tuple[list[int], int]:
        """The states ``T_i`` whose every run (with ``every`` false: some run) of ``i`` characters of
        ``classes`` accepts, for ``i`` up to the first repetition, and where the repeating part starts."""
        key = (classes, every)
        if key not in self.known:
            sets, index = [self.final], {self.final: 0}
            sources = [self._sources(c) for c in classes]
            while True:
                following = self._before(sets[-1], sources, every)
                if following in index:
                    break
                index[following] = len(sets)
                sets.append(following)
            self.known[key] = sets, index[following]
        return self.known[key]

    def _sources(self, c: int) -> list[int]:
        """For each state ``t``, the states that class ``c`` leads to ``t``, as bits."""
        if c not in self.sources:
            found = [0] * len(self.rows)
            for q, row in enumerate(self.rows):
                found[row[c]] |= 1 << q
            self.sources[c] = found
        return self.sources[c]

    def _before(self, states: int, sources: list[list[int]], every: bool) -> int:
        """The states from which each class (with ``every`` false: some class) leads into ``states``."""
        found = (1 << len(self.rows)) - 1 if every else 0
        for into in sources:
            reached, rest = 0, states
            while rest:
                low = rest & -rest
                reached |= into[low.bit_length() - 1]
                rest ^= low
            found = found & reached if every else found | reached
        return found

    def at(self, classes: tuple[int, ...], i: int, every: bool = True) -> int:
        """``T_i`` for any ``i``."""
        sets, loop = self.runs(classes, every)
        return sets[i] if i < len(sets) else sets[loop + (i - loop) % (len(sets) - loop)]

    def top(self, classes: tuple[int, ...], low: int, high: int | None, every: bool = True) -> int:
        """The last ``i`` that matters in ``[low, high]``: past it ``T_i`` repeats."""
        sets, loop = self.runs(classes, every)
        return high if high is not None else max(low, loop) + len(sets) - loop - 1

    def within(self, classes: tuple[int, ...], counts: Counts) -> int:
        """The accepting states of the largest ``R`` with ``R·C^I`` in the language."""
        low, high, optional = counts
        mask = self.final if optional else -1
        for i in range(low, self.top(classes, low, high) + 1):
            mask &= self.at(classes, i)
        return mask

    def counts(self, classes: tuple[int, ...], states: set[int]) -> list[Counts]:
        """Candidate count sets: for each of ``states``, the longest intervals of lengths ``i`` with
        the state in ``T_i`` (also with 0 when it accepts), unbounded when ``T_i`` repeats with it."""
        sets, loop = self.runs(classes)
        head = sets[: MAX_COUNT + 1]
        cycle = functools.reduce(int.__and__, sets[loop:]) if len(sets) <= MAX_COUNT + 1 else 0
        found: list[Counts] = []
        for q in _representatives(
            sum(1 << q for q in states), [*head, cycle]
        ):  # the others repeat them
            inside = [bool(s >> q & 1) for s in head]
            unbounded = bool(cycle >> q & 1)
            for value, group in itertools.groupby(range(len(inside)), key=inside.__getitem__):
                members = list(group)
                if not value:
                    continue
                low, high = (
                    members[0],
                    None if unbounded and members[-1] == len(inside) - 1 else members[-1],
                )
                if low > 0:
                    found.append((low, high, False))
                    if inside[0]:
                        found.append((low, high, True))
                elif high != 0:
                    found.append((1, high, True))
        return list(dict.fromkeys(found))


def _representatives(states: int, splitters: Iterable[int]) -> list[int]:
    """The least state of each group of ``states`` (bits) that lie in the same ``splitters``, ascending."""
    groups = [states] if states else []
    for splitter in splitters:
        groups = [
            part for group in groups for part in (group & splitter, group & ~splitter) if part
        ]
    return sorted((group & -group).bit_length() - 1 for group in groups)


def _reached(start: T, successors: Callable[[T], Iterable[T]]) -> set[T]:
    """Everything reachable from ``start`` by ``successors``."""
    seen, frontier = {start}, [start]
    while frontier:
        for following in successors(frontier.pop()):
            if following not in seen:
                seen.add(following)
                frontier.append(following)
    return seen


def _paired(low_table: _Table, up_table: _Table) -> set[int]:
    """The states of ``upper`` reached by the prefixes of strings of ``lower``."""
    rows_lo, rows_up, live = low_table.rows, up_table.rows, low_table.live

    def step(pair: tuple[int, int]) -> list[tuple[int, int]]:
        q, p = pair
        return [(t, rows_up[p][c]) for c, t in enumerate(rows_lo[q]) if live[t]]

    return {p for _, p in _reached((low_table.start, up_table.start), step)}


def _longest(
    low_table: _Table, up_table: _Table, classes: tuple[int, ...], counts: Counts
) -> tuple[Counts, int] | None:
    """``counts`` with the largest ``n`` up to its own for which every string of ``lower`` splits
    (:func:`_splits`), and the accepting states of the largest rest; ``None`` if none does."""
    low, high, optional = counts
    rest = up_table.within(classes, counts)
    if _splits(low_table, up_table, classes, counts, rest):
        return counts, rest
    if (
        optional and low > 1
    ):  # splitting is monotone in n only when I holds every count from 0 or low
        return None
    bottom, top = low, MAX_COUNT if high is None else high - 1
    best = None
    while bottom <= top:
        middle = (bottom + top) // 2
        trial = (low, middle, optional)
        rest = up_table.within(classes, trial)
        if _splits(low_table, up_table, classes, trial, rest):
            best, bottom = (trial, rest), middle + 1
        else:
            top = middle - 1
    return best


def _lengths(counts: Counts) -> tuple[int, int, int]:
    """For runs of ``C`` counted since a split: the largest length kept (longer runs are dropped,
    or held at ``low`` when unbounded), all lengths kept as a mask, and the mask of those in ``I``."""
    low, high, optional = counts
    cap = high if high is not None else low
    keep = (1 << (cap + 1)) - 1
    return cap, keep, (keep >> low << low) | int(optional)


def _grown(lengths: int, counts: Counts) -> int:
    """The run lengths after one more character of ``C``."""
    cap, keep, _ = _lengths(counts)
    moved = lengths << 1
    if counts[1] is None and moved >> (cap + 1) & 1:
        moved |= 1 << cap
    return moved & keep


def _splits(
    low_table: _Table, up_table: _Table, classes: tuple[int, ...], counts: Counts, rest: int
) -> bool:
    """Whether every string of ``lower`` is a string that ``upper`` accepts at ``rest`` followed by
    a run of ``C`` of a length in ``I``: a search over the states of both and the lengths of the
    runs of ``C`` since each split (one int each: the state of ``lower``, of ``upper``, the lengths)."""
    cap, keep, wanted = _lengths(counts)
    unbounded = counts[1] is None
    rows_lo, rows_up, moves, final = low_table.rows, up_table.rows, low_table.moves, low_table.final
    inside = [c in classes for c in range(len(rows_lo[0]))]
    q_bits, p_bits = len(rows_lo).bit_length(), len(rows_up).bit_length()
    shift, q_mask, p_mask = q_bits + p_bits, (1 << q_bits) - 1, (1 << p_bits) - 1
    at_rest = [
        (rest >> p & 1) << shift for p in range(len(rows_up))
    ]  # a split may start: a run of length 0
    start = low_table.start | up_table.start << q_bits | at_rest[up_table.start]
    seen, frontier = {start}, [start]
    while frontier:
        key = frontier.pop()
        q, row_up, lengths = key & q_mask, rows_up[key >> q_bits & p_mask], key >> shift
        if final >> q & 1 and not lengths & wanted:
            return False
        moved = lengths << 1  # as _grown
        grown = (moved | (1 << cap if unbounded and moved >> (cap + 1) & 1 else 0)) & keep
        for c, target in moves[q]:
            following = row_up[c]
            key = (
                target
                | following << q_bits
                | (grown << shift if inside[c] else 0)
                | at_rest[following]
            )
            if key not in seen:
                seen.add(key)
                frontier.append(key)
    return True


def _needed(
    low_table: _Table,
    up_table: _Table,
    classes: tuple[int, ...],
    counts: Counts,
    rest: int,
    like: DFA,
) -> DFA | None:
    """The least rest: for each string of ``lower``, the first part of its split with the longest
    run of ``C`` (the rest's strings ``w`` at ``rest`` such that ``w·C^i`` meets ``lower`` for an
    ``i`` in ``I`` and no run of ``C`` at the end of ``w``, after a string at ``rest``, could join
    it); ``None`` past :data:`automata.printing.structure.STATE_LIMIT` states.

    Explored as sets of bits: the state of ``lower`` (bit ``q``), of ``upper`` (bit ``n_lo + p``),
    and the lengths of the runs of ``C`` pending since a split at ``rest`` (from bit ``n_lo + n_up``);
    the empty set once no string of ``lower`` is left to reach."""
    low, high, optional = counts
    _, keep, wanted = _lengths(counts)
    counted = [
        (i, low_table.at(classes, i, every=False))
        for i in range(low, low_table.top(classes, low, high, every=False) + 1)
    ]
    if optional:
        counted.append((0, low_table.final))
    reach = [(states, _joining(i, counts, wanted)) for i, states in counted]
    rows_lo, rows_up, live = low_table.rows, up_table.rows, low_table.live
    n_lo, n_up = len(rows_lo), len(rows_up)
    pending_at = n_lo + n_up
    inside = set(classes)
    split_here = (2 & keep) << pending_at  # a run of one character of C since a split at rest
    after_rest, elsewhere = (
        [split_here if c in inside else 0 for c in range(len(like.alphabet))],
        [0] * len(like.alphabet),
    )
    images = [
        *[[1 << t if live[t] else 0 for t in row] for row in rows_lo],
        *[
            [
                1 << (n_lo + t) | extra
                for t, extra in zip(row, after_rest if rest >> p & 1 else elsewhere)
            ]
            for p, row in enumerate(rows_up)
        ],
        *[
            [
                _grown(1 << j, counts) << pending_at if c in inside else 0
                for c in range(len(like.alphabet))
            ]
            for j in range(keep.bit_length())
        ],
    ]

    def accepts(bits: int) -> bool:
        q = (bits & ((1 << n_lo) - 1)).bit_length() - 1
        p = (bits >> n_lo & ((1 << n_up) - 1)).bit_length() - 1
        pending = bits >> pending_at
        return (
            q >= 0
            and bool(rest >> p & 1)
            and any(states >> q & 1 and not pending & joining for states, joining in reach)
        )

    start = 1 << low_table.start | 1 << (n_lo + up_table.start)
    return explore(start, images, accepts, like, alive=(1 << n_lo) - 1)


def _joining(i: int, counts: Counts, wanted: int) -> int:
    """The pending lengths (bits) whose run, followed by ``i`` more, has a length in ``I``."""
    low, high, _ = counts
    if high is None:  # lengths are held at low
        return sum(1 << j for j in range(1, low + 1) if i + j >= low)
    return sum(1 << j for j in range(1, high + 1) if wanted >> (i + j) & 1)
