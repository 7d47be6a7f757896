"""From a DFA back to a regex, by state elimination, kept readable.

State elimination (Brzozowski–McCluskey) turns the automaton into a *generalised* one whose edges
carry regexes: a fresh initial state with an ε-edge to the start state, a fresh final state with
ε-edges from every accepting state, and between two states the union of the characters leading
from one to the other as one ``Chars`` node (the same grouping that makes super-characters in
:mod:`automata.strings.paths`). Eliminating a state ``q`` replaces every pair of edges ``p → q → r`` by
the edge ``p → r`` labelled ``R(p,q) R(q,q)* R(q,r)``, unioned with what was there; when only the
two fresh states remain, their edge is the regex. Only *useful* states (reachable and able to
reach acceptance) take part, so dead states never leak ``∅`` into the result.

The result is language-equivalent for any order, but its size is not: order matters exponentially in
the worst case. By default (``"fewest-edges"``) we take the state with the fewest new edges first
(``|in| × |out|``, self-loops aside), breaking ties by the weight of Delgado and Morais (the size
the new edges would add), then by state number so the output is deterministic; ``"weight"`` puts
that weight first, and ``"farthest"``/``"nearest"`` take states by their distance from the start,
farthest or nearest first (:mod:`automata.printing.readable` tries them all and keeps the shortest).
Every edge is built through smart constructors that keep it small: ``∅`` annihilates concatenation
and vanishes from unions, ``ε`` vanishes from concatenation, ``r r*`` and ``r* r`` become ``r+``,
options that are all characters merge into one class, options subsumed by a starred sibling drop
out, options sharing a first or last factor are factored (``ab|ac`` → ``a[bc]``), and an ``ε``
option turns an ``s+`` sibling into ``s*`` or else makes the union optional (``r?``). Stars go
through :func:`regexlang.normalize.normalize`, which owns the star identities (``(r*)* = r*``,
``(ε|r|s*)* = (r|s)*``); the final tree gets one more pass, then runs of one factor fold into a
count (``[A-Z][A-Z]`` → ``[A-Z]{2}``, ``bbb*`` → ``b{2,}``) and runs of one sequence too
(``[0-9#]*[a-z][0-9#]*[a-z]`` → ``([0-9#]*[a-z]){2}``). Dialects without ``+``, ``?`` or counts
spell them out when printing."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Sequence
from typing import Literal

from automata.core.dfa import DFA, classes_by_target, coreachable_states
from automata.errors import SizeLimitExceeded
from regexlang.ast import (
    Chars,
    Concat,
    EmptySet,
    Epsilon,
    Optional,
    Plus,
    Regex,
    Repeat,
    Star,
    Union,
    children,
    concat,
    union,
)
from regexlang.charset import CharSet
from regexlang.normalize import normalize, nullable

_EMPTY = EmptySet()
_EPSILON = Epsilon()
_INITIAL = -1
_FINAL = -2

FACTOR_DEPTH = 60
"""How many unions factoring nests one inside another before it leaves options unfactored
(:func:`_factor`); readable regexes nest far less, and five Python frames go to each level."""

#: States past which an elimination keeps no graph along the way for later orders
#: (:class:`Eliminations`): each holds a table of the states left, so they take memory quadratic
#: in the states (about 40 bytes times its square: 160 MB at this limit).
KEPT_STATES = 2000

Order = Literal["fewest-edges", "weight", "farthest", "nearest"]
ORDERS: tuple[Order, ...] = ("fewest-edges", "weight", "farthest", "nearest")


def to_regex(
    dfa: DFA,
    size_limit: int | None = None,
    order: Order = "fewest-edges",
    joins: Joins | None = None,
) -> Regex:
    """A readable regex with exactly the language of ``dfa``, eliminating states in ``order``
    (module doc); raises :class:`SizeLimitExceeded` when an edge of the elimination grows past
    ``size_limit`` regex nodes (the result would not be read, and building it can take minutes).
    ``joins`` is the memory of a larger print this one is part of."""
    return Eliminations(dfa, shared=False, joins=joins).regex(order, size_limit)


class Eliminations:
    """The eliminations of one DFA in several orders, sharing the work of their common first steps
    (orders often agree on the first states to remove: a quarter of the steps on the paper's lists).

    The graph after each sequence of removed states is kept, with the largest edge written on the
    way, so an order that removes the same states first starts where an earlier one was (on the
    four orders of every dataset target, about a tenth less time than four separate eliminations).
    Each kept graph holds a table of the states left, so past :data:`KEPT_STATES` states only the
    first graph is kept (the listing of twenty log lines, 14,000 states, took gigabytes).
    Without ``shared``, nothing is kept and :meth:`regex` may be called once. ``joins`` is the
    memory of the print this elimination is part of (a fresh one when left out).
    """

    def __init__(self, dfa: DFA, shared: bool = True, joins: Joins | None = None) -> None:
        self.joins = Joins() if joins is None else joins
        out, into = _generalised(dfa, self.joins)
        self.distance = _distances(out, dfa.start)
        self.after: dict[tuple[int, ...], tuple[Edges, Edges, int]] = {(): (out, into, 0)}
        self.shared = shared  # without sharing, one order runs on the graph itself
        self.keeps = shared and dfa.n_states <= KEPT_STATES  # the graphs along the way

    def regex(self, order: Order, size_limit: int | None = None) -> Regex:
        """:func:`to_regex` in ``order``."""
        removed: tuple[int, ...] = ()
        out, into, largest = self.after[removed] if self.shared else self.after.pop(removed)
        borrowed = self.shared  # the graph is a kept one: read it, copy it before changing it
        remaining = set(out) - {_INITIAL, _FINAL}
        keys = {q: self._key(order, q, out, into) for q in remaining}
        weights: dict[
            int, int
        ] = {}  # fewest-edges: the weights read to break ties, while the state's edges stay
        while remaining:
            victim = _next(order, remaining, keys, weights, out, into, self.joins)
            remaining.remove(victim)
            removed += (victim,)
            neighbours = (into[victim].keys() | out[victim].keys()) & remaining
            known = self.after.get(removed)
            if known is not None:
                out, into, largest = known
                borrowed = True
            else:
                if borrowed:
                    out, into, largest = _copied((out, into, largest))
                    borrowed = False
                sources, targets = (
                    [p for p in into[victim] if p != victim],
                    [t for t in out[victim] if t != victim],
                )
                written = _eliminate(victim, out, into, self.joins)
                largest = max(largest, *map(self.joins.size, written), 0)
                if self.keeps:
                    self.after[removed] = _kept(
                        self.after[removed[:-1]], victim, sources, targets, (out, into, largest)
                    )
            for q in (
                neighbours
            ):  # a key reads only the state's own edges: only the victim's neighbours' change
                keys[q] = self._key(order, q, out, into)
                weights.pop(q, None)
            if size_limit is not None and largest > size_limit:
                raise SizeLimitExceeded(
                    "the regex of this DFA",
                    largest,
                    size_limit,
                    "nodes",
                    "pass a larger size_limit= to allow it",
                )
        return tidy(out[_INITIAL].get(_FINAL, _EMPTY), self.joins)

    def _key(self, order: Order, q: int, out: Edges, into: Edges) -> tuple[int, ...]:
        """The key by which the next state to eliminate is the smallest (for fewest-edges, before
        the tie-break by weight and state that :func:`_next` adds)."""
        if order == "fewest-edges":
            return (_new_edges(q, out, into),)
        if order == "weight":
            return _weight(q, out, into, self.joins), q
        return (-1 if order == "farthest" else 1) * self.distance.get(q, 0), q


def _next(
    order: Order,
    remaining: set[int],
    keys: dict[int, tuple[int, ...]],
    weights: dict[int, int],
    out: Edges,
    into: Edges,
    joins: Joins,
) -> int:
    """The state to eliminate next: the smallest key; for fewest-edges, ties broken by the weight
    (read only for the tied states, and remembered in ``weights``), then by state number."""
    if order != "fewest-edges":
        return min(remaining, key=keys.__getitem__)
    fewest = min(keys[q] for q in remaining)
    tied = [q for q in remaining if keys[q] == fewest]
    if len(tied) == 1:
        return tied[0]
    for q in tied:
        if q not in weights:
            weights[q] = _weight(q, out, into, joins)
    return min(tied, key=lambda q: (weights[q], q))


def _copied(graph: tuple[Edges, Edges, int]) -> tuple[Edges, Edges, int]:
    out, into, largest = graph
    return {k: dict(v) for k, v in out.items()}, {k: dict(v) for k, v in into.items()}, largest


def _kept(
    before: tuple[Edges, Edges, int],
    victim: int,
    sources: list[int],
    targets: list[int],
    graph: tuple[Edges, Edges, int],
) -> tuple[Edges, Edges, int]:
    """A copy of ``graph``, the kept graph ``before`` after eliminating ``victim``, that shares
    with ``before`` the edges the elimination left alone (it changed only the out-edges of its
    ``sources`` and the in-edges of its ``targets``); kept graphs are only read."""
    out, into, largest = graph
    kept_out, kept_into = dict(before[0]), dict(before[1])
    del kept_out[victim], kept_into[victim]
    for source in sources:
        kept_out[source] = dict(out[source])
    for target in targets:
        kept_into[target] = dict(into[target])
    return kept_out, kept_into, largest


def tidy(regex: Regex, joins: Joins | None = None) -> Regex:
    """The last pass of :func:`to_regex`, for trees put together from its outputs: normalized,
    ``r r*`` fused into ``r+``, runs folded into counts. Same language. ``joins``: the memory of
    the print the tree is part of."""
    return (Joins() if joins is None else joins).fold_runs(normalize(regex))


class Joins:
    """The memory of one print: the joins, sizes and folds it has built, by their inputs.

    The elimination orders of one automaton, and the prints a readable search puts together,
    join the same labels again and again (most edges of one print are built more than once), so
    one print remembers them. The memory belongs to the print (an :class:`Eliminations`, one
    :func:`automata.printing.readable.readable` search) and is dropped with it: no process-wide
    cache grows with every automaton a run prints.
    """

    def __init__(self) -> None:
        self._labels: dict[tuple[CharSet, ...], Chars] = {}
        self._sizes: dict[Regex, int] = {}
        self._concats: dict[tuple[Regex, ...], Regex] = {}
        self._unions: dict[tuple[Regex, ...], Regex] = {}
        self._folds: dict[Regex, Regex] = {}
        self.depth = 0  # the unions being built, one inside the other
        self.clipped = False  # whether the union being built left a factoring out for depth

    def label(self, classes: tuple[CharSet, ...]) -> Chars:
        """The label of an edge taken on ``classes``: their characters as one set."""
        found = self._labels.get(classes)
        if found is None:
            found = self._labels[classes] = Chars(
                CharSet(tuple(itertools.chain.from_iterable(chars.intervals for chars in classes)))
            )
        return found

    def size(self, regex: Regex) -> int:
        """The number of nodes of ``regex``."""
        found = self._sizes.get(regex)
        if found is None:
            found = self._sizes[regex] = 1 + sum(map(self.size, children(regex)))
        return found

    def concat(self, parts: Iterable[Regex]) -> Regex:
        """The concatenation of ``parts``, kept small (module doc)."""
        key = tuple(parts)
        found = self._concats.get(key)
        if found is None:
            found = self._concats[key] = _concat_of(key)
        return found

    def union(self, options: Iterable[Regex]) -> Regex:
        """The union of ``options``, kept small (module doc). Factoring nests at most
        :data:`FACTOR_DEPTH` unions deep; a union built past that depth is left unfactored and
        not remembered, so every union remembered is the one written at any depth."""
        key = tuple(options)
        found = self._unions.get(key)
        if found is None:
            clipped_around, self.clipped = self.clipped, False
            self.depth += 1
            try:
                found = _union_of(key, self)
            finally:
                self.depth -= 1
            if not self.clipped:
                self._unions[key] = found
            self.clipped = self.clipped or clipped_around
        return found

    def fold_runs(self, regex: Regex) -> Regex:
        """:func:`_fold_runs` of ``regex``."""
        found = self._folds.get(regex)
        if found is None:
            found = self._folds[regex] = _fold_runs(regex, self)
        return found


Edges = dict[int, dict[int, Regex]]


def _generalised(dfa: DFA, joins: Joins) -> tuple[Edges, Edges]:
    """Out- and in-edges of the generalised automaton over the useful states of ``dfa``."""
    rows, accepting = dfa.transitions.tolist(), dfa.accepting.tolist()
    reachable = [False] * dfa.n_states
    reachable[dfa.start] = True
    frontier = [dfa.start]
    while frontier:
        for target in rows[frontier.pop()]:
            if not reachable[target]:
                reachable[target] = True
                frontier.append(target)
    useful = [r and c for r, c in zip(reachable, coreachable_states(rows, accepting))]
    out: Edges = {_INITIAL: {}, _FINAL: {}}
    into: Edges = {_INITIAL: {}, _FINAL: {}}
    for state in range(dfa.n_states):
        if useful[state]:
            out[state], into[state] = {}, {}
    for state in list(out):
        if state < 0:
            continue
        for target, classes in classes_by_target(rows[state], useful).items():
            label = joins.label(tuple(dfa.alphabet.classes[k] for k in classes))
            _add(out, into, state, target, label)
        if accepting[state]:
            _add(out, into, state, _FINAL, _EPSILON)
    if useful[dfa.start]:
        _add(out, into, _INITIAL, dfa.start, _EPSILON)
    return out, into


def _add(out: Edges, into: Edges, source: int, target: int, label: Regex) -> None:
    out[source][target] = into[target][source] = label


def _distances(out: Edges, start: int) -> dict[int, int]:
    """Breadth-first distances from the start state over the useful states."""
    distance = {start: 0}
    frontier = [start] if start in out else []
    while frontier:
        following = []
        for state in frontier:
            for target in out[state]:
                if target >= 0 and target not in distance:
                    distance[target] = distance[state] + 1
                    following.append(target)
        frontier = following
    return distance


def _new_edges(state: int, out: Edges, into: Edges) -> int:
    """How many edges eliminating ``state`` writes (``|in| × |out|``, self-loops aside)."""
    loops = state in out[state]
    return (len(into[state]) - loops) * (len(out[state]) - loops)


def _weight(state: int, out: Edges, into: Edges, joins: Joins) -> int:
    """The size the edges written by eliminating ``state`` would add (Delgado and Morais)."""
    ins = [r for p, r in into[state].items() if p != state]
    outs = [r for t, r in out[state].items() if t != state]
    loop = out[state].get(state)
    return (
        sum(map(joins.size, ins)) * (len(outs) - 1)
        + sum(map(joins.size, outs)) * (len(ins) - 1)
        + (joins.size(loop) * (len(ins) * len(outs) - 1) if loop is not None else 0)
    )


def _eliminate(state: int, out: Edges, into: Edges, joins: Joins) -> list[Regex]:
    """Remove ``state``, joining its in- and out-edges; the labels of the edges written."""
    loop = out[state].pop(state, None)
    into[state].pop(state, None)
    middle = _EPSILON if loop is None else normalize(Star(loop))
    written = []
    for source, first in into[state].items():
        del out[source][state]
        for target, last in out[state].items():
            path = joins.concat([first, middle, last])
            old = out[source].get(target)
            written.append(path if old is None else joins.union([old, path]))
            _add(out, into, source, target, written[-1])
    for target in out[state]:
        del into[target][state]
    del out[state], into[state]
    return written


def _parts(regex: Regex) -> tuple[Regex, ...]:
    return regex.parts if isinstance(regex, Concat) else (regex,)


def _concat_of(parts: tuple[Regex, ...]) -> Regex:
    kept: list[Regex] = []
    stars: list[int] = []  # where ``kept`` holds a star, the only parts a later run fuses with
    for part in (p for item in parts for p in _parts(item)):
        if type(part) is EmptySet:  # the nodes without fields: equal exactly when of one type
            return _EMPTY
        if type(part) is not Epsilon:
            kept.append(part)
            _fuse_tail(kept, stars)
            while stars and (stars[-1] >= len(kept) or not isinstance(kept[stars[-1]], Star)):
                stars.pop()
            if isinstance(kept[-1], Star) and (not stars or stars[-1] != len(kept) - 1):
                stars.append(len(kept) - 1)
    return concat(*kept)


def _fuse_tail(kept: list[Regex], stars: list[int]) -> None:
    """Rewrite the end of ``kept`` after an append: ``r* r*`` → ``r*``, ``r r*`` and ``r* r`` → ``r+``.
    ``stars``: the positions of the stars before the appended part."""
    last = kept[-1]
    before = kept[-2] if len(kept) >= 2 else None
    if isinstance(last, Star):
        if isinstance(before, (Star, Plus)) and before.inner == last.inner:
            kept.pop()
            return
        body = _parts(last.inner)
        if len(kept) > len(body) and tuple(kept[-1 - len(body) : -1]) == body:
            kept[-1 - len(body) :] = [Plus(last.inner)]
        return
    if isinstance(last, Plus) and isinstance(before, Star) and before.inner == last.inner:
        del kept[-2]
        return
    for start in reversed(stars):
        candidate = kept[start]
        assert isinstance(candidate, Star)
        if len(_parts(candidate.inner)) == len(kept) - 1 - start and _parts(
            candidate.inner
        ) == tuple(kept[start + 1 :]):
            kept[start:] = [Plus(candidate.inner)]
            return


def _union_of(options: tuple[Regex, ...], joins: Joins) -> Regex:
    kept = list(
        dict.fromkeys(o for item in options for o in _options(item) if type(o) is not EmptySet)
    )
    kept = _unsubsumed(_merge_chars(kept), kept)
    optional = _EPSILON in kept and len(kept) > 1
    if optional:
        kept.remove(_EPSILON)
    for i, option in enumerate(kept if optional else ()):
        if isinstance(option, Plus):
            kept[i] = Star(option.inner)
            optional = False
            break
    factored = _factor(kept, joins)
    return Optional(factored) if optional and not nullable(factored) else factored


def _options(regex: Regex) -> tuple[Regex, ...]:
    """The options of a union, reading ``r?`` as ``r|ε`` so that ``ε`` is decided once, at the top."""
    if isinstance(regex, Optional):
        return (*_options(regex.inner), _EPSILON)
    return regex.options if isinstance(regex, Union) else (regex,)


def _unsubsumed(options: list[Regex], among: list[Regex]) -> list[Regex]:
    """The ``options`` that no different option of ``among`` makes redundant by its shape: ``r*``
    makes ``r``, ``r+``, ``r?`` and ``ε`` redundant, ``r+`` and ``r?`` make ``r``, and ``r?`` makes ``ε``."""
    starred = {o.inner for o in among if isinstance(o, Star)}
    wrapped = {o.inner for o in among if isinstance(o, (Plus, Optional))}
    if not starred and not wrapped:
        return options
    empty_too = bool(starred) or any(isinstance(o, Optional) for o in among)
    return [
        o
        for o in options
        if not (
            o in starred
            or o in wrapped
            or (isinstance(o, (Plus, Optional)) and o.inner in starred)
            or (isinstance(o, Epsilon) and empty_too)
        )
    ]


def _merge_chars(options: list[Regex]) -> list[Regex]:
    """Options that are character sets merge into one, where the first of them stood."""
    sets = [o.chars for o in options if isinstance(o, Chars)]
    if len(sets) < 2:
        return options
    first = next(i for i, o in enumerate(options) if isinstance(o, Chars))
    rest = [o for o in options if not isinstance(o, Chars)]
    return [*rest[:first], Chars(functools.reduce(CharSet.union, sets)), *rest[first:]]


def _factor(options: list[Regex], joins: Joins) -> Regex:
    """Factor options sharing a first factor, then options sharing a last one: ``ab|ac`` → ``a(b|c)``.

    Past :data:`FACTOR_DEPTH` nested unions the options stay as they are (same language): each
    factoring nests one union in another, and a regex nested deeper than that is neither read nor
    walked by the recursive passes that follow (printing, normalizing) within Python's stack."""
    if joins.depth > FACTOR_DEPTH:
        joins.clipped = True
        return union(*options)
    for position in (0, -1):
        groups: dict[Regex, list[Regex]] = {}
        for option in options:
            groups.setdefault(_parts(option)[position], []).append(option)
        if len(groups) < len(options):
            return joins.union(
                _factored(group, position, joins) if len(group) > 1 else group[0]
                for group in groups.values()
            )
    return union(*options)


def _factored(group: list[Regex], position: int, joins: Joins) -> Regex:
    """The options of ``group``, which share their factor at ``position``, with that factor taken
    out, and at once every further factor that factoring them one at a time would take out next
    (so a long shared run nests one union, not one per factor).

    A run comes out while what is left of every option keeps two or more factors (the union of a
    single factor reads it as options: ``r?`` as ``r|ε``), and a last run only when no two options
    share a first factor (the union of the rests would factor those first)."""
    parts = [_parts(o) for o in group]
    shortest = min(map(len, parts))
    shared = 1
    if position == 0:
        while shared + 2 <= shortest and all(p[shared] == parts[0][shared] for p in parts):
            shared += 1
        rest = joins.union(concat(*p[shared:]) for p in parts)
        return joins.concat([*parts[0][:shared], rest])
    if len({p[0] for p in parts}) == len(parts):
        while shared + 2 <= shortest and all(
            p[-1 - shared] == parts[0][-1 - shared] for p in parts
        ):
            shared += 1
    rest = joins.union(concat(*p[:-shared]) for p in parts)
    return joins.concat([rest, *parts[0][-shared:]])


def _fold_runs(regex: Regex, joins: Joins) -> Regex:
    """Runs of one factor under different quantifiers become one count: ``xxx*`` → ``x{2,}``.

    Runs of up to three bare literal characters stay as they are (``aa`` reads better than ``a{2}``).
    """
    match regex:
        case Concat(parts):
            folded: list[Regex] = []
            for base, group in itertools.groupby(
                _parts(joins.concat(joins.fold_runs(p) for p in parts)), key=_base
            ):
                run = list(group)
                bare = (
                    all(item == base for item in run)
                    and isinstance(base, Chars)
                    and base.chars.is_single()
                )
                if len(run) == 1 or (bare and len(run) <= 3):
                    folded.extend(run)
                    continue
                low: int = 0
                high: int | None = 0
                for low_i, high_i in map(_bounds, run):
                    low, high = (
                        low + low_i,
                        None if high is None or high_i is None else high + high_i,
                    )
                folded.append(_counted(base, low, high))
            return concat(*_fold_sequences(folded))
        case Union(options):
            return union(*(joins.fold_runs(o) for o in options))
        case Star(inner) | Plus(inner) | Optional(inner):
            return type(regex)(joins.fold_runs(inner))
        case _:
            return regex


def _base(regex: Regex) -> Regex:
    return regex.inner if isinstance(regex, (Star, Plus, Optional, Repeat)) else regex


def _bounds(regex: Regex) -> tuple[int, int | None]:
    match regex:
        case Star():
            return 0, None
        case Plus():
            return 1, None
        case Optional():
            return 0, 1
        case Repeat(_, low, high):
            return low, high
        case _:
            return 1, 1


def _counted(base: Regex, low: int, high: int | None) -> Regex:
    shapes: dict[tuple[int, int | None], Regex] = {
        (0, None): Star(base),
        (1, None): Plus(base),
        (0, 1): Optional(base),
    }
    return shapes.get((low, high), Repeat(base, low, high))


def _fold_sequences(parts: Sequence[Regex]) -> list[Regex]:
    """Runs of one sequence of two or more parts become one count: ``x*y x*y x*y`` → ``(x*y){3}``.

    The longest saving first, left to right; sequences of bare literal characters fold only when
    the run is long (``abab`` reads better than ``(ab){2}``, ``abcabcabc`` worse than ``(abc){3}``).
    """
    out: list[Regex] = []
    where: dict[Regex, list[int]] = {}  # the positions of each part, ascending
    for position, part in enumerate(parts):
        where.setdefault(part, []).append(position)
    i = 0
    while i < len(parts):
        best = (0, 0, 0)  # (parts saved, width, count)
        for j in where[parts[i]]:  # a run of width w repeats parts[i] at i + w
            width = j - i
            if width < 2:
                continue
            if width > (len(parts) - i) // 2:
                break
            count = 1
            while _repeats(parts, i, i + count * width, width):
                count += 1
            if count == 1 or width * (count - 1) <= best[0]:
                continue
            bare = all(isinstance(p, Chars) and p.chars.is_single() for p in parts[i : i + width])
            if not bare or width * count >= 8:
                best = (width * (count - 1), width, count)
        _, width, count = best
        if count:
            out.append(Repeat(concat(*parts[i : i + width]), count, count))
            i += width * count
        else:
            out.append(parts[i])
            i += 1
    return out


def _repeats(parts: Sequence[Regex], start: int, at: int, width: int) -> bool:
    """Whether the ``width`` parts from ``at`` are those from ``start`` again."""
    if at + width > len(parts):
        return False
    return all(parts[start + k] == parts[at + k] for k in range(width))
