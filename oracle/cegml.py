"""The ``cegml`` profile: counterexamples sampled the way the seed paper's reference code samples them.

The paper's tables were produced by its public code, whose teacher makes choices this project's
default teacher improves on. Re-running those tables needs the same choices, so this module
re-implements them (from a reading of the code, in our own terms) over our automata:

* each side gets ``batch // 2`` witnesses, with no refill when a side runs short; positives are
  listed first; nothing already shown is excluded, so a round may repeat an earlier one;
* ``paths`` is a depth-first search over loop-free paths of the difference automaton, successors
  in state order, with a stack capped at ``max(256, 8k, 4·states)`` entries and at most that many
  times ``max(4, max_len)`` expansions (``k`` = witnesses wanted, ``states`` = live states);
* ``shortest`` is a breadth-first search over paths that returns *every* witness at the minimum
  length (not capped at ``k``), with a queue of ``max(1024, 16k, 8·states)`` and the same kind of
  expansion budget;
* ``uniform`` is the code's ``random`` mode: the accepting states are dealt round-robin to the ``k``
  draws, and each draw is a breadth-first walk over (state, depth) pairs in shuffled order that
  picks one of the strings reaching its accepting state at any depth up to ``max_len``, retried up
  to 16 times when it repeats a string of the same round;
* without ``clustered`` the depth- and breadth-first searches branch on every character, and the
  random walk spells a step with one random character of it; with ``clustered`` a step is the
  whole super-character, printed in the code's class spelling
  (:func:`oracle.examples.format_position` with ``spelling="cegml"``);
* its evaluation strings (:func:`coin_flip_set`) flip a fair coin per string between the target
  and its complement and take the same breadth-first walk to any accepting state.

Randomness comes from a ``random.Random`` seeded by the config's seed and the round, so a run is
reproducible here; the reference draws from a global generator instead.
"""

from __future__ import annotations

import random
from collections import deque

import attrs
import numpy as np

from automata.algebra.ops import complement
from automata.core.dfa import DFA
from automata.jit.arrays import Int64Array
from automata.strings.paths import steps_from
from oracle import _cegml_kernels as kernels
from oracle.config import TeacherConfig
from oracle.draws import live_states
from oracle.examples import ClusteredExample, Counterexample, Example
from oracle.mutations import readable
from regexlang.charset import CharSet

#: A witness under construction: one character set per step.
Tokens = tuple[CharSet, ...]

#: Largest step whose characters are all candidates for a plain string (beyond: readable ones).
_ALL_MEMBERS = 4096

#: Draws of one accepting state before giving up on a new string.
_ATTEMPTS = 16


class _Graph:
    """A difference automaton as the reference code sees it: only live states, and per state its
    successors in state order, each with the characters leading there (or, ``per_char``, one edge
    per character, as its plain-string searches branch)."""

    def __init__(self, dfa: DFA, per_char: bool = False) -> None:
        self.dfa, self.per_char = dfa, per_char
        self.live: list[bool] = live_states(dfa).tolist()
        self.states = sum(self.live)
        self.accepting: list[bool] = dfa.accepting.tolist()
        self._out: dict[int, list[tuple[int, CharSet]]] = {}
        self._arrays: _Arrays | None = None

    def out(self, state: int) -> list[tuple[int, CharSet]]:
        """Live successors of ``state`` in state order, with the characters leading to each."""
        if state not in self._out:
            steps = sorted(
                (s.target, s.chars) for s in steps_from(self.dfa, state) if self.live[s.target]
            )
            if self.per_char:
                steps = [
                    (target, CharSet.of(c)) for target, chars in steps for c in _members(chars)
                ]
            self._out[state] = steps
        return self._out[state]

    def arrays(self) -> _Arrays:
        """The graph as the walk kernels take it."""
        if self._arrays is None:
            self._arrays = _Arrays.of(self)
        return self._arrays

    def finals(self) -> list[int]:
        """The live accepting states, in state order."""
        return [s for s, accepting in enumerate(self.accepting) if accepting and self.live[s]]

    def budgets(
        self, floor: int, for_witnesses: int, per_state: int, max_len: int
    ) -> tuple[int, int]:
        """The reference code's search budgets: a frontier of at least ``floor``, ``for_witnesses``
        and ``per_state`` entries per live state, and that many times ``max(4, max_len)`` expansions."""
        frontier = max(floor, for_witnesses, per_state * self.states)
        return frontier, frontier * max(4, max_len)


@attrs.frozen
class _Arrays:
    """Graphs as the walk kernels take them (:mod:`oracle._cegml_kernels`), the states of each
    numbered after the previous one's: ``heads[offsets[s]:offsets[s + 1]]`` are the successors of
    state ``s`` and ``chars[e]`` the characters of edge ``e``."""

    offsets: Int64Array
    heads: Int64Array
    chars: tuple[CharSet, ...]
    starts: tuple[int, ...]  # each graph's first state (add the DFA's state numbers to it)

    @classmethod
    def of(cls, *graphs: _Graph) -> _Arrays:
        """Every state and live edge of ``graphs``, in order."""
        offsets, heads, chars, starts = [0], [], [], []
        for graph in graphs:
            starts.append(len(offsets) - 1)
            for state in range(graph.dfa.n_states):
                for target, step in graph.out(state):
                    heads.append(starts[-1] + target)
                    chars.append(step)
                offsets.append(len(heads))
        return cls(
            np.array(offsets, dtype=np.int64),
            np.array(heads, dtype=np.int64),
            tuple(chars),
            tuple(starts),
        )


def counterexamples(
    too_little: DFA, too_much: DFA, config: TeacherConfig, round_index: int
) -> tuple[Counterexample, ...]:
    """``batch // 2`` witnesses per side, positives first, repeats allowed (see the module doc)."""
    rng = random.Random(hash((config.seed, round_index)) & (2**63 - 1))
    k = config.batch // 2
    pos = witnesses(too_little, k, True, config, rng)
    neg = witnesses(too_much, k, False, config, rng)
    return (*pos, *neg)


def witnesses(
    diff: DFA, k: int, label: bool, config: TeacherConfig, rng: random.Random
) -> list[Counterexample]:
    """The witnesses of one side in the configured mode, as examples labelled ``label``."""
    graph = _Graph(diff, per_char=not config.clustered and config.mode != "uniform")
    if not graph.live[diff.start]:
        return []
    draw = {"paths": _depth_first, "shortest": _all_shortest, "uniform": _random}[config.mode]
    token_lists = draw(graph, k, config.max_len, rng)
    universe = diff.alphabet.universe
    if config.clustered:
        return [
            ClusteredExample(tokens, label, universe, spelling="cegml") for tokens in token_lists
        ]
    return [
        Example("".join(_spell(chars, rng) for chars in tokens), label) for tokens in token_lists
    ]


def _members(chars: CharSet) -> str:
    return "".join(chars) if len(chars) <= _ALL_MEMBERS else readable(chars)


def _spell(chars: CharSet, rng: random.Random) -> str:
    members = _members(chars)
    return members[rng.randrange(len(members))]


def _depth_first(graph: _Graph, k: int, max_len: int, rng: random.Random) -> list[Tokens]:
    max_frontier, max_expansions = graph.budgets(256, 8 * k, 4, max_len)
    start = graph.dfa.start
    stack: list[tuple[int, Tokens, frozenset[int]]] = [(start, (), frozenset({start}))]
    found: list[Tokens] = []
    expansions = 0
    while stack:
        state, tokens, visited = stack.pop()
        if graph.accepting[state]:
            found.append(tokens)
            if len(found) >= k:
                break
        if len(tokens) >= max_len:
            continue
        expansions += 1
        if expansions > max_expansions:
            break
        for target, chars in graph.out(state):
            if target not in visited:
                stack.append((target, (*tokens, chars), visited | {target}))
                if len(stack) >= max_frontier:
                    break
    return found


def _all_shortest(graph: _Graph, k: int, max_len: int, rng: random.Random) -> list[Tokens]:
    max_frontier, max_expansions = graph.budgets(1024, 16 * k, 8, max_len)
    queue: deque[tuple[int, Tokens]] = deque([(graph.dfa.start, ())])
    found: dict[Tokens, None] = {}
    shortest: int | None = None
    expansions = 0
    while queue:
        state, tokens = queue.popleft()
        if shortest is not None and len(tokens) > shortest:
            break
        if graph.accepting[state]:
            shortest = len(tokens)
            found.setdefault(tokens)
            continue
        if len(tokens) >= max_len:
            continue
        expansions += 1
        if expansions > max_expansions:
            break
        for target, chars in graph.out(state):
            if len(queue) >= max_frontier:
                break
            queue.append((target, (*tokens, chars)))
    return list(found)


def _random(graph: _Graph, k: int, max_len: int, rng: random.Random) -> list[Tokens]:
    finals = graph.finals()
    rng.shuffle(finals)
    targets = [finals[i % len(finals)] for i in range(k)]
    rng.shuffle(targets)
    found: dict[Tokens, None] = {}
    for target in targets:
        for _ in range(_ATTEMPTS):
            tokens = reaching_tokens(graph, {target}, max_len, rng)
            if tokens is None:
                break
            if tokens not in found:
                found[tokens] = None
                break
    return list(found)


def reaching_tokens(
    graph: _Graph, targets: set[int], max_len: int, rng: random.Random
) -> Tokens | None:
    """One of the walks a shuffled breadth-first search over (state, depth) pairs finds into
    ``targets`` (one per depth reached), chosen uniformly; None when no target is reachable.

    The search goes one depth at a time (the order a FIFO queue takes) and shuffles each state's
    successors as ``rng.sample(range(n), n)`` does, drawing from ``rng`` the very numbers it draws
    (:func:`oracle._cegml_kernels.walk`, on ``rng``'s state, which it leaves where ``sample``
    would)."""
    arrays = graph.arrays()
    goals = np.zeros(graph.dfa.n_states, dtype=np.bool_)
    goals[sorted(targets)] = True
    mt = _generator(rng)
    path = np.empty(max(max_len, 1), dtype=np.int64)
    length = kernels.walk(arrays.offsets, arrays.heads, goals, graph.dfa.start, max_len, mt, path)
    _restore(rng, mt)
    if length < 0:
        return None
    return tuple(arrays.chars[int(e)] for e in path[:length])


def _generator(rng: random.Random) -> Int64Array:
    """``rng``'s Mersenne Twister state as the kernels draw from it (624 words and the index)."""
    return np.array(rng.getstate()[1], dtype=np.int64)


def _restore(rng: random.Random, mt: Int64Array) -> None:
    """Move ``rng`` to where the kernels left the generator ``mt``."""
    version, _, gauss = rng.getstate()
    rng.setstate((version, tuple(mt.tolist()), gauss))


def coin_flip_set(target: DFA, size: int, max_len: int, seed: int) -> list[Example]:
    """``size`` strings, each from the target or its complement by a fair coin, each the end of a
    shuffled breadth-first walk to any accepting state (the reference code's evaluation strings).
    A side without any string hands its flips to the other. The draws are those of
    ``random.Random(seed)``, made by :func:`oracle._cegml_kernels.coin_flips`."""
    graphs = (_Graph(target), _Graph(complement(target)))
    arrays = _Arrays.of(*graphs)
    goals = np.zeros(len(arrays.offsets) - 1, dtype=np.bool_)
    starts = np.full(2, -1, dtype=np.int64)
    for side, (graph, first) in enumerate(zip(graphs, arrays.starts)):
        finals = graph.finals()
        goals[[first + s for s in finals]] = True
        if finals:
            starts[side] = first + graph.dfa.start
    members = [_members(chars) for chars in arrays.chars]
    mt = _generator(random.Random(seed))
    sides, lengths, codes = kernels.coin_flips(
        arrays.offsets,
        arrays.heads,
        goals,
        starts,
        np.cumsum([len(m) for m in members], dtype=np.int64),
        _code_points("".join(members)),
        size,
        max_len,
        mt,
    )
    text = codes.astype(np.uint32).tobytes().decode("utf-32-le", "surrogatepass")
    return [
        Example(text[i * max_len : i * max_len + length], side == 0)
        for i, (side, length) in enumerate(zip(sides.tolist(), lengths.tolist()))
    ]


def _code_points(text: str) -> Int64Array:
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32).astype(
        np.int64
    )
