"""Regexes with lookarounds → minimal DFA, by derivatives that turn a lookahead into an intersection.

A lookahead only constrains the text after its position, and the text after a position is exactly
what the residual of a Brzozowski derivative describes. So, at the head of a residual, ``(?=R)``
followed by the rest ``K`` of the regex is ``R·Σ* ∩ K`` and ``(?!R) K`` is ``¬(R·Σ*) ∩ K``: residuals
are Boolean regular expressions, and lookaheads become ordinary intersections and complements the
moment the derivative reaches them. This is the derivative construction for regular expressions
with lookahead of Miyazaki & Minamide (2019, "Derivatives of regular expressions with lookahead",
JIP 27); Morihata (2012) and Berglund, van der Merwe & van Litsenborgh (2021) give the same
languages through Boolean (alternating) automata.

The rest ``K`` must be the *whole* rest of the text's regex, which is not a subtree when the
lookahead sits in a group under a star (``(a(?=b)|c)*d``). The derivative is therefore computed in
continuation-passing style: ``step(e, k, a)`` is the derivative of ``e·k`` by class ``a``, with ``k``
everything that follows ``e``. An ε-loop (a star whose body can match ε) re-entering itself with
the same continuation contributes nothing new, since a zero-width detour only adds conditions, so
the re-entry yields ∅ (the least fixed point).

Lookbehinds (of fixed width, Python's rule) look at the text read so far: a DFA state pairs the
residual with a *context*, the last ``H`` classes read and whether more came before them, ``H``
being the farthest any lookbehind reaches back (nested ones included) plus one for an anchor at
its start. At a lookbehind of width ``w``, its body followed by ``Σ*`` is derived over the last
``w`` classes from the context ``w`` characters back; what is left is a condition on the text still
to come (``Σ*`` when the body matched, unless a lookahead in it looks past the position), and it is
intersected with the rest like a lookahead. Assertions (``\\b``, ``^``, ``\\Z``, ``(?m:$)`` …) are
decided from the context and the class being read, or the end of the text, by the same
:func:`automata.building.assertions.verdict` the Thompson path uses; ``$`` also holds before a final newline,
so it is the lookahead ``(?=\\Z|\\n\\Z)``. Inside a lookaround, anchors and nested lookarounds thus see
the whole text, as in ``re``.

Finite: residuals are kept modulo associativity, commutativity and idempotence of ``|`` and ``&``
(frozensets), which leaves finitely many derivatives (Brzozowski 1964), and contexts are finite.
The states are explored breadth first up to ``state_limit`` (``StateLimitExceeded`` past it) and
the table is handed to the ordinary minimizer. Pure Python: lookaround regexes are rare and small.
A residual is mostly an intersection of conditions shared with other residuals (thirty lookaheads
make 2³⁰ intersections of thirty-one conditions), so derivatives are memoized per residual and
class: each condition is derived once per class, not once per state it appears in.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import attrs
import numpy as np

from automata.building import assertions
from automata.building.deadline import Deadline
from automata.core.alphabet import Alphabet
from automata.core.dfa import DFA
from automata.core.minimize import minimize
from automata.errors import StateLimitExceeded, UnsupportedRegex
from regexlang import ast as A
from regexlang.charset import CharSet
from regexlang.widths import width


@attrs.frozen(cache_hash=True)
class _Read:
    classes: int  # a bit per class


@attrs.frozen(cache_hash=True)
class _Cat:
    parts: tuple[Expr, ...]


@attrs.frozen(cache_hash=True)
class _Or:
    members: frozenset[Expr]


@attrs.frozen(cache_hash=True)
class _And:
    members: frozenset[Expr]


@attrs.frozen(cache_hash=True)
class _Not:
    inner: Expr


@attrs.frozen(cache_hash=True)
class _Rep:
    inner: Expr
    low: int
    high: int  # -1: unbounded


@attrs.frozen(cache_hash=True)
class _Test:
    code: int  # an assertion, by automata.building.assertions.CODE


@attrs.frozen(cache_hash=True)
class _Look:
    inner: Expr
    behind: bool
    negative: bool
    width: int


Expr = _Read | _Cat | _Or | _And | _Not | _Rep | _Test | _Look
#: The context at a position: the last classes read (at most H) and whether more were read before.
Context = tuple[tuple[int, ...], bool]

_EMPTY: Expr = _Or(frozenset())
_EPS: Expr = _Cat(())
_TOP: Expr = _Not(_EMPTY)  # Σ*: every rest of the text


def has_lookaround(regex: A.Regex) -> bool:
    """Whether ``regex`` holds a lookaround (then :func:`compile_lookarounds` compiles it)."""
    return any(type(node) is A.Lookaround for node in A.subtrees(regex))


def compile_lookarounds(
    regex: A.Regex,
    alphabet: Alphabet,
    members: Mapping[CharSet, tuple[int, ...]],
    state_limit: int,
    deadline: Deadline | None = None,
) -> DFA:
    """The minimal DFA of ``regex`` (lookarounds, assertions, ``&`` and ``~`` allowed) over
    ``alphabet``; ``members`` maps each character set of the regex to its classes. Raises
    ``StateLimitExceeded`` past ``state_limit`` states and ``TimeLimitExceeded`` past ``deadline``,
    whichever comes first."""
    try:
        return _explore(regex, alphabet, members, state_limit, deadline)
    except RecursionError:  # e.g. a long count of a body that can match ε: (?:a?){2000}
        raise UnsupportedRegex(
            "this regex with lookarounds nests or counts too deeply to be compiled"
        ) from None


def _explore(
    regex: A.Regex,
    alphabet: Alphabet,
    members: Mapping[CharSet, tuple[int, ...]],
    state_limit: int,
    deadline: Deadline | None,
) -> DFA:
    newline = alphabet.class_of("\n")
    root = _Converter(members, 1 << newline if newline >= 0 else 0).convert(regex)
    derive = _Deriver(alphabet, _history(root))
    dead: tuple[Expr, Context] = (_EMPTY, ((), True))
    start = (root, derive.context_for(root, ((), False)))
    index = {start: 0}
    order = [start]
    rows: list[list[int]] = []
    accepting: list[bool] = []
    while len(rows) < len(order):
        residual, context = order[len(rows)]
        accepting.append(derive.nullable(residual, _EPS, context))
        row = []
        for cls in range(len(alphabet)):
            if deadline is not None:  # one derivative of a long residual can take a second
                deadline.check("the DFA of this regex with lookarounds")
            after = derive.derive(residual, context, cls)
            target = (
                dead
                if after == _EMPTY
                else (after, derive.context_for(after, derive.push(context, cls)))
            )
            number = index.get(target)
            if number is None:
                if len(order) >= state_limit:
                    raise StateLimitExceeded("the DFA of this regex with lookarounds", state_limit)
                number = index[target] = len(order)
                order.append(target)
            row.append(number)
        rows.append(row)
    return minimize(
        DFA(np.array(rows, dtype=np.int32), np.array(accepting, dtype=np.bool_), 0, alphabet)
    )


def _cat(*parts: Expr) -> Expr:
    flat: list[Expr] = []
    for part in parts:
        if part == _EMPTY:
            return _EMPTY
        if type(part) is _Cat:
            flat.extend(part.parts)
        else:
            flat.append(part)
    return flat[0] if len(flat) == 1 else _Cat(tuple(flat))


def _or(options: Iterable[Expr]) -> Expr:
    return _boolean(_Or, options, absorbing=_TOP, neutral=_EMPTY)


def _and(parts: Iterable[Expr]) -> Expr:
    return _boolean(_And, parts, absorbing=_EMPTY, neutral=_TOP)


def _boolean(
    kind: type[_Or] | type[_And], items: Iterable[Expr], absorbing: Expr, neutral: Expr
) -> Expr:
    """``items`` joined by ``|`` or ``&``: flat, as a set, without the neutral element."""
    flat: set[Expr] = set()
    for item in items:
        if item == absorbing:
            return absorbing
        if isinstance(item, kind):
            flat |= item.members
        elif item != neutral:
            flat.add(item)
    if not flat:
        return neutral
    return next(iter(flat)) if len(flat) == 1 else kind(frozenset(flat))


def _not(inner: Expr) -> Expr:
    return inner.inner if type(inner) is _Not else _Not(inner)


def _rep(inner: Expr, low: int, high: int) -> Expr:
    if high == 0 or inner == _EPS:
        return _EPS
    if inner == _EMPTY:
        return _EPS if low == 0 else _EMPTY
    if low == high == 1:
        return inner
    return _Rep(inner, low, high)


def _children(expr: Expr) -> Iterable[Expr]:
    if isinstance(expr, _Cat):
        return expr.parts
    if isinstance(expr, (_Or, _And)):
        return expr.members
    if isinstance(expr, (_Not, _Rep, _Look)):
        return (expr.inner,)
    return ()


def _history(expr: Expr) -> int:
    """``H``: how many classes a context keeps (0 when nothing looks back)."""

    def reach(node: Expr) -> tuple[int, bool]:
        deepest, looks_back = 0, type(node) is _Test or (type(node) is _Look and node.behind)
        for child in _children(node):
            child_reach, child_looks = reach(child)
            deepest, looks_back = max(deepest, child_reach), looks_back or child_looks
        return deepest + (node.width if type(node) is _Look and node.behind else 0), looks_back

    deepest, looks_back = reach(expr)
    return deepest + 1 if looks_back else 0


class _Converter:
    """The tree as an expression over class bitmasks."""

    def __init__(self, members: Mapping[CharSet, tuple[int, ...]], newline: int) -> None:
        self.members = members
        self.newline = newline

    def convert(self, node: A.Regex) -> Expr:
        if isinstance(node, A.Chars):
            bits = sum(1 << cls for cls in self.members[node.chars])
            return _Read(bits) if bits else _EMPTY
        if isinstance(node, A.Concat):
            return _cat(*map(self.convert, node.parts))
        if isinstance(node, A.Union):
            return _or(map(self.convert, node.options))
        if isinstance(node, (A.Intersection, A.Complement)):
            if any(isinstance(inner, (A.Assertion, A.Lookaround)) for inner in A.subtrees(node)):
                raise UnsupportedRegex(
                    "zero-width assertions inside intersection or complement are not supported"
                )
            if isinstance(node, A.Complement):
                return _not(self.convert(node.inner))
            return _and(map(self.convert, node.parts))
        if isinstance(node, (A.Star, A.Plus, A.Optional, A.Repeat)):
            low, high = (
                (0, -1)
                if isinstance(node, A.Star)
                else (1, -1)
                if isinstance(node, A.Plus)
                else (0, 1)
            )
            if isinstance(node, A.Repeat):
                low, high = node.min, -1 if node.max is None else node.max
            return _rep(self.convert(node.inner), low, high)
        if isinstance(node, A.Epsilon):
            return _EPS
        if isinstance(node, A.EmptySet):
            return _EMPTY
        if isinstance(node, A.Lookaround):
            return _Look(
                self.convert(node.inner),
                node.behind,
                node.negative,
                width(node.inner)[0] if node.behind else 0,
            )
        if node.kind is A.AssertKind.END_OR_FINAL_NEWLINE:  # (?=\Z|\n\Z)
            end = _Test(assertions.CODE[A.AssertKind.TEXT_END])
            return _Look(_or([end, _cat(_Read(self.newline), end)]), False, False, 0)
        return _Test(assertions.CODE[node.kind])


class _Deriver:
    """Derivatives and nullability of residuals, given the context of the position."""

    def __init__(self, alphabet: Alphabet, history: int) -> None:
        kinds = set(assertions.KINDS)
        self.codes: list[int] = assertions.lookahead_codes(alphabet, kinds).tolist()
        self.table: list[list[list[int]]] = assertions.verdict_table().tolist()
        self.history = history
        self.behind_cache: dict[tuple[_Look, Context], Expr] = {}
        self.free_cache: dict[Expr, bool] = {}
        #: Derivatives of whole residuals, by class: a residual is mostly an intersection of
        #: conditions that other residuals share, so each condition is derived once per class.
        self.derived: dict[tuple[Expr, Context, int], Expr] = {}

    def push(self, context: Context, cls: int) -> Context:
        read, more = context
        read = (*read, cls)
        return (
            (read[len(read) - self.history :], True) if len(read) > self.history else (read, more)
        )

    def context_for(self, residual: Expr, context: Context) -> Context:
        """``context``, or one shared context when nothing in ``residual`` looks back (fewer states)."""
        free = self.free_cache.get(residual)
        if free is None:
            free = self.free_cache[residual] = not any(
                type(node) is _Test or (type(node) is _Look and node.behind)
                for node in A.walk(residual, _children)
            )
        return ((), True) if free else context

    def bits(self, context: Context) -> int:
        read, more = context
        at_start = assertions.AT_START if not read and not more else 0
        return at_start | (self.codes[read[-1]] << 1 if read else 0)

    def derive(self, expr: Expr, context: Context, cls: int) -> Expr:
        """The derivative of the residual ``expr`` by ``cls`` at a position with ``context``."""
        key = (expr, context, cls)
        found = self.derived.get(key)
        if found is None:
            found = self.derived[key] = self.step(expr, _EPS, context, cls, set())
        return found

    def step(
        self, expr: Expr, rest: Expr, context: Context, cls: int, loops: set[tuple[Expr, Expr]]
    ) -> Expr:
        """The derivative by ``cls`` of ``expr`` followed by ``rest``."""
        if isinstance(expr, _Read):
            return rest if expr.classes >> cls & 1 else _EMPTY
        if isinstance(expr, _Cat):
            if not expr.parts:
                return _EMPTY if rest == _EPS else self.step(rest, _EPS, context, cls, loops)
            return self.step(expr.parts[0], _cat(*expr.parts[1:], rest), context, cls, loops)
        if isinstance(expr, _Or):
            return _or(self.step(option, rest, context, cls, loops) for option in expr.members)
        if isinstance(expr, _Rep):
            if (expr, rest) in loops:
                return _EMPTY
            loops.add((expr, rest))
            again = _rep(expr.inner, max(expr.low - 1, 0), expr.high - 1 if expr.high > 0 else -1)
            result = self.step(expr.inner, _cat(again, rest), context, cls, loops)
            if expr.low == 0:
                result = _or([result, self.step(rest, _EPS, context, cls, loops)])
            loops.discard((expr, rest))
            return result
        if isinstance(expr, _Test):
            holds = self.table[expr.code][self.bits(context)][self.codes[cls]] == assertions.PASS
            return self.step(rest, _EPS, context, cls, loops) if holds else _EMPTY
        if isinstance(expr, _Look):
            return self.step(_and([self.condition(expr, context), rest]), _EPS, context, cls, loops)
        # & and ~ hold no zero-width item (the converter checks), so they derive on their own.
        if isinstance(expr, _And):
            inner = _and(
                self.derive(part, context, cls)
                if not loops
                else self.step(part, _EPS, context, cls, loops)
                for part in expr.members
            )
        else:
            inner = _not(self.step(expr.inner, _EPS, context, cls, loops))
        if rest == _EPS:
            return inner
        tail = (
            self.step(rest, _EPS, context, cls, loops)
            if self.nullable(expr, _EPS, context)
            else _EMPTY
        )
        return _or([_cat(inner, rest), tail])

    def nullable(self, expr: Expr, rest: Expr, context: Context) -> bool:
        """Whether ``expr`` followed by ``rest`` matches at the end of the text."""
        if isinstance(expr, _Read):
            return False
        if isinstance(expr, _Cat):
            if not expr.parts:
                return rest == _EPS or self.nullable(rest, _EPS, context)
            return self.nullable(expr.parts[0], _cat(*expr.parts[1:], rest), context)
        if isinstance(expr, _Or):
            return any(self.nullable(option, rest, context) for option in expr.members)
        if isinstance(expr, _Rep):
            if expr.low == 0:  # more turns could only match ε, adding conditions
                return self.nullable(rest, _EPS, context)
            again = _rep(expr.inner, expr.low - 1, expr.high - 1 if expr.high > 0 else -1)
            return self.nullable(expr.inner, _cat(again, rest), context)
        if isinstance(expr, _Test):
            holds = self.table[expr.code][self.bits(context)][assertions.END] == assertions.PASS
            return holds and self.nullable(rest, _EPS, context)
        if isinstance(expr, _Look):
            return self.nullable(_and([self.condition(expr, context), rest]), _EPS, context)
        if isinstance(expr, _And):
            holds = all(self.nullable(part, _EPS, context) for part in expr.members)
        else:
            holds = not self.nullable(expr.inner, _EPS, context)
        return holds and self.nullable(rest, _EPS, context)

    def condition(self, look: _Look, context: Context) -> Expr:
        """What a lookaround asks of the rest of the text, at a position with ``context``."""
        if not look.behind:
            condition = _cat(look.inner, _TOP)
        else:
            condition = self.behind_cache.get((look, context), _EMPTY)
            if (look, context) not in self.behind_cache:
                condition = self.behind_cache[look, context] = self.looked_back(look, context)
        return _not(condition) if look.negative else condition

    def looked_back(self, look: _Look, context: Context) -> Expr:
        """The body followed by Σ*, derived over the last ``look.width`` classes read."""
        read, more = context
        if len(read) < look.width:
            return _EMPTY  # fewer characters than the body's width were read
        split = len(read) - look.width
        residual, at = _cat(look.inner, _TOP), (read[:split], more)
        for cls in read[split:]:
            residual = self.derive(residual, at, cls)
            at = self.push(at, cls)
        return residual
