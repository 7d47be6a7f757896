"""The failing search graph: the backtracking search space paired with the exact automaton of the
language, kept only where the text can still fail to match.

An attack must make the engine fail, or it stops at the first match and explores nothing. Pairing
each position of :mod:`automata.redos.space` with the state of the minimal DFA of the matched
language (``M`` = the pattern for ``fullmatch``, pattern·Σ* for ``match``, Σ*·pattern·Σ* for
``search``) tracks what the text read so far allows; a node whose DFA state accepts every
continuation is dropped, since no suffix could make that text fail. Every path left can be
extended by a suffix the engine rejects (the shortest one is :func:`escape`), so the paths of this
graph are exactly the ones a failing search explores. The DFA is deterministic, so pairing keeps
the path counts of the space. Edges are labelled by the DFA alphabet's classes. A route that crosses
an assertion is taken only on the classes where the assertion holds, given the context of the node
it leaves (the start, or what the class read into it says about the previous character); a
``$`` that holds only before a final newline is taken on that newline (the text may end there).
"""

from __future__ import annotations

from collections import deque

import attrs

from automata.building import assertions
from automata.building.deadline import Deadline
from automata.core.dfa import DFA, coreachable_states
from automata.errors import StateLimitExceeded
from automata.redos.space import Guard, Space
from regexlang.ast import AssertKind
from regexlang.charset import CharSet
from regexlang.unicode_classes import word_chars

_WORD_KINDS = frozenset({AssertKind.WORD_BOUNDARY, AssertKind.NOT_WORD_BOUNDARY})

#: Nodes the failing graph may have by default.
DEFAULT_NODE_LIMIT = 50_000

#: Nodes between two looks at the clock.
_CLOCK_EVERY = 256

#: One edge: (class, target node); an edge listed twice is two routes.
Edge = tuple[int, int]


@attrs.frozen(eq=False)
class Graph:
    """Nodes are (position, DFA state) pairs, node 0 the start; ``edges[n]`` lists the edges out of
    node ``n`` (one entry per route); ``parent[n]`` is (node, class) on a shortest path from 0."""

    nodes: tuple[tuple[int, int], ...]
    edges: tuple[tuple[Edge, ...], ...]
    parent: tuple[tuple[int, int], ...]
    dfa: DFA
    escapable: tuple[bool, ...]

    def word(self, classes: list[int]) -> str:
        """A string of representatives of ``classes`` (printable ones where a class has them)."""
        return "".join(representative(self.dfa.alphabet.classes[c]) for c in classes)

    def path_to(self, node: int) -> list[int]:
        """Classes on a shortest path from the start to ``node``."""
        classes: list[int] = []
        while node != 0:
            node, cls = self.parent[node]
            classes.append(cls)
        return classes[::-1]


def representative(chars: CharSet) -> str:
    """A character of ``chars``, a printable ASCII one when there is one."""
    for char in "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ _-.,:;!#@\n":
        if char in chars:
            return char
    return chars.first()


def build(
    space: Space, dfa: DFA, limit: int = DEFAULT_NODE_LIMIT, deadline: Deadline | None = None
) -> Graph:
    """The failing graph of ``space`` against ``dfa`` (whose alphabet refines every set and guard
    of the space, and word characters and newline when a route crosses an assertion). Raises
    ``StateLimitExceeded`` past ``limit`` nodes and ``TimeLimitExceeded`` past ``deadline``."""
    rows = dfa.transitions.tolist()
    escapable = coreachable_states(rows, [not bool(a) for a in dfa.accepting])
    classes = dfa.alphabet.classes
    masks = [_mask_of(chars, classes) for chars in space.sets]
    routes = _Routes(classes, space.asserts)
    index = {(0, dfa.start, assertions.AT_START): 0}
    nodes = [(0, dfa.start)]
    contexts = [assertions.AT_START]
    parent = [(0, -1)]
    edges: list[tuple[Edge, ...]] = []
    if not escapable[dfa.start]:
        return Graph((), (), (), dfa, tuple(escapable))
    queue = deque([0])
    while queue:
        node = queue.popleft()
        if deadline is not None and node % _CLOCK_EVERY == 0:
            deadline.check("the failing search graph")
        position, state = nodes[node]
        row = rows[state]
        out: list[Edge] = []
        for target, guard in space.links[position]:
            allowed = masks[target] & routes.allowed(guard, contexts[node])
            for cls in _bits(allowed):
                nxt = row[cls]
                if not escapable[nxt]:
                    continue
                key = (target, nxt, routes.after[cls])
                found = index.get(key)
                if found is None:
                    if len(nodes) >= limit:
                        raise StateLimitExceeded("the failing search graph", limit, "nodes")
                    found = index[key] = len(nodes)
                    nodes.append((target, nxt))
                    contexts.append(routes.after[cls])
                    parent.append((node, cls))
                    queue.append(found)
                out.append((cls, found))
        edges.append(tuple(out))
    return Graph(tuple(nodes), tuple(edges), tuple(parent), dfa, tuple(escapable))


class _Routes:
    """Which classes a route may read next, by its guard and the context before it: the context
    after each class (what an assertion asks of the previous character, kept only for the kinds the
    space crosses, so a space without them pairs each position and state once)."""

    def __init__(self, classes: tuple[CharSet, ...], kinds: frozenset[AssertKind]) -> None:
        self.classes = classes
        words, newline = word_chars(), assertions.NEWLINE
        self.ahead = [
            (assertions.NEXT_WORD if c.issubset(words) else 0)
            | (assertions.NEXT_NEWLINE if c.issubset(newline) else 0)
            for c in classes
        ]
        keep_word = bool(kinds & _WORD_KINDS)
        keep_newline = AssertKind.LINE_START in kinds
        self.after = [
            (assertions.PREV_WORD if keep_word and look & assertions.NEXT_WORD else 0)
            | (assertions.PREV_NEWLINE if keep_newline and look & assertions.NEXT_NEWLINE else 0)
            for look in self.ahead
        ]
        self.cache: dict[tuple[Guard, int], int] = {}

    def allowed(self, guard: Guard, context: int) -> int:
        """The classes (a bit mask) a route with ``guard`` may read from ``context``."""
        key = (guard, context if guard.asserts else 0)
        found = self.cache.get(key)
        if found is None:
            mask = ~_mask_of(guard.forbidden, self.classes) if guard.forbidden else -1
            for cls, look in enumerate(self.ahead):
                if any(
                    assertions.verdict(kind, context, look) == assertions.FAIL
                    for kind in guard.asserts
                ):
                    mask &= ~(1 << cls)
            found = self.cache[key] = mask
        return found


def _mask_of(chars: CharSet, classes: tuple[CharSet, ...]) -> int:
    mask = 0
    for cls, members in enumerate(classes):
        if members.issubset(chars):
            mask |= 1 << cls
    return mask


def _bits(mask: int) -> list[int]:
    bits = []
    while mask:
        low = mask & -mask
        bits.append(low.bit_length() - 1)
        mask ^= low
    return bits


def escape(graph: Graph, state: int) -> list[int]:
    """Classes of a shortest word leading ``state`` of the DFA to a rejecting state."""
    rows = graph.dfa.transitions.tolist()
    seen = {state: (state, -1)}
    queue = deque([state])
    while queue:
        current = queue.popleft()
        if not graph.dfa.accepting[current]:
            word: list[int] = []
            while current != state:
                current, cls = seen[current]
                word.append(cls)
            return word[::-1]
        for cls, nxt in enumerate(rows[current]):
            if nxt not in seen:
                seen[nxt] = (current, cls)
                queue.append(nxt)
    raise ValueError("the state accepts every continuation")
