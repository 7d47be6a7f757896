"""Loop-free accepting paths: the raw material of clustered counterexamples.

At a DFA state, all the characters that lead to the same next state are interchangeable there, so
the classes of one (state, next state) pair merge into one *super-character*: the union
``CharSet`` of those classes (the seed paper's Γ(q, q')). A path from the start state to an
accepting state, one super-character per step, then stands for every string spelling one character
of each step's set, and all of them are accepted; the learner reads it with that universal
meaning (``S[0-9]#run``). Paths that visit no state twice are finitely many, and they are where
the distinct "mistakes" of a difference automaton live; loops only repeat them.

Their number can still explode, so :func:`accepting_paths` searches breadth-first (short, readable
paths first) under three budgets (length, partial paths kept per level, partial paths expanded) and
returns them in a *diverse* order: think of the paths as a trie over their state sequences, and
visit it round-robin, one path from each branch at the first point where paths diverge (shorter
first within a round), then the second from each, recursively. The first few paths therefore
differ as early as they can rather than being siblings of one long prefix. The same ordering
decides which partial paths survive when a level outgrows the frontier or expansion budget.
Branch order at each trie node is shuffled with the seed, so the result is deterministic for a
given seed.

The search stays in Python: on the symmetric-difference automata of the benchmark
(``experiments/bench/automata.py``, up to 50 states) a 125-path search takes 0.1 ms at the median
and under 2 ms at worst, dominated by building the returned ``Path`` values, which a numba kernel
would have to convert back to Python objects anyway. The trie ordering runs only when a level
outgrows its budget, because it is the one super-linear step.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import chain, zip_longest
from math import prod

import attrs
import numpy as np

from automata.core.dfa import DFA, classes_by_target, coreachable
from regexlang.charset import CharSet

StatePath = tuple[int, ...]


@attrs.frozen
class Step:
    """One super-character: every character of ``chars`` leads from ``source`` to ``target``."""

    source: int
    target: int
    classes: tuple[int, ...]
    chars: CharSet


@attrs.frozen
class Path:
    """A loop-free walk from ``start`` through ``steps``; accepting when returned by a search."""

    start: int
    steps: tuple[Step, ...]

    def __len__(self) -> int:
        return len(self.steps)

    @property
    def states(self) -> StatePath:
        """The visited states, start included."""
        return (self.start, *(step.target for step in self.steps))

    def size(self) -> int:
        """How many strings the path stands for."""
        return prod(len(step.chars) for step in self.steps)

    def representative(self) -> str:
        """The string spelling the smallest character of every step."""
        return "".join(step.chars.first() for step in self.steps)

    def random_string(self, rng: np.random.Generator) -> str:
        """A string spelling a uniform character of every step."""
        return "".join(_nth(step.chars, int(rng.integers(len(step.chars)))) for step in self.steps)


def _nth(chars: CharSet, index: int) -> str:
    for lo, hi in chars.intervals:
        if index <= hi - lo:
            return chr(lo + index)
        index -= hi - lo + 1
    raise IndexError("index beyond the character set")


def steps_from(dfa: DFA, state: int) -> list[Step]:
    """The super-characters leaving ``state``, one per distinct next state, in class order."""
    grouped = classes_by_target(dfa.transitions[state].tolist())
    return [_step(dfa, state, target, tuple(classes)) for target, classes in grouped.items()]


def _step(dfa: DFA, source: int, target: int, classes: tuple[int, ...]) -> Step:
    chars = CharSet(tuple(chain.from_iterable(dfa.alphabet.classes[k].intervals for k in classes)))
    return Step(source=source, target=target, classes=classes, chars=chars)


def accepting_paths(
    dfa: DFA,
    *,
    max_paths: int = 50,
    max_len: int = 32,
    max_expansions: int = 10_000,
    max_frontier: int = 1_000,
    seed: int = 0,
) -> list[Path]:
    """Up to ``max_paths`` loop-free accepting paths of at most ``max_len`` steps, diverse first.

    The search stops after the level at which ``max_paths`` paths are known, when ``max_len`` is
    reached, or when ``max_expansions`` partial paths have been extended; each level keeps at most
    ``max_frontier`` partial paths, chosen in the diverse order.
    """
    draw = random.Random(seed)
    live = coreachable(dfa).tolist()
    accepting = dfa.accepting.tolist()
    if not live[dfa.start]:
        return []
    rows = dfa.transitions.tolist()
    successors: dict[int, list[int]] = {}  # state -> distinct live next states, in class order
    frontier: list[StatePath] = [(dfa.start,)]
    found: list[StatePath] = [(dfa.start,)] if accepting[dfa.start] else []
    expansions = 0
    for _ in range(max_len):
        level: list[StatePath] = []
        for partial in frontier:
            if expansions == max_expansions:
                break
            expansions += 1
            last = partial[-1]
            if last not in successors:
                successors[last] = [t for t in dict.fromkeys(rows[last]) if live[t]]
            for target in successors[last]:
                if target not in partial:
                    extended = (*partial, target)
                    level.append(extended)
                    if accepting[target]:
                        found.append(extended)
        if not level or len(found) >= max_paths or expansions == max_expansions:
            break
        # Order matters only when the frontier or the expansion budget cannot take the whole level.
        if len(level) > min(max_frontier, max_expansions - expansions):
            level = diverse_order(level, draw)[:max_frontier]
        frontier = level
    chosen = diverse_order(found, draw)[:max_paths]
    steps: dict[tuple[int, int], Step] = {}
    grouped: dict[int, dict[int, list[int]]] = {}
    for source, target in {pair for states in chosen for pair in zip(states, states[1:])}:
        if source not in grouped:
            grouped[source] = classes_by_target(rows[source])
        steps[source, target] = _step(dfa, source, target, tuple(grouped[source][target]))
    return [
        Path(start=states[0], steps=tuple(steps[pair] for pair in zip(states, states[1:])))
        for states in chosen
    ]


def diverse_order(paths: Sequence[StatePath], draw: random.Random) -> list[StatePath]:
    """``paths`` (distinct, sharing their first state) in round-robin order over their trie;
    ``draw`` shuffles the branches of each trie node."""
    return _round_robin(list(paths), 1, draw)


def _round_robin(paths: list[StatePath], depth: int, draw: random.Random) -> list[StatePath]:
    """The recursion "paths ending at ``depth``, then each branch's own order, interleaved", run on
    an explicit stack: paths can share prefixes far longer than Python's recursion limit. Branches
    are shuffled when their node is first visited and visited in that order, as a recursion would."""
    # A frame: the paths ending at its depth, its shuffled branches, and the orders of those done so
    # far; the frame at stack index ``i`` is at depth ``depth + i``.
    stack: list[tuple[list[StatePath], list[list[StatePath]], list[list[StatePath]]]] = []
    done: list[StatePath] | None = None
    pending: list[StatePath] | None = paths  # a group to visit, one level below the top frame
    while True:
        if pending is not None:
            group, level = pending, depth + len(stack)
            pending = None
            if len(group) <= 1:
                done = group
            else:
                branches: dict[int, list[StatePath]] = {}
                ends: list[StatePath] = []
                for p in group:
                    if len(p) > level:
                        branches.setdefault(p[level], []).append(p)
                    else:  # a group's paths are at least ``level`` long
                        ends.append(p)
                keys = list(branches)
                draw.shuffle(keys)
                stack.append((ends, [branches[key] for key in keys], []))
        if done is not None:
            if not stack:
                return done
            stack[-1][2].append(done)
            done = None
        ends, children, ordered = stack[-1]
        if len(ordered) < len(children):
            pending = children[len(ordered)]
            continue
        stack.pop()
        interleaved = [
            p for layer in zip_longest(*ordered) for p in sorted(filter(None, layer), key=len)
        ]
        done = ends + interleaved
