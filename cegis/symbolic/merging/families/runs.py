"""Long runs in the positives' own automaton, read as repetitions: ``X{0,27}[0-9]{3,4}`` → ``X*[0-9]{3,4}``,
``xy(xy(xy…)?)?)?`` → ``(xy)+``.

The language of the positives is the hypothesis that generalizes nothing. When its positives show a
run of one unit at every count up to a long one (``X``, ``XX``, … 27 ``X`` before the digits; ``xy``,
``xyxy``, … 16 ``xy``), its automaton holds a chain of states that read the unit into the next and
are otherwise alike. Merging alone does not find the loop when the negatives are few and far from
the positives (random strings), and a teacher answering with loop-free paths then shows one more
unit an epoch, so the listing's bound creeps up for ever (and past ``max_len`` the teacher has only
longer units to show). Looping such a chain at its first state is the generalization a person
makes; a negative the loop accepts refutes it like any other candidate. Minimization shares a
chain's tail between branches (``aY{0,8}|bY{0,16}``: the first branch enters the second's chain
halfway), so the chain is also looped at its last unit, which loops every way into it.

A unit is a *period* of edges, each the set of classes that leads one state to the next; a chain of
period ``p`` is a path ``a0 → a1 → …`` whose edges repeat the period, where each state is alike the
one ``p`` further on (the same acceptance, the same successor on every class off the chain). A
chain that is the tail of a longer one, or that runs along another of a shorter period (``XX``
along a run of ``X``), is not looped apart from it; a period repeated is a period of its own where
the shorter one's states are not alike (``(aa)+``: even counts).
"""

from __future__ import annotations

from collections.abc import Iterator

from automata.algebra.ops import dead_state
from automata.core.dfa import DFA
from automata.core.minimize import minimize

#: Most alike states of a chain of one edge still read as a count; a longer chain reads as a
#: repetition. Counted repetitions in the benchmark targets bound a run at four (``[A-Z]{2,4}``,
#: ``[a-z]{1,4}``), whose chains have at most five alike states (``{0,4}``: after none to four letters).
LONGEST_COUNT = 5

#: Fewest times a unit of more than one edge repeats along a chain read as a repetition (such units
#: are words, which targets rarely count)...
FEWEST_UNITS = 3

#: ... or fewest edges of a chain of such units: a teacher bounded by ``max_len`` shows few copies of
#: a long unit (``((LPR){3})+`` three times up to length 32), so a run this long is a repetition too.
LONGEST_RUN = 16

#: Longest unit looked for (``((abc){3})+`` has a unit of nine edges).
LONGEST_UNIT = 12

#: Most paths followed from one state when looking for units (a listing's automaton is nearly a
#: tree, so a few dozen cover it).
MOST_PATHS = 256

#: A chain: its states, and the period of edges (each the classes read from one state to the next).
Chain = tuple[list[int], tuple[tuple[int, ...], ...]]


def looped_runs(dfa: DFA) -> list[tuple[DFA, str]]:
    """``dfa`` (minimal) with each long chain (:func:`long`) looped at its first state, and at its
    last unit, one chain at a time and, when there are several, all at once; minimal, distinct,
    each with what was looped."""
    rows = dfa.transitions.tolist()
    accepting = dfa.accepting.tolist()
    chains = [chain for chain in _chains(rows, accepting, dead_state(dfa)) if long(chain)]
    found: dict[bytes, tuple[DFA, str]] = {}
    for looped in [[chain] for chain in chains] + ([chains] if len(chains) > 1 else []):
        named = " and ".join(f"{len(states)}" for states, _ in looped)
        for at_last in (False, True):
            transitions = dfa.transitions.copy()
            for states, period in looped:
                if at_last:  # the last unit reads back into itself: every way into the chain loops
                    transitions[states[-2], list(period[(len(states) - 2) % len(period)])] = states[
                        -1 - len(period)
                    ]
                else:
                    transitions[states[len(period) - 1], list(period[-1])] = states[0]
            result = minimize(DFA(transitions, dfa.accepting, dfa.start, dfa.alphabet))
            how = f"runs of {named} states looped" + (" at their last unit" if at_last else "")
            found.setdefault(
                result.transitions.tobytes() + result.accepting.tobytes(), (result, how)
            )
    return list(found.values())


def long(chain: Chain) -> bool:
    """Whether ``chain`` is read as a repetition: more than :data:`LONGEST_COUNT` states for a unit
    of one edge, :data:`FEWEST_UNITS` whole units or :data:`LONGEST_RUN` edges for a longer one."""
    states, period = chain
    if len(period) == 1:
        return len(states) > LONGEST_COUNT
    return len(states) - 1 >= min(FEWEST_UNITS * len(period), LONGEST_RUN)


def _chains(rows: list[list[int]], accepting: list[bool], dead: int | None) -> list[Chain]:
    """The maximal chains of every period up to :data:`LONGEST_UNIT` edges."""
    edges = [_edges(row, state, dead) for state, row in enumerate(rows)]

    def alike(a: int, b: int, on: tuple[int, ...]) -> bool:
        skip = set(on)
        return accepting[a] == accepting[b] and all(
            x == y for k, (x, y) in enumerate(zip(rows[a], rows[b])) if k not in skip
        )

    found: list[Chain] = []
    for first in range(len(rows)):
        for path in _paths(edges, first):
            period = tuple(classes for _, classes in path)
            states = [first, *(target for target, _ in path)]
            if not alike(first, states[-1], period[0]):
                continue
            seen = set(states)
            while True:  # grow the chain by the period's next edge while the states stay alike
                last, edge = states[-1], period[(len(states) - 1) % len(period)]
                following = rows[last][edge[0]]
                if following == dead or following in seen or edges[last].get(following) != edge:
                    break
                back = len(states) - len(period)
                if not alike(states[back], following, period[back % len(period)]):
                    break
                states.append(following)
                seen.add(following)
            found.append((states, period))
    return [chain for chain in found if not any(_within(chain, other) for other in found)]


def _edges(row: list[int], state: int, dead: int | None) -> dict[int, tuple[int, ...]]:
    """The classes leading from ``state`` to each other live state."""
    out: dict[int, list[int]] = {}
    for symbol, target in enumerate(row):
        if target not in (state, dead):
            out.setdefault(target, []).append(symbol)
    return {target: tuple(classes) for target, classes in out.items()}


def _paths(
    edges: list[dict[int, tuple[int, ...]]], first: int
) -> Iterator[list[tuple[int, tuple[int, ...]]]]:
    """Paths without a repeated state from ``first``, of 1 to :data:`LONGEST_UNIT` edges, at most
    :data:`MOST_PATHS` of them (depth first)."""
    stack: list[list[tuple[int, tuple[int, ...]]]] = [[]]
    given = 0
    while stack and given < MOST_PATHS:
        path = stack.pop()
        if path:
            given += 1
            yield path
        if len(path) < LONGEST_UNIT:
            on = {first, *(target for target, _ in path)}
            here = path[-1][0] if path else first
            stack += [[*path, (t, c)] for t, c in edges[here].items() if t not in on]


def _within(chain: Chain, other: Chain) -> bool:
    """Whether ``chain`` is a proper tail of ``other`` (the same states from a later one on), or
    runs along the states of ``other`` with a longer period (``XX`` along a run of ``X``)."""
    (states, period), (others, periods) = chain, other
    if len(periods) < len(period):
        return set(states) <= set(others)
    return len(others) > len(states) and others[-len(states) :] == states
