"""A regex of a DFA the way a person writes it: the shortest of several prints, each checked exactly.

State elimination (:mod:`automata.printing.to_regex`) writes any DFA, but for "contains ``dog``" it writes
a tangle of loops (``[^d]*d((o|…)?d)*og…``) where a person writes ``Σ*dogΣ*``. Here prints are
proposed the way a person builds them, every proposal is compiled back and compared with the
automaton, and the shortest is kept, so a proposal can change how the language is written, never
which language it is:

* every elimination order of :data:`automata.printing.to_regex.ORDERS` (order changes the size a lot);
* *cut states*, which every accepted string passes through: the language is the concatenation of
  the segments between them (``[A-Za-z]{6}`` then ``Σ*dogΣ*``), each written on its own; a segment
  may be written as any language between its strings that reach the next cut for the first time
  and all its strings that reach it (``Σ*(er|let)`` up to the first ``er`` or ``let``);
* *gaps*: a language equal to ``Σ*CΣ*``, ``Σ*C`` or ``CΣ*`` is written through its *core* ``C``,
  its strings with no shorter part (factor, suffix, prefix) in it; the core of "contains ``dog``"
  is ``dog``;

* *stars of primes*: a language closed under concatenation is ``P*`` (``P+`` without ``ε``), ``P``
  its non-empty strings that are no concatenation of two non-empty ones in it;
* for the extended dialect, ``~r`` with ``r`` the print of the complement (``~(dog|truck|[a-z])``);
* *counted classes*: a language that ends in ``C{m,n}`` (``C{m,}``, ``(C{m,n})?``) is its rest
  followed by that factor, the rest written the same way or by elimination
  (``[a-z]{1,4}[A-Za-z]{2}[a-z]{1,4}``, whose minimal DFA has no cut state); the factors and the
  range the rest may lie in are found on the automaton by :mod:`automata.printing.counted`;
* *branches*: when no string returns to the start state, the language is the union of its strings
  by the part of the automaton their first character leads into, each written on its own
  (``c*+((b+epsilon) a)*``, where elimination writes ``a* (b (a a* b)* a a*+epsilon)+c c*``).

The last two are used inside other prints only for dialects that write counts and ``?`` (the simple
dialect spells them out, and :func:`weight` would misjudge them there); for the whole print every
form is a candidate, measured in the caller's dialect.

The languages these forms are built from (cores, primes, segments at cuts) are constructed in
:mod:`automata.printing.structure`; :mod:`automata.printing.pruning` simplifies regexes written with ``&`` and ``~``.

Bounded: structure is looked for in minimal DFAs of at most :data:`MAX_STATES` states, to a
nesting of :data:`MAX_DEPTH`, and no construction grows past :data:`STATE_LIMIT` states; at most
:data:`MAX_PEELS` counted factors are peeled in one print; parts are eliminated only while they stay
within twice the size of the whole's elimination print (a larger part cannot make a lighter print).
"""

from __future__ import annotations

import functools
import itertools
import math
import threading
from collections.abc import Sequence

import numpy as np

from automata.algebra.ops import complement, equivalent, is_empty, is_subset
from automata.building.compile import compile_regex
from automata.core.dfa import DFA
from automata.core.minimize import minimize
from automata.errors import AutomataError, SizeLimitExceeded
from automata.printing.counted import Peel, peels
from automata.printing.structure import NEEDS, STATE_LIMIT, branches, closures, core, cuts, split
from automata.printing.to_regex import ORDERS, Eliminations, Joins, tidy, to_regex
from regexlang.ast import (
    Chars,
    Complement,
    Concat,
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
from regexlang.dialects import Dialect
from regexlang.errors import NotExpressible, RegexError
from regexlang.metrics import node_count, regex_length

#: Prints by elimination this light (or this short in the caller's dialect) are kept without
#: looking for structure (little to gain, and a learner prints many small candidates).
SHORT = 20
#: Structure is looked for only in minimal DFAs this small (a learner prints every candidate).
MAX_STATES = 40
#: How deeply segments and cores are themselves taken apart.
MAX_DEPTH = 2
#: The most cut states tried as split points in one automaton (spread along the cuts).
MAX_CUTS = 8
#: Orders after the first stop once an edge outgrows this many times the smallest print so far.
BOUND_SLACK = 2
#: The most last factors tried for one language, and in all for one print (:mod:`automata.printing.counted`).
PEELS_EACH, MAX_PEELS = 2, 24


def readable(dfa: DFA, size_limit: int | None = None, dialect: Dialect | None = None) -> Regex:
    """The shortest of the prints proposed for ``dfa`` (module doc), with exactly its language;
    shortest as printed in ``dialect`` when it is given (the simple dialect spells ``r?`` as
    ``(r+epsilon)``), else by :func:`weight`. For the extended dialect, the complement of the
    print of the complement is proposed too (``~(dog|truck|[a-z])``).

    Raises :class:`SizeLimitExceeded` when every elimination order grows an edge past
    ``size_limit`` regex nodes and no structured print was found.
    """
    return _printed(minimize(dfa), size_limit, dialect, peel=True)


def draft(dfa: DFA, size_limit: int | None = None, dialect: Dialect | None = None) -> Regex:
    """A quick print of ``dfa``, with exactly its language: its minimal automaton by the first
    elimination order (:func:`automata.printing.to_regex.to_regex`), or :func:`readable` when that grows an
    edge past ``size_limit``. For a learner's hypotheses of every epoch, of which only a run's last
    one is read (the loop prints that one readably, :func:`cegis.hypothesis.presented`)."""
    try:
        return to_regex(minimize(dfa), size_limit)
    except SizeLimitExceeded:
        return readable(dfa, size_limit, dialect)


def _printed(minimal: DFA, size_limit: int | None, dialect: Dialect | None, peel: bool) -> Regex:
    """:func:`readable` of a minimal DFA; counted classes are peeled off (:mod:`automata.printing.counted`)
    only with ``peel``."""
    key = (key_of(minimal), size_limit, dialect, peel)
    with _LOCK:
        known = _PRINTED.get(key)
    if known is not None:
        return known
    measure = (
        weight
        if dialect is None
        else functools.partial(_length, dialect=dialect, universe=minimal.alphabet.universe)
    )
    joins = Joins()  # the memory of this print, shared by its eliminations and its search
    prints, errors = _eliminations(minimal, size_limit, joins)
    if minimal.n_states <= MAX_STATES and min(map(measure, prints), default=SHORT + 1) > SHORT:
        # parts printed longer than twice the whole cannot make a lighter print
        bound = 2 * min(map(node_count, prints)) if prints else size_limit
        limit = bound if size_limit is None or bound is None else min(size_limit, bound)
        # the simple dialect spells counts and ? out, so weight misjudges parts written with them
        prints.extend(
            _Search(limit, peel, dialect != "simple", joins).candidates(minimal, minimal, MAX_DEPTH)
        )
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
        return [Complement(_printed(minimize(complement(dfa)), size_limit, None, peel=False))]
    except SizeLimitExceeded:
        return []


#: The prints of the latest automata (a learner prints the same hypothesis epoch after epoch;
#: learners run in threads, hence the lock).
_PRINTED: dict[tuple[object, ...], Regex] = {}
_REMEMBERED = 256
_LOCK = threading.Lock()


@functools.lru_cache(
    maxsize=4096
)  # a learner's prints repeat, and the simple dialect's printer is slow
def _length(regex: Regex, dialect: Dialect, universe: CharSet) -> float:
    try:
        return regex_length(regex, dialect, universe)
    except NotExpressible:
        return math.inf


@functools.lru_cache(maxsize=8192)
def weight(regex: Regex) -> int:
    """About the characters ``regex`` prints to (a class by its ranges, groups where needed);
    cheap, for ranking prints of one language."""
    match regex:
        case Chars(chars):
            return (
                1
                if chars.is_single()
                else 2 + sum(min(3, high - low + 1) for low, high in chars.intervals)
            )
        case Concat(parts):
            return sum(weight(p) + 2 * isinstance(p, Union) for p in parts)
        case Union(options):
            return sum(map(weight, options)) + len(options) - 1
        case Star(inner) | Plus(inner) | Optional(inner):
            return weight(inner) + 1 + 2 * isinstance(inner, (Concat, Union))
        case Repeat(inner, low, high):
            return (
                weight(inner)
                + 2 * isinstance(inner, (Concat, Union))
                + len(str(low))
                + len(str(high or ""))
                + 3
            )
        case _:
            return 1 + sum(map(weight, children(regex)))


def _eliminations(
    dfa: DFA, size_limit: int | None, joins: Joins
) -> tuple[list[Regex], list[SizeLimitExceeded]]:
    """The prints of ``dfa`` by each elimination order; orders after the first stop once an edge
    outgrows the smallest print so far (they are tried to be shorter, and some orders blow up)."""
    orders = Eliminations(dfa, joins=joins)
    try:
        first = orders.regex(ORDERS[0], size_limit)
    except SizeLimitExceeded as error:
        return [], [error]
    prints = [first]
    for order in ORDERS[1:]:
        bound = max(64, BOUND_SLACK * min(map(node_count, prints)))
        try:
            prints.append(
                orders.regex(order, bound if size_limit is None else min(bound, size_limit))
            )
        except SizeLimitExceeded:
            pass
    return list(dict.fromkeys(prints)), []


class _Search:
    """One search for structure, remembering what it wrote for each automaton it met."""

    def __init__(self, size_limit: int | None, peel: bool, nested: bool, joins: Joins) -> None:
        self.joins = joins
        self.size_limit = size_limit
        self.peel = peel  # counted classes are looked for at all
        self.nested = nested  # counted classes and branches inside other prints too
        self.prints: dict[tuple[object, ...], Regex | None] = {}
        self.proposals: dict[tuple[object, ...], list[Regex]] = {}
        self.eliminated: dict[tuple[object, ...], list[Regex]] = {}
        self.chains: dict[tuple[object, ...], Regex | None] = {}
        self.peeled = 0

    def written(self, lower: DFA, upper: DFA, depth: int) -> Regex | None:
        """The lightest print found of a language between ``lower`` and ``upper`` (both minimal)."""
        key = (key_of(lower), key_of(upper), depth)
        if key not in self.prints:
            self.prints[key] = min(self.candidates(lower, upper, depth), key=weight, default=None)
        return self.prints[key]

    def candidates(self, lower: DFA, upper: DFA, depth: int) -> list[Regex]:
        """The prints found of a language between ``lower`` and ``upper``: by elimination, through
        a core, split at a cut, with counted classes peeled off the end."""
        prints = self.eliminations(lower)
        if depth > 0 and lower.n_states <= MAX_STATES and not is_empty(lower):
            lightest = min(map(weight, prints), default=None)
            prints.extend(self.gaps(lower, upper, depth, lightest))
            if depth > 1:
                prints.extend(filter(None, [self.segmented(lower, upper, depth)]))
            whole = (
                depth == MAX_DEPTH
            )  # the whole print's forms are checked even when heavier: a dialect may print them shorter
            branched = self.branched(lower, depth) if whole or self.nested else None
            if (
                branched is not None
                and (whole or weight(branched) < min(map(weight, prints), default=math.inf))
                and _within(branched, lower, upper)
            ):
                prints.append(branched)
            best: float = min(map(weight, prints), default=math.inf)
            if self.peel and (
                whole or (self.nested and best > SHORT)
            ):  # short parts: little to gain
                chain = self.counted(lower, upper)
                if (
                    chain is not None
                    and (whole or weight(chain) < best)
                    and _within(chain, lower, upper)
                ):
                    prints.append(chain)
        return prints

    def gaps(self, lower: DFA, upper: DFA, depth: int, lighter_than: int | None) -> list[Regex]:
        """The lightest form through a core of ``lower`` (``Σ*CΣ*``, ``Σ*C``, ``CΣ*``, ``C*``) that
        is lighter than ``lighter_than`` and lies between ``lower`` and ``upper``, if any."""
        closed = closures(lower)
        kinds = [kind for kind, needs in NEEDS.items() if needs <= closed]
        for regex in self.gap_proposals(lower, depth, kinds):
            if lighter_than is not None and weight(regex) >= lighter_than:
                break
            if _within(regex, lower, upper):
                return [regex]
        return []

    def gap_proposals(self, lower: DFA, depth: int, kinds: Sequence[str]) -> list[Regex]:
        """The gap forms of the ``kinds`` of cores of ``lower``, unchecked, lightest first."""
        key = (key_of(lower), depth, tuple(kinds))
        if key not in self.proposals:
            sigma = Star(Chars(lower.alphabet.universe))
            proposals = []
            for kind in kinds:
                found = core(lower, kind)
                if found is None or is_empty(found) or equivalent(found, lower):
                    continue
                inner = self.written(found, found, depth - 1)
                if inner is not None and kind == "prime":
                    proposals.append(
                        tidy(
                            Star(inner) if lower.accepting[lower.start] else Plus(inner), self.joins
                        )
                    )
                elif inner is not None:
                    parts = {
                        "factor": (sigma, inner, sigma),
                        "suffix": (sigma, inner),
                        "prefix": (inner, sigma),
                    }[kind]
                    proposals.append(tidy(concat(*parts), self.joins))
            self.proposals[key] = sorted(proposals, key=weight)
        return self.proposals[key]

    def branched(self, lower: DFA, depth: int) -> Regex | None:
        """``lower`` as the union of its branches by first character (``c*+(a+b a)*``), each
        written on its own; ``None`` without branches (:func:`automata.printing.structure.branches`)."""
        parts = [self.written(branch, branch, depth - 1) for branch in branches(lower)]
        return tidy(union(*parts), self.joins) if parts and None not in parts else None  # type: ignore[arg-type]

    def segmented(self, lower: DFA, upper: DFA, depth: int) -> Regex | None:
        """The lightest print of ``lower`` split at one of its cut states (``None`` without cuts): the
        strings up to the cut, widened to a gap form where the whole stays between ``lower`` and
        ``upper``, then the language from the cut."""
        best: Regex | None = None
        for cut in _spread(cuts(lower), MAX_CUTS):
            first, reach, tail = split(lower, cut)
            head, rest = self.written(first, reach, depth - 1), self.written(tail, tail, depth - 1)
            if head is None or rest is None:
                continue
            whole = tidy(concat(head, rest), self.joins)  # first ⊆ head ⊆ reach, so exactly lower
            for proposal in self.gap_proposals(first, depth - 1, ("suffix",)):
                if weight(proposal) >= weight(head):
                    break
                trial = tidy(concat(proposal, rest), self.joins)
                if _within(trial, lower, upper):
                    whole = trial
                    break
            if best is None or weight(whole) < weight(best):
                best = whole
        return best

    def counted(self, lower: DFA, upper: DFA) -> Regex | None:
        """The lightest print found of a language between ``lower`` and ``upper`` as a rest followed
        by a counted class (:func:`automata.printing.counted.peels`), the rest written the same way or by
        elimination; ``None`` when no counted class ends it."""
        key = (key_of(lower), key_of(upper))
        if key in self.chains:
            return self.chains[key]
        self.chains[key] = None  # while peeling: a rest that comes back here is no progress
        best: Regex | None = None
        for peel in itertools.islice(peels(lower, upper), PEELS_EACH):
            if self.peeled >= MAX_PEELS:
                break
            self.peeled += 1
            if _only_empty(peel.lower) and peel.upper.accepting[peel.upper.start]:
                rest: Regex | None = Epsilon()
            else:
                chained = self.counted(peel.lower, peel.upper)
                rests = [
                    *self.eliminations(peel.lower),
                    *self.eliminations(peel.upper),
                    *([chained] if chained else []),
                ]
                rest = min(rests, key=weight, default=None)
            if rest is not None:
                whole = tidy(concat(rest, _factor(peel)), self.joins)
                if best is None or weight(whole) < weight(best):
                    best = whole
        self.chains[key] = best
        return best

    def eliminations(self, dfa: DFA) -> list[Regex]:
        """The print of ``dfa`` by the first elimination order (the parts of a structured print
        are small, so orders matter less there than their count), once per automaton; none for a
        part of more than :data:`MAX_STATES` states (cores and segments of a small automaton can
        have hundreds, whose elimination took seconds of a learner's epoch and never gave a
        shorter print: the same prints on every benchmark target and 216 learner proposals)."""
        key = key_of(dfa)
        if key not in self.eliminated:
            try:
                self.eliminated[key] = (
                    [to_regex(dfa, self.size_limit, joins=self.joins)]
                    if dfa.n_states <= MAX_STATES
                    else []
                )
            except SizeLimitExceeded:
                self.eliminated[key] = []
        return list(self.eliminated[key])


def key_of(dfa: DFA) -> tuple[object, ...]:
    """A hashable key equal for equal tables (minimal DFAs of one language over one alphabet)."""
    return (
        dfa.transitions.tobytes(),
        dfa.transitions.shape,
        dfa.accepting.tobytes(),
        dfa.start,
        dfa.alphabet,
    )


def _factor(peel: Peel) -> Regex:
    """The counted class a peel takes off: ``C{m,n}``, or ``(C{m,n})?`` (``C{0,n}`` from 1)."""
    counted = Repeat(Chars(peel.chars), peel.low, peel.high)
    if peel.optional:
        return Repeat(Chars(peel.chars), 0, peel.high) if peel.low == 1 else Optional(counted)
    return counted


def _only_empty(dfa: DFA) -> bool:
    """Whether ``dfa`` accepts no string but perhaps the empty one."""
    rows = dfa.transitions
    reached = np.zeros(dfa.n_states, dtype=np.bool_)
    frontier = np.zeros(dfa.n_states, dtype=np.bool_)
    frontier[rows[dfa.start]] = True
    while frontier.any():
        reached |= frontier
        following = np.zeros(dfa.n_states, dtype=np.bool_)
        following[rows[frontier].ravel()] = True
        frontier = following & ~reached
    return not (dfa.accepting & reached).any()


def _within(regex: Regex, lower: DFA, upper: DFA) -> bool:
    """Whether the language of ``regex`` lies between those of ``lower`` and ``upper``."""
    try:
        written = compile_regex(regex, lower.alphabet.universe, state_limit=STATE_LIMIT)
        return is_subset(lower, written, state_limit=STATE_LIMIT) and is_subset(
            written, upper, state_limit=STATE_LIMIT
        )
    except (AutomataError, RegexError):
        return False


def _spread(items: Sequence[int], most: int) -> list[int]:
    """At most ``most`` of ``items``, evenly spread, the first and the last kept."""
    if len(items) <= most:
        return list(items)
    return [items[round(i * (len(items) - 1) / (most - 1))] for i in range(most)]
