"""Strongly connected components against reachability, the reference: two nodes share a component
exactly when each reaches the other, and no edge leads to a higher component number; the
interpreted and compiled forms of the kernel agree."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from automata.core.components import cyclic, strongly_connected, table_components
from automata.jit import _jit

graphs = st.integers(1, 9).flatmap(
    lambda n: st.lists(st.lists(st.integers(0, n - 1), max_size=4), min_size=n, max_size=n)
)


def _reaches(successors: list[list[int]]) -> list[set[int]]:
    """For each node, the nodes it reaches by a path of zero or more edges."""
    found = []
    for source in range(len(successors)):
        seen, frontier = {source}, [source]
        while frontier:
            for target in successors[frontier.pop()]:
                if target not in seen:
                    seen.add(target)
                    frontier.append(target)
        found.append(seen)
    return found


@settings(derandomize=True, max_examples=300)
@given(graphs)
def test_components_are_the_classes_of_mutual_reachability_in_reverse_topological_order(
    successors: list[list[int]],
) -> None:
    labels = strongly_connected(successors)
    reaches = _reaches(successors)
    for u in range(len(successors)):
        for v in range(len(successors)):
            assert (labels[u] == labels[v]) == (v in reaches[u] and u in reaches[v])
        assert all(labels[t] <= labels[u] for t in successors[u])
    assert sorted(set(labels)) == list(range(max(labels) + 1))  # numbered 0, 1, ... with no gap
    loops = {
        labels[u] for u in range(len(successors)) if any(u in reaches[t] for t in successors[u])
    }
    assert cyclic(labels, successors) == loops  # a cycle: a non-empty path back to a member


@settings(derandomize=True, max_examples=100)
@given(graphs)
def test_a_table_with_missing_edges_has_the_components_of_its_lists(
    successors: list[list[int]],
) -> None:
    width = max(map(len, successors), default=0) + 1
    table = np.full((len(successors), width), -1, dtype=np.int32)
    for node, targets in enumerate(successors):
        table[node, : len(targets)] = targets
    assert table_components(table).tolist() == strongly_connected(successors)


@settings(derandomize=True, max_examples=50)
@given(graphs)
def test_the_interpreted_and_compiled_kernels_agree(successors: list[list[int]]) -> None:
    with _jit.forced("python"):
        python = strongly_connected(successors)
    with _jit.forced("compiled"):
        compiled = strongly_connected(successors)
    assert python == compiled
