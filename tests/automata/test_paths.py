"""Loop-free accepting paths against a brute-force enumeration of simple paths."""

from __future__ import annotations

import itertools
import random
from itertools import zip_longest

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from automata.building.compile import from_text
from automata.core.dfa import DFA, coreachable
from automata.strings.paths import Path, StatePath, accepting_paths, diverse_order, steps_from
from regexlang.charset import CharSet
from tests.automata.test_counting import acceptor, dfa_from_rows, dfas


def all_simple_accepting_paths(dfa: DFA, max_len: int) -> set[tuple[int, ...]]:
    """Every state sequence from the start to an accepting state with no repeated state."""
    rows = dfa.transitions.tolist()
    found: set[tuple[int, ...]] = set()

    def walk(path: tuple[int, ...]) -> None:
        if dfa.accepting[path[-1]]:
            found.add(path)
        if len(path) > max_len:
            return
        for target in set(rows[path[-1]]):
            if target not in path:
                walk((*path, target))

    walk((dfa.start,))
    return {p for p in found if len(p) - 1 <= max_len}


def check_path(dfa: DFA, path: Path) -> None:
    states = path.states
    assert states[0] == dfa.start and dfa.accepting[states[-1]]
    assert len(set(states)) == len(states)
    for step in path.steps:
        assert step.chars == CharSet(
            tuple(iv for k in step.classes for iv in dfa.alphabet.classes[k].intervals)
        )
        assert all(dfa.transitions[step.source, k] == step.target for k in step.classes)
        others = [k for k in range(len(dfa.alphabet)) if k not in step.classes]
        assert all(dfa.transitions[step.source, k] != step.target for k in others)


@settings(max_examples=150)
@given(dfas(), st.integers(0, 100))
def test_complete_search_finds_exactly_the_simple_accepting_paths(dfa: DFA, seed: int) -> None:
    paths = accepting_paths(dfa, max_paths=10_000, max_expansions=10_000, seed=seed)
    for path in paths:
        check_path(dfa, path)
    assert len({p.states for p in paths}) == len(paths)
    assert {p.states for p in paths} == all_simple_accepting_paths(dfa, 32)


@settings(max_examples=100)
@given(dfas(max_states=4), st.integers(0, 100))
def test_every_string_of_every_path_is_accepted(dfa: DFA, seed: int) -> None:
    accepts = acceptor(dfa)
    rng = np.random.default_rng(seed)
    for path in accepting_paths(dfa, max_paths=20, seed=seed):
        strings = [
            "".join(chars) for chars in itertools.product(*(step.chars for step in path.steps))
        ]
        assert len(strings) == path.size() and all(map(accepts, strings))
        assert path.representative() in strings and path.random_string(rng) in strings


@settings(max_examples=100)
@given(
    dfas(max_states=6), st.integers(1, 6), st.integers(1, 6), st.integers(1, 8), st.integers(1, 4)
)
def test_budgets_are_respected(
    dfa: DFA, max_paths: int, max_len: int, max_expansions: int, max_frontier: int
) -> None:
    paths = accepting_paths(
        dfa,
        max_paths=max_paths,
        max_len=max_len,
        max_expansions=max_expansions,
        max_frontier=max_frontier,
    )
    assert len(paths) <= max_paths
    assert all(len(p) <= max_len for p in paths)
    # Each expansion adds at most one path per class, and only up to depth max_expansions.
    assert len(paths) <= 1 + max_expansions * len(dfa.alphabet)
    assert all(len(p) <= max_expansions for p in paths)
    for path in paths:
        check_path(dfa, path)


def test_same_seed_same_order_and_diverse_first_steps() -> None:
    # From the start, a b c d each lead to their own branch; each branch has several paths.
    rows = [[1, 2, 3, 4, 9]] + [[5, 6, 7, 8, 9] for _ in range(8)] + [[9] * 5]
    accepting = [False, False, False, False, False, True, True, True, True, False]
    dfa = dfa_from_rows(rows, accepting, ["a", "b", "c", "d", "e"])
    first = accepting_paths(dfa, max_paths=8, seed=1)
    assert [p.states for p in first] == [
        p.states for p in accepting_paths(dfa, max_paths=8, seed=1)
    ]
    assert {p.states[1] for p in first[:4]} == {1, 2, 3, 4}
    reordered = accepting_paths(dfa, max_paths=1000, seed=2)
    assert {p.states for p in accepting_paths(dfa, max_paths=1000, seed=1)} == {
        p.states for p in reordered
    }
    assert len(reordered) == 4 * (4 + 4 * 3 + 4 * 3 * 2 + 4 * 3 * 2 * 1)


def test_super_characters_group_classes_by_target() -> None:
    dfa = dfa_from_rows([[1, 1, 0], [1, 1, 1]], [False, True], ["a", "bc", "d"])
    steps = steps_from(dfa, 0)
    assert [(s.target, s.chars) for s in steps] == [(1, CharSet.of("abc")), (0, CharSet.of("d"))]
    [path] = accepting_paths(dfa)
    assert path.representative() == "a" and path.size() == 3


def test_no_paths_when_nothing_is_accepted_and_empty_path_for_epsilon() -> None:
    dead = dfa_from_rows([[0, 0]], [False], ["a", "b"])
    assert accepting_paths(dead) == []
    assert not coreachable(dead).any()
    only_empty = dfa_from_rows([[1, 1], [1, 1]], [True, False], ["a", "b"])
    [path] = accepting_paths(only_empty)
    assert path.states == (0,) and path.representative() == "" and path.size() == 1


def _recursive_round_robin(
    paths: list[StatePath], depth: int, draw: random.Random
) -> list[StatePath]:
    """The diverse order as the module docstring defines it, written as the plain recursion."""
    if len(paths) <= 1:
        return paths
    ends_here = [p for p in paths if len(p) == depth]
    branches: dict[int, list[StatePath]] = {}
    for p in paths:
        if len(p) > depth:
            branches.setdefault(p[depth], []).append(p)
    keys = list(branches)
    draw.shuffle(keys)
    ordered = [_recursive_round_robin(branches[key], depth + 1, draw) for key in keys]
    return ends_here + [
        p for layer in zip_longest(*ordered) for p in sorted(filter(None, layer), key=len)
    ]


@settings(max_examples=200)
@given(
    st.sets(st.lists(st.integers(1, 4), max_size=6).map(lambda tail: (0, *tail)), max_size=30),
    st.integers(0, 9),
)
def test_diverse_order_is_the_recursive_definition(paths: set[StatePath], seed: int) -> None:
    given_order = sorted(paths)
    assert diverse_order(given_order, random.Random(seed)) == _recursive_round_robin(
        given_order, 1, random.Random(seed)
    )


def test_paths_sharing_a_prefix_longer_than_the_recursion_limit() -> None:
    dfa = from_text("a{1500}(b|cd)", "extended")
    found = accepting_paths(dfa, max_len=2000)
    assert sorted(path.representative() for path in found) == ["a" * 1500 + "b", "a" * 1500 + "cd"]
