"""Sequence hypotheses: the shared factors (and the characters and classes every positive has)
one after another, in the few orders that cover the positives, with the gaps between them of any
length or bounded as the positives show them (``hello``, one to five characters, ``world``).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from cegis.symbolic.merging.families.pieces import (
    Gaps,
    Piece,
    all_gaps,
    find_piece,
    piece_name,
    piece_regex,
    width,
)
from cegis.symbolic.merging.families.shared import Hypotheses, Shared
from regexlang.ast import Regex, Repeat, concat, union
from regexlang.charset import CharSet

#: Most orders of a sequence hypothesis.
MOST_ORDERS = 3

#: Most pieces of a sequence whose every order is tried (past it, the orders the positives show).
MOST_PERMUTED = 4


def sequence_hypotheses(
    shared: Shared, positives: Sequence[str], negatives: Sequence[str], held: dict[CharSet, int]
) -> Hypotheses:
    """The factors (counted apart) in the orders the positives show; when a negative refutes that
    (or the one factor alone), with the characters and ``held`` classes every positive has as
    further pieces; and for each of these orders that a negative refutes, with the gaps between
    the pieces bounded as the positives show them."""
    words: list[Piece] = list(shared.apart())
    given = tuple(positives)
    orders = shared.cache(_orders, shared, given, tuple(words), limit=256) if len(words) > 1 else ()

    def refuted(orders: Sequence[Sequence[Piece]]) -> bool:
        return any(shared.match(n, order) is not None for n in negatives for order in orders)

    extra: list[Piece] = [*shared.characters, *held]
    wider: tuple[tuple[Piece, ...], ...] = ()
    if extra and words and (refuted(orders) if orders else bool(shared.held(negatives))):
        wider = shared.cache(_orders, shared, given, (*words, *extra), limit=256)
    out: Hypotheses = []
    for chosen in (orders, wider):
        if chosen:
            out.append((_sequence(shared, chosen), f"factors in order ({_named(chosen)})"))
            out += (
                shared.cache(_bounded, shared, given, chosen, limit=256) if refuted(chosen) else ()
            )
    return out


def _bounded(
    shared: Shared, positives: tuple[str, ...], orders: tuple[tuple[Piece, ...], ...]
) -> tuple[tuple[Regex, str], ...]:
    """The sequences of ``orders`` with the gaps between their pieces bounded as the positives
    show them: at least as wide as each positive's widest (when that is above zero), from the
    narrowest to the widest of its narrowest, and from the lower bounds to the narrowest widest
    gap a positive needs (:func:`_fitted`). Kept in the run's cache (the same positives come back
    every epoch and agreement round), as :func:`_orders` is."""
    at_least: list[Gaps] = [
        [(low, None) for low, _ in wide] for wide in _gaps(shared, positives, orders, tight=False)
    ]
    gaps = _gaps(shared, positives, orders, tight=True)
    fitted = _fitted(shared, positives, orders, at_least)
    variants = [at_least] if any(low for wide in at_least for low, _ in wide) else []
    variants += [gaps] + ([fitted] if fitted is not None and fitted != gaps else [])
    return tuple(
        (_sequence(shared, orders, bounds), f"factors in order ({_named(orders, bounds)})")
        for bounds in variants
    )


def _fitted(
    shared: Shared,
    positives: Sequence[str],
    orders: Sequence[Sequence[Piece]],
    at_least: Sequence[Gaps],
) -> list[Gaps] | None:
    """For each of ``orders``, gaps from the lower bounds ``at_least`` to the fewest characters
    that let every positive hold one of the orders with no gap below its bound, each positive
    matched where its widest gap is narrowest (``hellohelloworld`` holds ``hello`` five
    characters before ``world``, not none); None when a positive has no such match."""
    most: list[list[int]] = [[low for low, _ in lows] for lows in at_least]
    for string in positives:
        best: tuple[int, tuple[int, ...]] | None = None
        for i, order in enumerate(orders):
            for gaps in all_gaps(
                string, order, len(shared.prefix), len(string) - len(shared.suffix), shared.cache
            ):
                if all(gap >= low for gap, (low, _) in zip(gaps, at_least[i])) and (
                    best is None or max(gaps, default=0) < max(best[1], default=0)
                ):
                    best = (i, gaps)
        if best is None:
            return None
        i, gaps = best
        most[i] = [max(m, gap) for m, gap in zip(most[i], gaps)]
    return [
        [(low, high) for (low, _), high in zip(lows, highs)] for lows, highs in zip(at_least, most)
    ]


def _sequence(
    shared: Shared, orders: Sequence[Sequence[Piece]], gaps: Sequence[Gaps] = ()
) -> Regex:
    """The strings holding the pieces of one of ``orders`` one after another (with the ``gaps``
    between them, of any length where none are given) between the prefix and the suffix."""
    options = []
    for i, order in enumerate(orders):
        between = (
            [_gap(shared, low, high) for low, high in gaps[i]]
            if gaps
            else [shared.anything] * (len(order) - 1)
        )
        pieces = [piece_regex(order[0])] + [
            concat(gap, piece_regex(piece)) for gap, piece in zip(between, order[1:])
        ]
        options.append(concat(*pieces))
    return shared.framed(concat(shared.anything, union(*options), shared.anything))


def _gap(shared: Shared, low: int, high: int | None) -> Regex:
    """Between ``low`` and ``high`` (no bound when None) characters."""
    return shared.anything if low == 0 and high is None else Repeat(shared.dot, low, high)


def _gaps(
    shared: Shared, positives: Sequence[str], orders: Sequence[Sequence[Piece]], tight: bool
) -> list[Gaps]:
    """For each of ``orders``, the fewest and most characters between each two of its pieces in
    the positives that hold it with the widest narrowest gap (of :func:`starts_of`'s ``tight`` or
    wide matches) of all the orders."""
    seen: list[list[list[int]]] = [[[] for _ in order[1:]] for order in orders]
    for string in positives:
        held = []
        for i, order in enumerate(orders):
            starts = shared.match(string, order, tight)
            if starts is not None:
                held.append(
                    (
                        i,
                        [
                            starts[k + 1] - starts[k] - width(piece)
                            for k, piece in enumerate(order[:-1])
                        ],
                    )
                )
        i, between = max(held, key=lambda item: min(item[1]))
        for lengths, gap in zip(seen[i], between):
            lengths.append(gap)
    return [[(min(lengths), max(lengths)) for lengths in between] for between in seen]


def _orders(
    shared: Shared, positives: tuple[str, ...], pieces: tuple[Piece, ...]
) -> tuple[tuple[Piece, ...], ...]:
    """At most :data:`MOST_ORDERS` orders of ``pieces`` that together cover ``positives``,
    chosen greedily (the one most positives not yet covered hold, the first on a tie) from every
    order (up to :data:`MOST_PERMUTED` pieces) or those of the pieces' first occurrences; none when
    they cannot cover them."""
    if len(pieces) <= MOST_PERMUTED:
        candidates = list(itertools.permutations(pieces))
    else:
        skip = len(shared.prefix)
        firsts = (
            tuple(
                sorted(pieces, key=lambda piece: find_piece(p, piece, skip, len(p), shared.cache))
            )
            for p in positives
        )
        candidates = list(dict.fromkeys(firsts))
    fits = [
        {i for i, p in enumerate(positives) if shared.match(p, order) is not None}
        for order in candidates
    ]
    uncovered = set(range(len(positives)))
    chosen: list[tuple[Piece, ...]] = []
    while uncovered and len(chosen) < MOST_ORDERS:
        best = max(range(len(candidates)), key=lambda k: len(fits[k] & uncovered))
        if not fits[best] & uncovered:
            break
        chosen.append(candidates[best])
        uncovered -= fits[best]
    return () if uncovered else tuple(chosen)


def _named(orders: Sequence[Sequence[Piece]], gaps: Sequence[Gaps] = ()) -> str:
    """``orders`` described, with their ``gaps`` when bounded (``hello {1,5} world``)."""
    spelled = []
    for i, order in enumerate(orders):
        between = (
            [f" {{{low},{'' if high is None else high}}} " for low, high in gaps[i]]
            if gaps
            else [", "] * (len(order) - 1)
        )
        spelled.append(
            piece_name(order[0])
            + "".join(gap + piece_name(piece) for gap, piece in zip(between, order[1:]))
        )
    return " | ".join(spelled)
