"""Languages derived from a DFA, out of which :mod:`automata.printing.readable` writes structured regexes.

Each is built on the minimal DFA by a small deterministic construction (a subset construction over
sets of bits, :func:`explore`, or an edit of the table), never through a regex: the *cores* of a
language closed on one or both sides (its strings with no proper prefix, suffix or factor in it),
its *primes* when it is closed under concatenation, its *cut states* (every accepted string passes
them) and the pieces a cut splits it into, and its *branches* by first character when the start
state is never re-entered. Constructions stop at :data:`STATE_LIMIT` states.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from automata.algebra.ops import is_subset
from automata.core.dfa import DFA, coreachable, coreachable_states
from automata.core.minimize import minimize
from automata.jit.arrays import Int64Array
from automata.printing._subsets import OK, WORD_BITS, subsets

#: The most states any automaton built to find or check structure may have.
STATE_LIMIT = 2_000


#: Which closures a form needs: ``Σ*CΣ*`` a language closed under adding characters on both
#: sides, ``Σ*C`` on the left, ``CΣ*`` on the right, ``C*`` (or ``C+``) under concatenation.
NEEDS = {
    "factor": {"left", "right"},
    "suffix": {"left"},
    "prefix": {"right"},
    "prime": {"concatenation"},
}


def closures(dfa: DFA) -> set[str]:
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

    covered: dict[int, bool] = {}  # both closures ask about the same states: each is checked once

    def covers(state: int) -> bool:
        if state not in covered:
            covered[state] = state == dfa.start or is_subset(
                dfa, DFA(rows, accepting, state, dfa.alphabet), state_limit=STATE_LIMIT
            )
        return covered[state]

    if all(not accepting[q] or covers(q) for q in reachable):
        closed.add("concatenation")
    if all(live[q] for q in reachable) and all(covers(q) for q in reachable):
        closed.add("left")
    return closed


def core(dfa: DFA, kind: str) -> DFA | None:
    """The strings of ``dfa`` with no proper ``kind`` (factor, suffix or prefix) in its language,
    or for ``"prime"`` its non-empty strings that are no concatenation of two non-empty ones in
    it; ``None`` past :data:`STATE_LIMIT` states.

    Built by a subset construction that runs ``dfa`` itself with a flag, beside a set of runs of
    its live states: for a core, the flag says whether a proper prefix was accepted and the runs
    are those started after each character (the proper suffixes); for primes, the flag says
    whether a character was read and the runs are the second halves, one started after each
    non-empty accepted prefix.
    """
    rows = dfa.transitions.tolist()
    accepting = dfa.accepting.tolist()
    live = coreachable_states(rows, accepting)
    start = dfa.start
    n = len(rows)
    runs = [[1 << t if live[t] else 0 for t in row] for row in rows]  # a run's state r is bit r

    def at(state: int, flag: bool) -> int:  # the bit of dfa's own run, above the runs' bits
        return 1 << (n + 2 * state + flag)

    if kind == "prime":
        own = [
            [
                at(t, True) | (runs[start][c] if flag and accepting[q] else 0)
                for c, t in enumerate(row)
            ]
            for q, row in enumerate(rows)
            for flag in (False, True)
        ]
    else:
        prefixes, suffixes = kind in ("factor", "prefix"), kind in ("factor", "suffix")
        suffix = 1 << start if suffixes else 0
        own = [
            [at(t, flag or (prefixes and accepting[q])) | suffix for t in row]
            for q, row in enumerate(rows)
            for flag in (False, True)
        ]
    wanted = sum(at(q, kind == "prime") for q in range(n) if accepting[q])
    final = sum(1 << q for q in range(n) if accepting[q])
    return explore(at(start, False), runs + own, lambda s: bool(s & wanted) and not s & final, dfa)


def explore(
    start: int,
    images: Sequence[Sequence[int]],
    accepts: Callable[[int], bool],
    like: DFA,
    *,
    alive: int = -1,
) -> DFA | None:
    """The minimal DFA over ``like``'s alphabet of a subset construction on sets of bits (Python
    ints, bits below ``len(images)``): from the set ``start``, a set leads on class ``c`` to the
    union of ``images[b][c]`` over its bits ``b``, taken as the empty set when it has no bit of
    ``alive``; ``accepts`` says which sets accept. ``None`` past :data:`STATE_LIMIT` sets.

    The sets are explored by a compiled kernel (:func:`automata.printing._subsets.subsets`), as words.
    """
    n_words = max(1, -(-len(images) // WORD_BITS))
    alive &= (1 << WORD_BITS * n_words) - 1
    rows, keys, status = subsets(
        _words([start], n_words)[0],
        _words(images, n_words),
        _words([alive], n_words)[0],
        STATE_LIMIT,
    )
    if status != OK:
        return None
    accepting = np.array([accepts(s) for s in _ints(keys.reshape(-1, n_words))], dtype=np.bool_)
    return minimize(DFA(rows, accepting, 0, like.alphabet))


def _words(values: Sequence[int] | Sequence[Sequence[int]], n_words: int) -> Int64Array:
    """Non-negative Python ints below ``2**(WORD_BITS * n_words)`` as ``n_words`` words each,
    least significant first, on a last axis."""
    if n_words == 1:  # the usual case, and what the general one gives for it
        return np.array(values, dtype=np.int64)[..., np.newaxis]
    ints = np.array(values, dtype=object)
    return np.stack([(ints >> WORD_BITS * k) & _WORD for k in range(n_words)], axis=-1).astype(
        np.int64
    )


def _ints(words: Int64Array) -> list[int]:
    """Rows of words (:func:`_words`) as Python ints."""
    ints = words[:, 0].astype(object)
    for k in range(1, words.shape[1]):
        ints |= words[:, k].astype(object) << WORD_BITS * k
    return ints.tolist()  # type: ignore[no-any-return]


_WORD = (1 << WORD_BITS) - 1


def branches(dfa: DFA) -> list[DFA]:
    """When no string returns to the start state and its first characters lead into two or more
    separate parts of the automaton (no live state reached from both): for each part, the strings
    of ``dfa`` that enter it (with the empty string when ``dfa`` accepts it, so that a branch may be
    a star); their union is the language. Else ``[]``."""
    rows = dfa.transitions
    table = rows.tolist()
    live = coreachable(dfa).tolist()
    reachable = _distances(table, dfa.start, avoid=None)
    if any(dfa.start in table[q] for q in reachable):
        return []
    part = {q: q for q in reachable if live[q] and q != dfa.start}

    def root(q: int) -> int:
        while part[q] != q:
            part[q] = part[part[q]]
            q = part[q]
        return q

    for q in part:
        for t in table[q]:
            if live[t]:
                part[root(t)] = root(q)
    groups: dict[int, list[int]] = {}
    for cls, target in enumerate(table[dfa.start]):
        if live[target]:
            groups.setdefault(root(target), []).append(cls)
    if len(groups) < 2:
        return []
    n = dfa.n_states
    found = []
    for classes in groups.values():
        entry = np.full(
            (1, rows.shape[1]), n, dtype=rows.dtype
        )  # to a fresh sink but for the part's first characters
        entry[0, classes] = rows[dfa.start, classes]
        sink = np.full((1, rows.shape[1]), n, dtype=rows.dtype)
        accepting = np.append(dfa.accepting, [False, dfa.accepting[dfa.start]])
        found.append(minimize(DFA(np.vstack([rows, sink, entry]), accepting, n + 1, dfa.alphabet)))
    return found


def split(dfa: DFA, cut: int) -> tuple[DFA, DFA, DFA]:
    """For a cut state: the strings reaching it the first time, all strings reaching it, and the
    language from it."""
    first = _retargeted(dfa, dfa.start, cut, first=True)
    return (
        first,
        _retargeted(dfa, dfa.start, cut, first=False),
        _retargeted(dfa, cut, None, first=False),
    )


def cuts(dfa: DFA) -> list[int]:
    """The states other than the start that every accepted string passes through, by distance from the start."""
    rows = dfa.transitions.tolist()
    accepting = dfa.accepting.tolist()
    live = coreachable(dfa).tolist()
    distance = _distances(rows, dfa.start, avoid=None)
    found = []
    for state in sorted(
        (s for s in distance if live[s] and s != dfa.start), key=lambda s: (distance[s], s)
    ):
        if not any(accepting[s] for s in _distances(rows, dfa.start, avoid=state)):
            found.append(state)
    return found


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
