"""Drawing witnesses of a difference automaton edge by edge: the shortest first, or at random.

A witness is a walk from the start state to an accepting state, one *edge* per character. What an
edge is depends on what the teacher shows. For plain strings it is a character class, spelled by
its representative; for clustered examples it is a super-character (all the classes that lead from
one state to the same successor, :func:`automata.strings.paths.steps_from`), so distinct walks are distinct
clustered examples and no drawn string has to be lifted and deduplicated afterwards. That is why
these walks live here and not as "draw strings, then lift them": drawing strings and lifting them
wastes most draws on strings that share a super-character path (and needed up to four redraws of
4,096 strings through exact big-integer unranking).

:func:`shortest_walks` lists the walks in order of length, and within a length in the order of
their edges' smallest characters, by an iterative depth-first walk pruned to states that can still
accept in exactly the remaining number of steps. It is lazy and complete: exhausting it proves that
no other walk of length at most ``max_len`` exists.

:func:`random_walks` draws walks uniformly among those of a length, the length uniformly among
those that have walks (as :func:`automata.strings.sampling.sample_strings` does for strings). The counts of
walks per (length, state) are kept as floats rescaled row by row, so they never overflow; only
their ratios within a row steer the walk, and all walks advance together, one numpy step per
character. :func:`random_strings` is the same walk over character classes, each class counting as
many times as it has characters, so that it draws uniform plain strings.

Both bound their tables (``(length + 1) × states`` cells, up to the longest walk listed or to
``max_len`` for random walks) by :data:`MAX_TABLE_CELLS` and raise :class:`SearchTooLarge` beyond
it, which the teacher reports as an issue.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Iterator
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from automata.algebra.ops import dead_state
from automata.core.dfa import DFA, coreachable
from automata.strings.paths import steps_from
from regexlang.charset import CharSet

#: What one edge of a walk stands for: a character class (plain) or a super-character (clustered).
Grain = Literal["class", "step"]

#: Most cells of a per-(length, state) table a draw may build (a 64 MiB float table).
MAX_TABLE_CELLS = 8_000_000

#: A walk: the states visited after the start, and the character set read on each edge.
Walk = tuple[tuple[int, ...], tuple[CharSet, ...]]


class SearchTooLarge(Exception):
    """A draw would need a table larger than :data:`MAX_TABLE_CELLS`."""


class Edges:
    """The edges leaving each live state, built on first use: (target, character set) pairs in
    order of their smallest character."""

    def __init__(self, dfa: DFA, grain: Grain) -> None:
        self.dfa, self.grain = dfa, grain
        self.live: list[bool] = live_states(dfa).tolist()
        self._out: dict[int, list[tuple[int, CharSet]]] = {}
        self._edge_labels = _EdgeLabels(self)

    def out(self, state: int) -> list[tuple[int, CharSet]]:
        """The live edges leaving ``state``."""
        if state not in self._out:
            if self.grain == "step":
                edges = [
                    (s.target, s.chars) for s in steps_from(self.dfa, state) if self.live[s.target]
                ]
            else:
                classes = self.dfa.alphabet.classes
                row = self.dfa.transitions[state].tolist()
                edges = [
                    (t, CharSet.of(classes[k].first())) for k, t in enumerate(row) if self.live[t]
                ]
            self._out[state] = sorted(edges, key=lambda edge: edge[1].first())
        return self._out[state]

    def labels(self, start: int, walk: tuple[int, ...]) -> tuple[CharSet, ...]:
        """The characters read on each edge of ``walk`` from ``start`` (the first edge between two
        states, for plain walks)."""
        return tuple(map(self._edge_labels.__getitem__, zip((start, *walk), walk)))


def live_states(dfa: DFA) -> npt.NDArray[np.bool_]:
    """The states from which some string is accepted. A canonical (minimal) DFA has at most one
    other state, the dead state, found with one vectorized pass instead of a graph search (which
    costs seconds at 100k states)."""
    if not dfa.canonical:
        return coreachable(dfa)
    live = np.ones(dfa.n_states, dtype=np.bool_)
    dead = dead_state(dfa)
    if dead is not None:
        live[dead] = False
    return live


class _EdgeLabels(dict[tuple[int, int], CharSet]):
    """(source, target) -> the characters of the first edge between them, filled on first use."""

    def __init__(self, edges: Edges) -> None:
        super().__init__()
        self.edges = edges

    def __missing__(self, pair: tuple[int, int]) -> CharSet:
        source, target = pair
        for t, chars in reversed(self.edges.out(source)):
            self[source, t] = chars
        return self[pair]


def _check_size(dfa: DFA, length: int) -> None:
    if (length + 1) * dfa.n_states > MAX_TABLE_CELLS:
        raise SearchTooLarge(
            f"a draw over {dfa.n_states:,} states up to length {length:,} needs more than "
            f"{MAX_TABLE_CELLS:,} table cells; lower max_len"
        )


def shortest_walks(edges: Edges, max_len: int) -> Iterator[Walk]:
    """Every accepting walk of at most ``max_len`` edges, shortest first (see the module doc)."""
    dfa = edges.dfa
    if not edges.live[dfa.start]:
        return
    viable = [dfa.accepting.copy()]  # viable[r][s]: some walk of exactly r edges accepts
    lookup: list[list[bool]] = [viable[0].tolist()]  # the same rows as lists, for the walk
    cache: dict[tuple[int, int], tuple[tuple[int, CharSet], ...]] = {}
    live = np.asarray(edges.live, dtype=np.bool_)
    reached = np.zeros(dfa.n_states, dtype=np.bool_)
    reached[dfa.start] = True
    for length in range(max_len + 1):
        if length:
            _check_size(dfa, length)  # the table grows only as far as the walks go
            viable.append(np.asarray(viable[-1][dfa.transitions].any(axis=1), dtype=np.bool_))
            lookup.append(viable[-1].tolist())
        if lookup[length][dfa.start]:
            yield from _walks_of_length(edges, length, lookup, cache)
        reached = _successors(dfa, reached) & live
        if not reached.any():
            return


def _successors(dfa: DFA, states: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    following = np.zeros(dfa.n_states, dtype=np.bool_)
    following[dfa.transitions[states].ravel()] = True
    return following


def _walks_of_length(
    edges: Edges,
    length: int,
    viable: list[list[bool]],
    cache: dict[tuple[int, int], tuple[tuple[int, CharSet], ...]],
) -> Iterator[Walk]:
    """The accepting walks of exactly ``length`` edges, depth first without recursion. ``cache``
    keeps, per (state, edges left), the edges into states that can still accept in time."""

    def options(state: int, left: int) -> tuple[tuple[int, CharSet], ...]:
        found = cache.get((state, left))
        if found is None:
            row = viable[left - 1]
            found = cache[state, left] = tuple(edge for edge in edges.out(state) if row[edge[0]])
        return found

    if length == 0:
        yield (), ()
        return
    states: list[int] = []
    chars: list[CharSet] = []
    stack = [(options(edges.dfa.start, length), 0)]
    while stack:
        choices, index = stack[-1]
        if index == len(choices):
            stack.pop()
            if states:
                states.pop()
                chars.pop()
            continue
        stack[-1] = (choices, index + 1)
        target, label = choices[index]
        states.append(target)
        chars.append(label)
        if len(states) == length:
            yield tuple(states), tuple(chars)
            states.pop()
            chars.pop()
        else:
            stack.append((options(target, length - len(states)), 0))


def random_walks(
    edges: Edges, n: int, max_len: int, rng: np.random.Generator
) -> tuple[list[Walk], bool]:
    """``n`` distinct accepting walks of at most ``max_len`` super-characters (``edges`` of grain
    ``step``), each length equally likely among those that have walks and each walk equally likely
    within its length (up to float rounding of the counts), and False; or, when the walks are few
    (at most ``2n + 64``), all of them in that random order, and True."""
    dfa = edges.dfa
    _check_size(dfa, max_len)
    if n <= 0 or not edges.live[dfa.start]:
        return [], not edges.live[dfa.start]
    options = _successor_table(dfa, edges.live)
    weights, counts = _walk_counts(dfa, options, _ONE, max_len)
    if sum(counts) <= 2 * n + 64:  # few walks: list them all and deal them out without repeats
        every = list(shortest_walks(edges, max_len))
        return _deal(every, len(every), rng), True
    found = _distinct(
        n,
        counts,
        rng,
        lambda lengths: (w for w, _ in _walk(options, _ONE, weights, dfa, lengths, rng)),
    )
    return [(walk, edges.labels(dfa.start, walk)) for walk in found], False


def random_strings(dfa: DFA, n: int, max_len: int, rng: np.random.Generator) -> list[str]:
    """Up to ``n`` distinct accepted strings of at most ``max_len`` characters, each length equally
    likely among those that have strings and each string equally likely within its length (up to
    float rounding): a walk over character classes, each class weighted by its size, then a
    uniform character of each class. Floats keep this fast on automata of 100k states, where exact
    big-integer counts (:func:`automata.strings.sampling.sample_strings`) take seconds."""
    _check_size(dfa, max_len)
    live = live_states(dfa)
    if n <= 0 or not live[dfa.start]:
        return []
    options = _with_sink_row(_live_targets(dfa, live))
    classes = dfa.alphabet.classes
    sizes = np.asarray([len(c) for c in classes], dtype=np.float64)
    weights, counts = _walk_counts(dfa, options, sizes, max_len)

    def spell(lengths: npt.NDArray[np.int64]) -> Iterator[str]:
        for _, picked in _walk(options, sizes, weights, dfa, lengths, rng):
            draws = rng.random(len(picked))
            yield "".join(
                _nth(classes[k], int(u * sizes[k])) for k, u in zip(picked, draws.tolist())
            )

    return list(_distinct(n, counts, rng, spell))


_ONE = np.ones(1, dtype=np.float64)  # every edge counts once


def _distinct(
    n: int,
    counts: list[float],
    rng: np.random.Generator,
    draw: Callable[[npt.NDArray[np.int64]], Iterable[Hashable]],
) -> dict[Any, None]:
    """Up to ``n`` distinct items of ``draw(lengths)``: each round asks a quarter more than is
    missing, lengths chosen uniformly among those not yet used up (``counts`` items each)."""
    left = {length: count for length, count in enumerate(counts) if count > 0}
    found: dict[Any, None] = {}
    for _ in range(8):
        if len(found) == n or not left:
            break
        lengths = np.fromiter(left, dtype=np.int64)
        missing = n - len(found)
        for item in draw(lengths[rng.integers(lengths.size, size=missing + missing // 4 + 8)]):
            if item in found:
                continue
            found[item] = None
            length = len(item)  # type: ignore[arg-type]
            if length in left:
                left[length] -= 1
                if left[length] < 0.5:
                    del left[length]
            if len(found) == n:
                break
    return found


def _nth(chars: CharSet, index: int) -> str:
    for low, high in chars.intervals:
        if index <= high - low:
            return chr(low + index)
        index -= high - low + 1
    return chr(chars.intervals[-1][1])  # float rounding of a draw just below 1


def _deal(walks: list[Walk], n: int, rng: np.random.Generator) -> list[Walk]:
    """Up to ``n`` of ``walks`` without repeats: a length uniformly among those with walks left,
    then a walk of that length uniformly."""
    by_length: dict[int, list[Walk]] = {}
    for walk in walks:
        by_length.setdefault(len(walk[0]), []).append(walk)
    dealt: list[Walk] = []
    while by_length and len(dealt) < n:
        length = list(by_length)[int(rng.integers(len(by_length)))]
        pool = by_length[length]
        dealt.append(pool.pop(int(rng.integers(len(pool)))))
        if not pool:
            del by_length[length]
    return dealt


def _successor_table(dfa: DFA, live: list[bool]) -> npt.NDArray[np.int64]:
    """Row ``s``: the distinct live successors of ``s``, padded with a sink (index ``n_states``, a
    row of its own) that no walk reaches and that counts no walks."""
    sink = dfa.n_states
    table = _live_targets(dfa, live)
    table.sort(axis=1)
    repeated = np.zeros(table.shape, dtype=np.bool_)
    repeated[:, 1:] = table[:, 1:] == table[:, :-1]
    table[repeated] = sink
    table.sort(axis=1)
    width = max(1, int((table != sink).sum(axis=1).max(initial=0)))
    return _with_sink_row(table[:, :width])


def _live_targets(dfa: DFA, live: npt.ArrayLike) -> npt.NDArray[np.int64]:
    """The transition table with every target that cannot accept replaced by the sink (index
    ``n_states``)."""
    table = dfa.transitions.astype(np.int64)
    return np.where(np.append(np.asarray(live, dtype=np.bool_), False)[table], table, dfa.n_states)


def _with_sink_row(table: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """``table`` with the sink's own row below it: every column leads to the sink (its index)."""
    sink = table.shape[0]
    return np.vstack([table, np.full((1, table.shape[1]), sink, dtype=np.int64)])


def _walk_counts(
    dfa: DFA, options: npt.NDArray[np.int64], sizes: npt.NDArray[np.float64], max_len: int
) -> tuple[npt.NDArray[np.float64], list[float]]:
    """``table[r, s]``: the number of walks of ``r`` edges from ``s`` to acceptance (an edge of
    ``options`` counting ``sizes`` times), each row rescaled so that its largest entry is 1 (ratios
    within a row are all a walk needs); and the unscaled number of walks of each length from the
    start (``inf`` past the float range)."""
    table = np.zeros((max_len + 1, dfa.n_states + 1), dtype=np.float64)
    table[0, :-1] = dfa.accepting
    log_scale, counts = 0.0, [float(table[0, dfa.start])]
    for r in range(1, max_len + 1):
        row = (table[r - 1, options] * sizes).sum(axis=1)
        top = float(row.max())
        if top > 0:
            table[r] = row / top
            log_scale += math.log(top)
        counts.append(
            float(table[r, dfa.start]) * math.exp(min(log_scale, 700.0))
            if table[r, dfa.start]
            else 0.0
        )
    return table, counts


def _walk(
    options: npt.NDArray[np.int64],
    sizes: npt.NDArray[np.float64],
    weights: npt.NDArray[np.float64],
    dfa: DFA,
    lengths: npt.NDArray[np.int64],
    rng: np.random.Generator,
) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """One accepting walk per entry of ``lengths``: its states and the option (column) taken at each
    step. All walks advance together (longest first, so the walks still going are a prefix), each
    option chosen in proportion to its size times the walks it leads to (uniformly among real
    options where those counts underflowed)."""
    lengths = np.sort(lengths)[::-1]
    sink = options.shape[0] - 1
    states = np.full(lengths.size, dfa.start, dtype=np.int64)
    path = np.zeros((lengths.size, int(lengths.max(initial=0))), dtype=np.int64)
    taken = np.zeros_like(path)
    going = np.searchsorted(
        -lengths, -np.arange(path.shape[1]), side="right"
    )  # walks longer than step
    draws = rng.random(path.shape)
    for step in range(path.shape[1]):
        active = int(going[step])
        choices = options[states[:active]]
        cumulative = np.cumsum(
            weights[(lengths[:active] - step - 1)[:, None], choices] * sizes, axis=1
        )
        total = cumulative[:, -1]
        if not total.all():
            stuck = total == 0
            cumulative[stuck] = np.cumsum(choices[stuck] != sink, axis=1)
            total = cumulative[:, -1]
        index = (
            (cumulative <= (draws[:active, step] * total)[:, None])
            .sum(axis=1)
            .clip(max=choices.shape[1] - 1)
        )
        states[:active] = choices[np.arange(active), index]
        path[:active, step] = states[:active]
        taken[:active, step] = index
    accepting = dfa.accepting.tolist()
    return [
        (tuple(row[:length]), tuple(picks[:length]))
        for row, picks, length in zip(path.tolist(), taken.tolist(), lengths.tolist())
        if accepting[row[length - 1] if length else dfa.start]
    ]
