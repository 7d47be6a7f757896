"""The failing search graph: the backtracking search space paired with the exact automaton of the
language, kept only where the text can still fail to match.

An attack must make the engine fail, or it stops at the first match and explores nothing. Pairing
each position of :mod:`automata.redos.space` with the state of the minimal DFA of the matched
language (``M`` = the pattern for ``fullmatch``, pattern·Σ* for ``match``, Σ*·pattern·Σ* for
``search``) tracks what the text read so far allows; a node whose DFA state accepts every
continuation is dropped, since no suffix could make that text fail. Every path left can be
extended by a suffix the engine rejects (the shortest one is :func:`escape`), so the paths of this
graph are exactly the ones a failing search explores. The DFA is deterministic, so pairing keeps
the path counts of the space. Edges are labelled by the DFA alphabet's classes.
"""

from __future__ import annotations

from collections import deque

import attrs

from automata.core.dfa import DFA, coreachable_states
from automata.errors import StateLimitExceeded
from automata.redos.space import Space
from regexlang.charset import CharSet

#: Nodes the failing graph may have by default.
DEFAULT_NODE_LIMIT = 50_000

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


def build(space: Space, dfa: DFA, limit: int = DEFAULT_NODE_LIMIT) -> Graph:
    """The failing graph of ``space`` against ``dfa`` (whose alphabet refines every set and guard
    of the space). Raises ``StateLimitExceeded`` past ``limit`` nodes."""
    rows = dfa.transitions.tolist()
    escapable = coreachable_states(rows, [not bool(a) for a in dfa.accepting])
    classes = dfa.alphabet.classes
    masks = [_mask_of(chars, classes) for chars in space.sets]
    guards: dict[CharSet, int] = {}
    index = {(0, dfa.start): 0}
    nodes = [(0, dfa.start)]
    parent = [(0, -1)]
    edges: list[tuple[Edge, ...]] = []
    if not escapable[dfa.start]:
        return Graph((), (), (), dfa, tuple(escapable))
    queue = deque([0])
    while queue:
        node = queue.popleft()
        position, state = nodes[node]
        row = rows[state]
        out: list[Edge] = []
        for target, guard in space.links[position]:
            allowed = masks[target] & ~guards.setdefault(guard, _mask_of(guard, classes))
            for cls in _bits(allowed):
                nxt = row[cls]
                if not escapable[nxt]:
                    continue
                key = (target, nxt)
                found = index.get(key)
                if found is None:
                    if len(nodes) >= limit:
                        raise StateLimitExceeded("the failing search graph", limit, "nodes")
                    found = index[key] = len(nodes)
                    nodes.append(key)
                    parent.append((node, cls))
                    queue.append(found)
                out.append((cls, found))
        edges.append(tuple(out))
    return Graph(tuple(nodes), tuple(edges), tuple(parent), dfa, tuple(escapable))


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
