"""Degree of ambiguity of the failing search graph: exponential (EDA), polynomial of degree k (IDA
chains), or finite, each with the words that pump it.

The criteria are Weber and Seidl's (1991), as tested by Allauzen, Mohri and Rastogi (2008) and used
for ReDoS by Wüstholz et al. (2017, Rexploiter) and recheck:

* **EDA**: a node with two distinct cycles reading the same word. Within one strongly connected
  component that is an edge taken by two routes, or, in the product of the component with itself
  (pairs of nodes stepping on the same class), a pair-component that holds both a diagonal node
  ``(x, x)`` and an off-diagonal one. The pump goes from ``(x, x)`` through the off-diagonal node
  and back.
* **IDA**: two nodes ``x ≠ y`` in different components with cycles ``x → x``, ``y → y`` and a path
  ``x → y`` all reading one word ``w``: ``(x, x, y)`` reaches ``(x, y, y)`` in the triple product.
  Pumping ``w`` n times gives n paths; a chain of k such pairs, one after another, gives n^k paths,
  and the engine spends n^(k+1) steps on a failing text (each path is walked to its end).

Every search is bounded by a step budget and raises ``StateLimitExceeded`` past it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable

import attrs

from automata.errors import StateLimitExceeded
from automata.redos.graph import Graph

#: Steps (pair or triple nodes visited) the searches may take by default.
DEFAULT_STEP_LIMIT = 400_000


@attrs.frozen
class Pump:
    """Pumping ``word`` (classes) at node ``start`` multiplies paths; ``end`` is where the extra
    paths end (``start`` itself for an exponential pump)."""

    start: int
    end: int
    word: tuple[int, ...]


@attrs.frozen
class Ambiguity:
    """``exponential`` with its pump, or the longest chain of polynomial pumps (empty: finite)."""

    exponential: Pump | None
    chain: tuple[Pump, ...]


class _Budget:
    def __init__(self, limit: int) -> None:
        self.left = limit
        self.limit = limit

    def spend(self, steps: int = 1) -> None:
        self.left -= steps
        if self.left < 0:
            raise StateLimitExceeded("the ambiguity search", self.limit, "steps")


def components(graph: Graph) -> list[int]:
    """The strongly connected component of each node (iterative Tarjan; components numbered in
    reverse topological order, so an edge never leads to a higher number)."""
    n = len(graph.nodes)
    order = [-1] * n
    low = [0] * n
    comp = [-1] * n
    stack: list[int] = []
    on_stack = [False] * n
    counter = 0
    count = 0
    for root in range(n):
        if order[root] >= 0:
            continue
        work = [(root, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                order[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack[node] = True
            edges = graph.edges[node]
            if i < len(edges):
                work.append((node, i + 1))
                target = edges[i][1]
                if order[target] < 0:
                    work.append((target, 0))
                elif on_stack[target]:
                    low[node] = min(low[node], order[target])
                continue
            if low[node] == order[node]:
                while True:
                    member = stack.pop()
                    on_stack[member] = False
                    comp[member] = count
                    if member == node:
                        break
                count += 1
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return comp


def analyse(graph: Graph, limit: int = DEFAULT_STEP_LIMIT) -> Ambiguity:
    """The ambiguity of ``graph``: an exponential pump if there is one, else the longest IDA chain."""
    budget = _Budget(limit)
    comp = components(graph)
    members: dict[int, list[int]] = {}
    for node, c in enumerate(comp):
        members.setdefault(c, []).append(node)
    cyclic = [
        c
        for c, nodes in members.items()
        if len(nodes) > 1 or any(t == nodes[0] for _, t in graph.edges[nodes[0]])
    ]
    for c in cyclic:
        pump = _exponential(graph, comp, c, members[c], budget)
        if pump is not None:
            return Ambiguity(pump, ())
    return Ambiguity(None, _longest_chain(graph, comp, members, sorted(cyclic), budget))


def _inside(graph: Graph, comp: list[int], c: int, node: int) -> list[tuple[int, int]]:
    return [(cls, t) for cls, t in graph.edges[node] if comp[t] == c]


def _exponential(
    graph: Graph, comp: list[int], c: int, nodes: list[int], budget: _Budget
) -> Pump | None:
    for node in nodes:
        inside = _inside(graph, comp, c, node)
        for edge in set(inside):
            if inside.count(edge) > 1:
                cls, target = edge
                back = _path(graph, comp, c, target, node, budget)
                return Pump(node, node, (cls, *back))

    def step(pair: tuple[int, ...]) -> Iterable[tuple[int, tuple[int, ...]]]:
        a, b = pair
        right = _inside(graph, comp, c, b)
        for cls, x in _inside(graph, comp, c, a):
            for cls2, y in right:
                if cls == cls2:
                    yield cls, (x, y)

    for node in nodes:
        start = (node, node)
        reached = _search(start, step, budget)
        for pair in reached:
            if pair[0] != pair[1]:
                returned = _search(pair, step, budget)
                if start in returned:
                    word = _unwind(reached, start, pair) + _unwind(returned, pair, start)
                    return Pump(node, node, tuple(word))
    return None


Parents = dict[tuple[int, ...], tuple[tuple[int, ...], int]]


def _search(
    start: tuple[int, ...],
    step: Callable[[tuple[int, ...]], Iterable[tuple[int, tuple[int, ...]]]],
    budget: _Budget,
) -> Parents:
    """Every product node reachable from ``start`` in at least one step, with a parent each."""
    parents: Parents = {}
    queue = deque([start])
    while queue:
        current = queue.popleft()
        for cls, nxt in step(current):
            budget.spend()
            if nxt not in parents:
                parents[nxt] = (current, cls)
                queue.append(nxt)
    return parents


def _unwind(parents: Parents, start: tuple[int, ...], end: tuple[int, ...]) -> list[int]:
    """Classes on the search tree's path from ``start`` to ``end`` (at least one step)."""
    word: list[int] = []
    current = end
    while True:
        previous, cls = parents[current]
        word.append(cls)
        if previous == start:
            return word[::-1]
        current = previous


def _path(
    graph: Graph, comp: list[int] | None, c: int, source: int, target: int, budget: _Budget
) -> list[int]:
    """Classes of a shortest path from ``source`` to ``target`` (inside component ``c`` when
    ``comp`` is given)."""
    if source == target:
        return []

    def step(node: tuple[int, ...]) -> Iterable[tuple[int, tuple[int, ...]]]:
        edges = graph.edges[node[0]] if comp is None else _inside(graph, comp, c, node[0])
        for cls, t in edges:
            yield cls, (t,)

    return _unwind(_search((source,), step, budget), (source,), (target,))


def path(graph: Graph, source: int, target: int) -> list[int]:
    """Classes of a shortest path from node ``source`` to node ``target``."""
    return _path(graph, None, 0, source, target, _Budget(DEFAULT_STEP_LIMIT))


def _reach(graph: Graph, comp: list[int]) -> list[set[int]]:
    """The components reachable from each component (itself included)."""
    n = max(comp, default=-1) + 1
    successors: list[set[int]] = [set() for _ in range(n)]
    for node, edges in enumerate(graph.edges):
        for _, t in edges:
            if comp[t] != comp[node]:
                successors[comp[node]].add(comp[t])
    reach: list[set[int]] = []
    for c in range(n):  # successors have lower numbers
        reached = {c}
        for succ in successors[c]:
            reached |= reach[succ]
        reach.append(reached)
    return reach


def _polynomial(
    graph: Graph,
    comp: list[int],
    members: dict[int, list[int]],
    pair: tuple[int, int],
    reach: list[set[int]],
    budget: _Budget,
) -> Pump | None:
    """A pump from a node of the first component to a node of the second (IDA), if any."""
    first, second = pair
    between = {c for c in reach[first] if second in reach[c]}

    def step(triple: tuple[int, ...]) -> Iterable[tuple[int, tuple[int, ...]]]:
        a, b, c = triple
        middle = [(cls, t) for cls, t in graph.edges[b] if comp[t] in between]
        right = _inside(graph, comp, second, c)
        for cls, x in _inside(graph, comp, first, a):
            for cls2, y in middle:
                if cls2 == cls:
                    for cls3, z in right:
                        if cls3 == cls:
                            yield cls, (x, y, z)

    for x in members[first]:
        for y in members[second]:
            start = (x, x, y)
            reached = _search(start, step, budget)
            if (x, y, y) in reached:
                return Pump(x, y, tuple(_unwind(reached, start, (x, y, y))))
    return None


def _longest_chain(
    graph: Graph,
    comp: list[int],
    members: dict[int, list[int]],
    cyclic: list[int],
    budget: _Budget,
) -> tuple[Pump, ...]:
    """The longest chain of IDA pumps, each starting in a component the previous one's end
    reaches (components in topological order: highest number first)."""
    reach = _reach(graph, comp)
    ending: dict[int, tuple[Pump, ...]] = {}  # best chain whose last pump ends in the component
    for second in sorted(cyclic, reverse=True):
        best: tuple[Pump, ...] = ()
        for first in cyclic:
            if first == second or second not in reach[first]:
                continue
            before = max((ending[c] for c in ending if first in reach[c]), key=len, default=())
            if len(before) + 1 <= len(best):
                continue
            pump = _polynomial(graph, comp, members, (first, second), reach, budget)
            if pump is not None:
                best = (*before, pump)
        ending[second] = best
    return max(ending.values(), key=len, default=())
