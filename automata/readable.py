"""A regex of a DFA the way a person writes it: the shortest of several prints, each checked exactly.

State elimination (:mod:`automata.to_regex`) writes any DFA, but for "contains ``dog``" it writes
a tangle of loops (``[^d]*d((o|…)?d)*og…``) where a person writes ``Σ*dogΣ*``. Here prints are
proposed the way a person builds them, every proposal is compiled back and compared with the
automaton, and the shortest is kept, so a proposal can change how the language is written, never
which language it is:

* every elimination order of :data:`automata.to_regex.ORDERS` (order changes the size a lot);
* *cut states*, which every accepted string passes through: the language is the concatenation of
  the segments between them (``[A-Za-z]{6}`` then ``Σ*dogΣ*``), each written on its own; a segment
  may be written as any language between its strings that reach the next cut for the first time
  and all its strings that reach it (``Σ*(er|let)`` up to the first ``er`` or ``let``);
* *gaps*: a language equal to ``Σ*CΣ*``, ``Σ*C`` or ``CΣ*`` is written through its *core* ``C``,
  its strings with no shorter part (factor, suffix, prefix) in it; the core of "contains ``dog``"
  is ``dog``.

For a regex written with ``&`` and ``~`` (a learner's templates), :func:`pruned` drops what
changes nothing: a conjunct implied by the others (``…&Σ*&[A-Za-z#]*``), an option inside the
others, a part whose language is empty.

Bounded: structure is looked for in minimal DFAs of at most :data:`MAX_STATES` states, to a
nesting of :data:`MAX_DEPTH`, and no construction grows past :data:`STATE_LIMIT` states.
"""

from __future__ import annotations

import functools
import math
import threading
from collections.abc import Callable, Sequence
from typing import cast

import numpy as np

from automata.compile import compile_many, compile_regex
from automata.dfa import DFA, coreachable
from automata.errors import AutomataError, SizeLimitExceeded
from automata.minimize import minimize
from automata.ops import complement, equivalent, is_empty, is_subset
from automata.ops import intersection as intersection_dfa
from automata.ops import union as union_dfa
from automata.to_regex import ORDERS, to_regex, tidy
from regexlang.ast import (
    Chars,
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
from regexlang.dialects import Dialect, unparse
from regexlang.errors import NotExpressible, RegexError
from regexlang.metrics import node_count, text_length
from regexlang.normalize import normalize

#: Prints by elimination this light (or this short in the caller's dialect) are kept without
#: looking for structure (little to gain, and a learner prints many small candidates).
SHORT = 20
#: Structure is looked for only in minimal DFAs this small (a learner prints every candidate).
MAX_STATES = 40
#: How deeply segments and cores are themselves taken apart.
MAX_DEPTH = 2
#: The most cut states tried as split points in one automaton (spread along the cuts).
MAX_CUTS = 8
#: The most states any automaton built to find or check structure may have.
STATE_LIMIT = 2_000


def readable(dfa: DFA, size_limit: int | None = None, dialect: Dialect | None = None) -> Regex:
    """The shortest of the prints proposed for ``dfa`` (module doc), with exactly its language;
    shortest as printed in ``dialect`` when it is given (the simple dialect spells ``r?`` as
    ``(r+epsilon)``), else by :func:`weight`. For the extended dialect, the complement of the
    print of the complement is proposed too (``~(dog|truck|[a-z])``).

    Raises :class:`SizeLimitExceeded` when every elimination order grows an edge past
    ``size_limit`` regex nodes and no structured print was found.
    """
    minimal = minimize(dfa)
    key = (_key(minimal), size_limit, dialect)
    with _LOCK:
        known = _PRINTED.get(key)
    if known is not None:
        return known
    measure = weight if dialect is None else functools.partial(_length, dialect=dialect, universe=dfa.alphabet.universe)
    prints, errors = _eliminations(minimal, size_limit)
    if minimal.n_states <= MAX_STATES and min(map(measure, prints), default=SHORT + 1) > SHORT:
        prints.extend(filter(None, [_Search(size_limit).written(minimal, minimal, MAX_DEPTH)]))
        if dialect == "extended":  # the one dialect that writes ~: "not dog, truck or a letter"
            prints.extend(_complemented(minimal, size_limit))
    if not prints:
        raise errors[0]
    best = min(prints, key=measure)
    with _LOCK:
        if len(_PRINTED) >= _REMEMBERED:
            del _PRINTED[next(iter(_PRINTED))]
        _PRINTED[key] = best
    return best


def _complemented(dfa: DFA, size_limit: int | None) -> list[Regex]:
    """``~r`` for ``r`` the print of the complement of ``dfa``, if it can be printed."""
    try:
        return [Complement(readable(complement(dfa), size_limit))]
    except SizeLimitExceeded:
        return []


#: The prints of the latest automata (a learner prints the same hypothesis epoch after epoch;
#: learners run in threads, hence the lock).
_PRINTED: dict[tuple[object, ...], Regex] = {}
_REMEMBERED = 256
_LOCK = threading.Lock()


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
        plain = readable(compile_regex(regex, universe, state_limit=STATE_LIMIT), size_limit=STATE_LIMIT)
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


def _length(regex: Regex, dialect: Dialect, universe: CharSet) -> float:
    try:
        return text_length(unparse(regex, dialect, universe))
    except NotExpressible:
        return math.inf


def weight(regex: Regex) -> int:
    """About the characters ``regex`` prints to (a class by its ranges, groups where needed);
    cheap, for ranking prints of one language."""
    return _weight(regex)


@functools.lru_cache(maxsize=8192)
def _weight(regex: Regex) -> int:
    match regex:
        case Chars(chars):
            return 1 if chars.is_single() else 2 + sum(min(3, high - low + 1) for low, high in chars.intervals)
        case Concat(parts):
            return sum(_weight(p) + 2 * isinstance(p, Union) for p in parts)
        case Union(options):
            return sum(map(_weight, options)) + len(options) - 1
        case Star(inner) | Plus(inner) | Optional(inner):
            return _weight(inner) + 1 + 2 * isinstance(inner, (Concat, Union))
        case Repeat(inner, low, high):
            return _weight(inner) + 2 * isinstance(inner, (Concat, Union)) + len(str(low)) + len(str(high or "")) + 3
        case _:
            return 1 + sum(map(_weight, children(regex)))


def _eliminations(dfa: DFA, size_limit: int | None) -> tuple[list[Regex], list[SizeLimitExceeded]]:
    """The prints of ``dfa`` by each elimination order; orders after the first stop once an edge
    outgrows twice the first print (they are tried to be shorter, and some orders blow up)."""
    try:
        first = to_regex(dfa, size_limit, ORDERS[0])
    except SizeLimitExceeded as error:
        return [], [error]
    prints = [first]
    bound = max(64, 2 * node_count(first))
    for order in ORDERS[1:]:
        try:
            prints.append(to_regex(dfa, bound if size_limit is None else min(bound, size_limit), order))
        except SizeLimitExceeded:
            pass
    return list(dict.fromkeys(prints)), []


class _Search:
    """One search for structure, remembering what it wrote for each automaton it met."""

    def __init__(self, size_limit: int | None) -> None:
        self.size_limit = size_limit
        self.prints: dict[tuple[object, ...], Regex | None] = {}
        self.proposals: dict[tuple[object, ...], list[Regex]] = {}
        self.eliminated: dict[tuple[object, ...], list[Regex]] = {}

    def written(self, lower: DFA, upper: DFA, depth: int) -> Regex | None:
        """The lightest print found of a language between ``lower`` and ``upper`` (both minimal)."""
        key = (_key(lower), _key(upper), depth)
        if key not in self.prints:
            prints = self.eliminations(lower)
            if depth > 0 and lower.n_states <= MAX_STATES and not is_empty(lower):
                lightest = min(map(weight, prints), default=None)
                prints.extend(self.gaps(lower, upper, depth, lightest))
                if depth > 1:
                    prints.extend(filter(None, [self.segmented(lower, upper, depth)]))
            self.prints[key] = min(prints, key=weight, default=None)
        return self.prints[key]

    def gaps(self, lower: DFA, upper: DFA, depth: int, lighter_than: int | None) -> list[Regex]:
        """The lightest form through a core of ``lower`` (``Σ*CΣ*``, ``Σ*C``, ``CΣ*``, ``C*``) that
        is lighter than ``lighter_than`` and lies between ``lower`` and ``upper``, if any."""
        closed = _closed(lower)
        kinds = [kind for kind, needs in _NEEDS.items() if needs <= closed]
        for regex in self.gap_proposals(lower, depth, kinds):
            if lighter_than is not None and weight(regex) >= lighter_than:
                break
            if _within(regex, lower, upper):
                return [regex]
        return []

    def gap_proposals(self, lower: DFA, depth: int, kinds: Sequence[str]) -> list[Regex]:
        """The gap forms of the ``kinds`` of cores of ``lower``, unchecked, lightest first."""
        key = (_key(lower), depth, tuple(kinds))
        if key not in self.proposals:
            sigma = Star(Chars(lower.alphabet.universe))
            proposals = []
            for kind in kinds:
                core = _core(lower, kind)
                if core is None or is_empty(core) or equivalent(core, lower):
                    continue
                inner = self.written(core, core, depth - 1)
                if inner is not None and kind == "prime":
                    proposals.append(tidy(Star(inner) if lower.accepting[lower.start] else Plus(inner)))
                elif inner is not None:
                    parts = {"factor": (sigma, inner, sigma), "suffix": (sigma, inner), "prefix": (inner, sigma)}[kind]
                    proposals.append(tidy(concat(*parts)))
            self.proposals[key] = sorted(proposals, key=weight)
        return self.proposals[key]

    def segmented(self, lower: DFA, upper: DFA, depth: int) -> Regex | None:
        """The lightest print of ``lower`` split at one of its cut states (``None`` without cuts): the
        strings up to the cut, widened to a gap form where the whole stays between ``lower`` and
        ``upper``, then the language from the cut."""
        best: Regex | None = None
        for cut in _spread(_cuts(lower), MAX_CUTS):
            first, reach, tail = _split(lower, cut)
            head, rest = self.written(first, reach, depth - 1), self.written(tail, tail, depth - 1)
            if head is None or rest is None:
                continue
            whole = tidy(concat(head, rest))  # first ⊆ head ⊆ reach, so exactly lower
            for proposal in self.gap_proposals(first, depth - 1, ("suffix",)):
                if weight(proposal) >= weight(head):
                    break
                trial = tidy(concat(proposal, rest))
                if _within(trial, lower, upper):
                    whole = trial
                    break
            if best is None or weight(whole) < weight(best):
                best = whole
        return best

    def eliminations(self, dfa: DFA) -> list[Regex]:
        """The print of ``dfa`` by the first elimination order (the parts of a structured print
        are small, so orders matter less there than their count), once per automaton."""
        key = _key(dfa)
        if key not in self.eliminated:
            try:
                self.eliminated[key] = [to_regex(dfa, self.size_limit)]
            except SizeLimitExceeded:
                self.eliminated[key] = []
        return list(self.eliminated[key])


#: Which closures a form needs: ``Σ*CΣ*`` a language closed under adding characters on both
#: sides, ``Σ*C`` on the left, ``CΣ*`` on the right, ``C*`` (or ``C+``) under concatenation.
_NEEDS = {"factor": {"left", "right"}, "suffix": {"left"}, "prefix": {"right"}, "prime": {"concatenation"}}


def _closed(dfa: DFA) -> set[str]:
    """The ways ``dfa``'s language (minimal) is closed: on the right (adding characters after a
    string keeps it in: accepting states lead only to accepting states), on the left (every
    reachable state accepts all that the start accepts) and under concatenation (every reachable
    accepting state does)."""
    rows, accepting = dfa.transitions, dfa.accepting
    closed = set()
    if accepting[rows[accepting]].all():
        closed.add("right")
    live = coreachable(dfa)
    reachable = _distances(rows.tolist(), dfa.start, avoid=None)

    @functools.cache
    def covers(state: int) -> bool:
        return state == dfa.start or is_subset(dfa, DFA(rows, accepting, state, dfa.alphabet), state_limit=STATE_LIMIT)

    if all(not accepting[q] or covers(q) for q in reachable):
        closed.add("concatenation")
    if all(live[q] for q in reachable) and all(covers(q) for q in reachable):
        closed.add("left")
    return closed


def _key(dfa: DFA) -> tuple[object, ...]:
    return dfa.transitions.tobytes(), dfa.transitions.shape, dfa.accepting.tobytes(), dfa.start, dfa.alphabet


def _within(regex: Regex, lower: DFA, upper: DFA) -> bool:
    """Whether the language of ``regex`` lies between those of ``lower`` and ``upper``."""
    try:
        written = compile_regex(regex, lower.alphabet.universe, state_limit=STATE_LIMIT)
        return is_subset(lower, written, state_limit=STATE_LIMIT) and is_subset(written, upper, state_limit=STATE_LIMIT)
    except (AutomataError, RegexError):
        return False


def _core(dfa: DFA, kind: str) -> DFA | None:
    """The strings of ``dfa`` with no proper ``kind`` (factor, suffix or prefix) in its language,
    or for ``"prime"`` its non-empty strings that are no concatenation of two non-empty ones in
    it; ``None`` past :data:`STATE_LIMIT` states.

    Built by a subset construction that runs, beside ``dfa`` itself, a flag saying whether a proper
    prefix was accepted and the set of states of the runs started after the first character (the
    proper suffixes); states that cannot accept are left out of that set.
    """
    rows = dfa.transitions.tolist()
    accepting = dfa.accepting.tolist()
    live = coreachable(dfa).tolist()
    prefixes, suffixes = kind in ("factor", "prefix"), kind in ("factor", "suffix")
    Key = tuple[int, bool, frozenset[int]]

    def step(key: Key, cls: int) -> Key:
        state, flag, runs = key
        moved = frozenset(t for t in (rows[r][cls] for r in runs) if live[t])
        return rows[state][cls], flag or (prefixes and accepting[state]), moved | {dfa.start} if suffixes else moved

    def accepts(key: Key) -> bool:
        state, flag, runs = key
        return accepting[state] and not flag and not any(accepting[r] for r in runs)

    if kind == "prime":
        return _primes(dfa)
    return _explore((dfa.start, False, frozenset()), step, accepts, dfa)


def _primes(dfa: DFA) -> DFA | None:
    """The non-empty strings of ``dfa`` that are no concatenation of two non-empty strings of it:
    beside ``dfa`` run the second halves, one started after each non-empty accepted prefix."""
    rows = dfa.transitions.tolist()
    accepting = dfa.accepting.tolist()
    live = coreachable(dfa).tolist()
    Key = tuple[int, bool, frozenset[int]]

    def step(key: Key, cls: int) -> Key:
        state, started, halves = key
        moved = {rows[r][cls] for r in halves}
        if started and accepting[state]:
            moved.add(rows[dfa.start][cls])
        return rows[state][cls], True, frozenset(t for t in moved if live[t])

    def accepts(key: Key) -> bool:
        state, started, halves = key
        return accepting[state] and started and not any(accepting[r] for r in halves)

    return _explore((dfa.start, False, frozenset()), step, accepts, dfa)


def _explore(start: object, step: Callable[..., object], accepts: Callable[..., bool], like: DFA) -> DFA | None:
    """The minimal DFA over ``like``'s alphabet of the deterministic machine ``start``/``step``/``accepts``."""
    index = {start: 0}
    order = [start]
    rows: list[list[int]] = []
    n_classes = len(like.alphabet)
    for key in order:
        row = []
        for cls in range(n_classes):
            target = step(key, cls)
            if target not in index:
                if len(index) >= STATE_LIMIT:
                    return None
                index[target] = len(order)
                order.append(target)
            row.append(index[target])
        rows.append(row)
    transitions = np.array(rows, dtype=np.int32).reshape(len(rows), n_classes)
    accepting = np.array([accepts(key) for key in order], dtype=np.bool_)
    return minimize(DFA(transitions, accepting, 0, like.alphabet))


def _spread(items: Sequence[int], most: int) -> list[int]:
    """At most ``most`` of ``items``, evenly spread, the first and the last kept."""
    if len(items) <= most:
        return list(items)
    return [items[round(i * (len(items) - 1) / (most - 1))] for i in range(most)]


def _split(dfa: DFA, cut: int) -> tuple[DFA, DFA, DFA]:
    """For a cut state: the strings reaching it the first time, all strings reaching it, and the
    language from it."""
    first = _retargeted(dfa, dfa.start, cut, first=True)
    return first, _retargeted(dfa, dfa.start, cut, first=False), _retargeted(dfa, cut, None, first=False)


def _cuts(dfa: DFA) -> list[int]:
    """The states other than the start that every accepted string passes through, by distance from the start."""
    rows = dfa.transitions.tolist()
    accepting = dfa.accepting.tolist()
    live = coreachable(dfa).tolist()
    distance = _distances(rows, dfa.start, avoid=None)
    cuts = []
    for state in sorted((s for s in distance if live[s] and s != dfa.start), key=lambda s: (distance[s], s)):
        if not any(accepting[s] for s in _distances(rows, dfa.start, avoid=state)):
            cuts.append(state)
    return cuts


def _distances(rows: Sequence[Sequence[int]], start: int, avoid: int | None) -> dict[int, int]:
    """Breadth-first distances from ``start`` to the states reachable without passing ``avoid``."""
    distance = {start: 0}
    frontier = [start]
    while frontier:
        following = []
        for state in frontier:
            for target in set(rows[state]):
                if target != avoid and target not in distance:
                    distance[target] = distance[state] + 1
                    following.append(target)
        frontier = following
    return distance


def _retargeted(dfa: DFA, start: int, end: int | None, first: bool) -> DFA:
    """``dfa`` started at ``start`` and accepting at ``end`` only (its own accepting states when
    ``end`` is None); with ``first``, ``end`` is a trap, so only strings reaching it the first time count."""
    transitions = dfa.transitions.copy()
    accepting = dfa.accepting.copy()
    if end is not None:
        accepting[:] = False
        accepting[end] = True
        if first:
            trap = np.full((1, transitions.shape[1]), transitions.shape[0], dtype=transitions.dtype)
            transitions = np.vstack([transitions, trap])
            accepting = np.append(accepting, False)
            transitions[end, :] = transitions.shape[0] - 1
    return minimize(DFA(transitions, accepting, start, dfa.alphabet))

