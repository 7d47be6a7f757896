"""The strongly connected components of a graph, compiled: one labelling serves the DFA's
infinite-language test (:func:`automata.core.dfa.infinite`), the ReDoS ambiguity search
(:mod:`automata.redos.ambiguity`) and the learner's test of which loops the examples pump.

The graph is given as successor lists (:func:`strongly_connected`) or as a transition table
(:func:`table_components`, ``-1`` for a missing edge); both come to one kernel over the graph's
edges in compressed rows. Components are numbered as Tarjan's algorithm completes them, in reverse
topological order: an edge never leads to a higher number, so a pass over the components in
increasing order sees every component a component reaches before it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from automata.jit._jit import kernel
from automata.jit.arrays import Int64Array, IntArray


def strongly_connected(successors: Sequence[Iterable[int]]) -> list[int]:
    """The component of each node of a graph given by its successor lists."""
    lists = [list(s) for s in successors]
    offsets = np.zeros(len(lists) + 1, dtype=np.int64)
    np.cumsum([len(s) for s in lists], out=offsets[1:])
    heads = np.fromiter((t for s in lists for t in s), dtype=np.int32, count=int(offsets[-1]))
    labels: list[int] = _labels(offsets, heads).tolist()
    return labels


def table_components(transitions: IntArray) -> Int64Array:
    """The component of each state of a transition table (``int32[n_states, width]``; a negative
    cell is no edge), read in place: row ``s`` is the edges of ``s``."""
    table = np.ascontiguousarray(transitions, dtype=np.int32)
    n, width = table.shape
    return _labels(np.arange(n + 1, dtype=np.int64) * width, table.reshape(-1))


def cyclic(labels: Sequence[int], successors: Sequence[Iterable[int]]) -> set[int]:
    """The components of ``labels`` (of the graph given by its ``successors``) that hold a cycle:
    two members or more, or one with an edge to itself."""
    sizes = np.bincount(np.asarray(labels, dtype=np.int64))
    found = {int(c) for c in np.flatnonzero(sizes > 1)}
    found.update(labels[node] for node, targets in enumerate(successors) if node in targets)
    return found


@kernel
def _labels(offsets: Int64Array, heads: IntArray) -> Int64Array:
    """Tarjan's algorithm, iteratively, over the edges ``heads[offsets[v]:offsets[v + 1]]`` of each
    node ``v`` (``int32``; a negative head is no edge): each node's component, numbered in the
    order they complete."""
    n = len(offsets) - 1
    index = np.empty(n, dtype=np.int64)
    low = np.empty(n, dtype=np.int64)
    labels = np.empty(n, dtype=np.int64)
    for v in range(n):  # loops: numba compiles ``np.full`` slowly
        index[v] = -1
    on_stack = np.zeros(n, dtype=np.bool_)
    members = np.empty(n, dtype=np.int64)  # Tarjan's stack
    path = np.empty(n, dtype=np.int64)  # the walk's stack: a node and its next edge
    edge = np.empty(n, dtype=np.int64)
    counter, count, n_members = 0, 0, 0
    for root in range(n):
        if index[root] >= 0:
            continue
        index[root] = low[root] = counter
        counter += 1
        members[n_members] = root
        n_members += 1
        on_stack[root] = True
        path[0], edge[0], depth = root, offsets[root], 1
        while depth:
            node = path[depth - 1]
            e = edge[depth - 1]
            if e < offsets[node + 1]:
                edge[depth - 1] = e + 1
                target = heads[e]
                if target < 0:
                    continue
                if index[target] < 0:
                    index[target] = low[target] = counter
                    counter += 1
                    members[n_members] = target
                    n_members += 1
                    on_stack[target] = True
                    path[depth], edge[depth] = target, offsets[target]
                    depth += 1
                elif on_stack[target] and index[target] < low[node]:
                    low[node] = index[target]
                continue
            depth -= 1
            if depth and low[node] < low[path[depth - 1]]:
                low[path[depth - 1]] = low[node]
            if low[node] != index[node]:
                continue
            while True:
                n_members -= 1
                member = members[n_members]
                on_stack[member] = False
                labels[member] = count
                if member == node:
                    break
            count += 1
    return labels
