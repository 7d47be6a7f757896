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

Both are decided with one product each rather than one search per start node: EDA by the
components of the pair product, IDA per component ``S`` of the product of the two components'
cycles (the first and third coordinates of a witness walk a cycle of ``S``) by propagating, through
the triples over ``S``, the set of start pairs ``(x, y)`` that reach each triple (a bitset); the
witness word is then read off one search from a start that reached its end. Every search is bounded
by a step budget and raises ``StateLimitExceeded`` past it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable

import attrs

from automata.building.deadline import Deadline
from automata.core.components import cyclic, strongly_connected
from automata.errors import StateLimitExceeded
from automata.redos.graph import Graph

#: Steps (product edges visited) the searches may take by default.
DEFAULT_STEP_LIMIT = 400_000

#: Successors of a node of a product, grouped by the class read: class → distinct targets.
ByClass = dict[int, tuple[int, ...]]
#: Product edges out of each product node: (class, target index).
Edges = list[list[tuple[int, int]]]


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


#: Steps between two looks at the clock.
_CLOCK_EVERY = 1024


class _Budget:
    """Steps left, and the deadline (looked at every :data:`_CLOCK_EVERY` steps)."""

    def __init__(self, limit: int, deadline: Deadline | None = None) -> None:
        self.left = limit
        self.limit = limit
        self.deadline = deadline
        self.until_clock = 0  # a deadline already passed is noticed at the first step

    def spend(self, steps: int = 1) -> None:
        self.left -= steps
        if self.left < 0:
            raise StateLimitExceeded("the ambiguity search", self.limit, "steps")
        self.until_clock -= steps
        if self.until_clock <= 0 and self.deadline is not None:
            self.until_clock = _CLOCK_EVERY
            self.deadline.check("the ambiguity search")


def _grouped(edges: Iterable[tuple[int, int]], keep: Callable[[int], bool]) -> ByClass:
    by: dict[int, list[int]] = {}
    for cls, t in edges:
        if keep(t):
            targets = by.setdefault(cls, [])
            if t not in targets:
                targets.append(t)
    return {cls: tuple(targets) for cls, targets in by.items()}


def analyse(
    graph: Graph, limit: int = DEFAULT_STEP_LIMIT, deadline: Deadline | None = None
) -> Ambiguity:
    """The ambiguity of ``graph``: an exponential pump if there is one, else the longest IDA chain.

    Raises ``StateLimitExceeded`` past ``limit`` product steps and ``TimeLimitExceeded`` past
    ``deadline``."""
    budget = _Budget(limit, deadline)
    successors = [[t for _, t in edges] for edges in graph.edges]
    comp = strongly_connected(successors)  # numbered in reverse topological order
    inside = [
        _grouped(edges, lambda t, c=comp[node]: comp[t] == c)  # type: ignore[misc]
        for node, edges in enumerate(graph.edges)
    ]
    members: dict[int, list[int]] = {}
    for node, c in enumerate(comp):
        members.setdefault(c, []).append(node)
    loops = sorted(cyclic(comp, successors))
    for c in loops:
        pump = _exponential(graph, comp, inside, members[c], budget)
        if pump is not None:
            return Ambiguity(pump, ())
    chain = _longest_chain(graph, comp, inside, members, loops, budget)
    return Ambiguity(None, chain)


def _product(
    starts: Iterable[tuple[int, ...]],
    step: Callable[[tuple[int, ...]], Iterable[tuple[int, tuple[int, ...]]]],
    budget: _Budget,
) -> tuple[list[tuple[int, ...]], dict[tuple[int, ...], int], Edges]:
    """The part of a product graph reachable from ``starts``: its nodes, their indices and their
    labelled edges."""
    index: dict[tuple[int, ...], int] = {}
    nodes: list[tuple[int, ...]] = []
    for start in starts:
        if start not in index:
            index[start] = len(nodes)
            nodes.append(start)
    edges: Edges = []
    i = 0
    while i < len(nodes):
        out = []
        for cls, nxt in step(nodes[i]):
            budget.spend()
            j = index.get(nxt)
            if j is None:
                j = index[nxt] = len(nodes)
                nodes.append(nxt)
            out.append((cls, j))
        edges.append(out)
        i += 1
    return nodes, index, edges


def _word(edges: Edges, source: int, target: int, keep: Callable[[int], bool]) -> list[int]:
    """Classes of a shortest path of at least one step from ``source`` to ``target`` through
    nodes ``keep`` accepts (one must exist)."""
    parents: dict[int, tuple[int, int]] = {}
    queue = deque([source])
    while queue:
        current = queue.popleft()
        for cls, nxt in edges[current]:
            if nxt in parents or not keep(nxt):
                continue
            parents[nxt] = (current, cls)
            if nxt == target:
                word = []
                node = target
                while True:
                    node, step_cls = parents[node]
                    word.append(step_cls)
                    if node == source:
                        return word[::-1]
            queue.append(nxt)
    raise ValueError("no path between the product nodes")


def _exponential(
    graph: Graph, comp: list[int], inside: list[ByClass], nodes: list[int], budget: _Budget
) -> Pump | None:
    for node in nodes:
        seen: set[tuple[int, int]] = set()
        for cls, target in graph.edges[node]:
            if comp[target] != comp[node]:
                continue
            if (cls, target) in seen:
                return Pump(node, node, (cls, *_inner_path(inside, target, node, budget)))
            seen.add((cls, target))

    def step(pair: tuple[int, ...]) -> Iterable[tuple[int, tuple[int, ...]]]:
        a, b = pair
        right = inside[b]
        for cls, xs in inside[a].items():
            ys = right.get(cls)
            if ys is not None:
                for x in xs:
                    for y in ys:
                        yield cls, (x, y)

    pairs, _, edges = _product(((x, x) for x in nodes), step, budget)
    pair_comp = strongly_connected([[t for _, t in out] for out in edges])
    diagonal: dict[int, int] = {}
    for i, (a, b) in enumerate(pairs):
        if a == b:
            diagonal.setdefault(pair_comp[i], i)
    for i, (a, b) in enumerate(pairs):
        start = diagonal.get(pair_comp[i])
        if a != b and start is not None:
            within = _member_of(pair_comp, pair_comp[i])
            word = _word(edges, start, i, within) + _word(edges, i, start, within)
            x = pairs[start][0]
            return Pump(x, x, tuple(word))
    return None


def _member_of(comp: list[int], c: int) -> Callable[[int], bool]:
    return lambda node: comp[node] == c


def _inner_path(inside: list[ByClass], source: int, target: int, budget: _Budget) -> list[int]:
    """Classes of a shortest path from ``source`` to ``target`` inside their component."""

    def step(node: tuple[int, ...]) -> Iterable[tuple[int, tuple[int, ...]]]:
        for cls, targets in inside[node[0]].items():
            for t in targets:
                yield cls, (t,)

    if source == target:
        return []
    _, index, edges = _product([(source,)], step, budget)
    return _word(edges, 0, index[(target,)], lambda _: True)


def path(graph: Graph, source: int, target: int) -> list[int]:
    """Classes of a shortest path from node ``source`` to node ``target``."""
    every = [_grouped(edges, lambda _: True) for edges in graph.edges]

    def step(node: tuple[int, ...]) -> Iterable[tuple[int, tuple[int, ...]]]:
        for cls, targets in every[node[0]].items():
            for t in targets:
                yield cls, (t,)

    if source == target:
        return []
    _, index, edges = _product([(source,)], step, _Budget(DEFAULT_STEP_LIMIT))
    return _word(edges, 0, index[(target,)], lambda _: True)


def _reach(graph: Graph, comp: list[int], budget: _Budget) -> tuple[list[int], list[int]]:
    """Bit masks of the components reachable from each component, and of those that reach it
    (itself included in both): bits rather than sets, since a long chain of components (a counted
    repeat under a lookahead) would make them quadratic in size."""
    n = max(comp, default=-1) + 1
    successors: list[set[int]] = [set() for _ in range(n)]
    for node, edges in enumerate(graph.edges):
        budget.spend(len(edges))
        for _, t in edges:
            if comp[t] != comp[node]:
                successors[comp[node]].add(comp[t])
    reach = [1 << c for c in range(n)]
    for c in range(n):  # successors have lower numbers
        budget.spend(len(successors[c]))
        for succ in successors[c]:
            reach[c] |= reach[succ]
    reached_by = [1 << c for c in range(n)]
    for c in reversed(range(n)):  # so predecessors come first
        for succ in successors[c]:
            reached_by[succ] |= reached_by[c]
    return reach, reached_by


@attrs.frozen
class _Chains:
    """What the IDA searches share: the graph, its components, their inside edges and members,
    the components each reaches and is reached by (bit masks), and the step budget."""

    graph: Graph
    comp: list[int]
    inside: list[ByClass]
    members: dict[int, list[int]]
    reach: list[int]
    reached_by: list[int]
    budget: _Budget


def _polynomial(chains: _Chains, first: int, second: int) -> Pump | None:
    """A pump from a node of the first component to a node of the second (IDA), if any."""
    inside, comp, budget = chains.inside, chains.comp, chains.budget

    def cycle_step(pair: tuple[int, ...]) -> Iterable[tuple[int, tuple[int, ...]]]:
        a, c = pair
        right = inside[c]
        for cls, xs in inside[a].items():
            zs = right.get(cls)
            if zs is not None:
                for x in xs:
                    for z in zs:
                        yield cls, (x, z)

    starts = ((x, y) for x in chains.members[first] for y in chains.members[second])
    pairs, _, pair_edges = _product(starts, cycle_step, budget)
    successors = [[t for _, t in out] for out in pair_edges]
    pair_comp = strongly_connected(successors)
    between = chains.reach[first] & chains.reached_by[second]
    middle: dict[int, ByClass] = {}

    def middle_of(b: int) -> ByClass:
        found = middle.get(b)
        if found is None:
            found = middle[b] = _grouped(
                chains.graph.edges[b], lambda t: between >> comp[t] & 1 == 1
            )
        return found

    for cycle in sorted(cyclic(pair_comp, successors)):
        ring = [pairs[i] for i in range(len(pairs)) if pair_comp[i] == cycle]
        pump = _ida_in(ring, inside, middle_of, budget)
        if pump is not None:
            return pump
    return None


def _ida_in(
    ring: list[tuple[int, ...]],
    inside: list[ByClass],
    middle_of: Callable[[int], ByClass],
    budget: _Budget,
) -> Pump | None:
    """An IDA pump whose first and third coordinates walk the pair component ``ring``: the start
    pairs ``(x, y)`` that reach each triple are propagated as bits until nothing changes."""
    on_ring = set(ring)

    def step(triple: tuple[int, ...]) -> Iterable[tuple[int, tuple[int, ...]]]:
        a, b, c = triple
        right = inside[c]
        mid = middle_of(b)
        for cls, xs in inside[a].items():
            ys = mid.get(cls)
            zs = right.get(cls)
            if ys is None or zs is None:
                continue
            for x in xs:
                for z in zs:
                    if (x, z) in on_ring:
                        for y in ys:
                            yield cls, (x, y, z)

    starts = [(x, x, y) for x, y in ring]
    triples, index, edges = _product(starts, step, budget)
    origins = [0] * len(triples)
    for bit in range(len(starts)):
        origins[bit] = 1 << bit  # the starts are the first nodes, in order
    queue = deque(range(len(starts)))
    queued = [True] * len(starts) + [False] * (len(triples) - len(starts))
    while queue:
        current = queue.popleft()
        queued[current] = False
        carried = origins[current]
        for _, nxt in edges[current]:
            budget.spend()
            if carried & ~origins[nxt]:
                origins[nxt] |= carried
                if not queued[nxt]:
                    queued[nxt] = True
                    queue.append(nxt)
    for bit, (x, y) in enumerate(ring):
        end = index.get((x, y, y))
        if end is not None and origins[end] >> bit & 1:
            return Pump(x, y, tuple(_word(edges, bit, end, lambda _: True)))
    return None


def _longest_chain(
    graph: Graph,
    comp: list[int],
    inside: list[ByClass],
    members: dict[int, list[int]],
    loops: list[int],
    budget: _Budget,
) -> tuple[Pump, ...]:
    """The longest chain of IDA pumps, each starting in a component the previous one's end
    reaches (components in topological order: highest number first)."""
    reach, reached_by = _reach(graph, comp, budget)
    chains = _Chains(graph, comp, inside, members, reach, reached_by, budget)
    ending: dict[int, tuple[Pump, ...]] = {}  # best chain whose last pump ends in the component
    for second in sorted(loops, reverse=True):
        best: tuple[Pump, ...] = ()
        for first in loops:
            if first == second or not reach[first] >> second & 1:
                continue
            before = max((ending[c] for c in ending if reach[c] >> first & 1), key=len, default=())
            if len(before) + 1 <= len(best):
                continue
            pump = _polynomial(chains, first, second)
            if pump is not None:
                best = (*before, pump)
        ending[second] = best
    return max(ending.values(), key=len, default=())
