"""Hopcroft minimization of arbitrary tables against brute-force Myhill–Nerode classes.

Random tables (unreachable states, several dead states, missing transitions as -1) are minimized;
the result must accept the same class strings, and its size must be the number of distinct
*residual languages* among reachable states, computed by running every short string from each
state (in an n-state DFA two states are equivalent iff they agree on all strings shorter than n).
"""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from automata.algebra.ops import dead_state, num_states
from automata.core.alphabet import partition
from automata.core.dfa import DFA
from automata.core.minimize import minimize
from regexlang.charset import CharSet

ALPHABETS = {
    k: partition(
        CharSet.range("a", chr(ord("a") + k - 1)), [CharSet.of(chr(ord("a") + i)) for i in range(k)]
    )
    for k in (1, 2, 3)
}


@st.composite
def tables(draw: st.DrawFn, *, partial: bool = True) -> DFA:
    n = draw(st.integers(1, 7))
    k = draw(st.integers(1, 3))
    low = -1 if partial else 0
    transitions = np.array(
        draw(st.lists(st.integers(low, n - 1), min_size=n * k, max_size=n * k)), dtype=np.int32
    )
    accepting = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    start = draw(st.integers(0, n - 1))
    return DFA(transitions.reshape(n, k), accepting, start, ALPHABETS[k])


def _run(dfa: DFA, state: int, word: tuple[int, ...]) -> bool:
    for cls in word:
        if state < 0:
            return False
        state = int(dfa.transitions[state, cls])
    return state >= 0 and bool(dfa.accepting[state])


def _words(k: int, max_len: int) -> list[tuple[int, ...]]:
    return [w for n in range(max_len + 1) for w in itertools.product(range(k), repeat=n)]


def _residual_classes(dfa: DFA) -> int:
    """Distinct residual languages among reachable states (the implicit -1 sink included)."""
    k = dfa.transitions.shape[1]
    words = _words(k, dfa.n_states + 1)
    seen, frontier, reachable = {dfa.start}, [dfa.start], []
    while frontier:
        state = frontier.pop()
        reachable.append(state)
        for target in dfa.transitions[state]:
            if target not in seen:
                seen.add(int(target))
                if target >= 0:
                    frontier.append(int(target))
    signatures = {tuple(_run(dfa, s, w) for w in words) for s in seen}
    return len(signatures)


@settings(max_examples=400)
@given(tables())
def test_minimize_preserves_language_and_is_minimal(dfa: DFA) -> None:
    minimal = minimize(dfa)
    k = dfa.transitions.shape[1]
    for word in _words(k, 6):
        assert _run(minimal, minimal.start, word) == _run(dfa, dfa.start, word)
    assert minimal.n_states == _residual_classes(dfa)
    assert (minimal.transitions >= 0).all(), "the result is complete"
    assert minimal.start == 0


@settings(max_examples=200)
@given(tables(partial=False), st.randoms(use_true_random=False))
def test_result_is_canonical(dfa: DFA, rng: object) -> None:
    minimal = minimize(dfa)
    again = minimize(minimal)
    assert np.array_equal(again.transitions, minimal.transitions)
    assert np.array_equal(again.accepting, minimal.accepting)
    permutation = np.arange(dfa.n_states)
    rng.shuffle(permutation)  # type: ignore[attr-defined]
    inverse = np.argsort(permutation)
    shuffled = DFA(
        inverse[dfa.transitions[permutation]].astype(np.int32),
        dfa.accepting[permutation],
        int(inverse[dfa.start]),
        dfa.alphabet,
    )
    renamed = minimize(shuffled)
    assert np.array_equal(renamed.transitions, minimal.transitions)
    assert np.array_equal(renamed.accepting, minimal.accepting)


@settings(max_examples=200)
@given(tables())
def test_dead_state_is_last_and_counted_out(dfa: DFA) -> None:
    minimal = minimize(dfa)
    dead = dead_state(minimal)
    if dead is not None:
        assert dead == minimal.n_states - 1
    assert num_states(dfa) == minimal.n_states - (dead is not None)


def test_unreachable_and_duplicate_dead_states_disappear() -> None:
    # 0 -a-> 1 (accepting); 2 and 3 are unreachable copies; 4 and 5 are two dead states.
    transitions = np.array([[1, 4], [5, 4], [3, 2], [2, 3], [4, 5], [5, 4]], dtype=np.int32)
    accepting = np.array([False, True, True, True, False, False])
    minimal = minimize(DFA(transitions, accepting, 0, ALPHABETS[2]))
    assert minimal.transitions.tolist() == [[1, 2], [2, 2], [2, 2]]
    assert minimal.accepting.tolist() == [False, True, False]


def test_partial_table_gets_one_dead_state() -> None:
    # A partial DFA for a(ba)* whose state 2 repeats state 0: the missing transitions must behave
    # as one dead state, not as self-loops or an accepting sink.
    transitions = np.array([[1, -1], [-1, 2], [1, -1]], dtype=np.int32)
    accepting = np.array([False, True, False])
    minimal = minimize(DFA(transitions, accepting, 0, ALPHABETS[2]))
    assert minimal.transitions.tolist() == [[1, 2], [2, 0], [2, 2]]
    assert minimal.accepting.tolist() == [False, True, False]
    assert num_states(minimal) == 2


def test_empty_language_is_a_single_dead_state() -> None:
    transitions = np.array([[1, 0], [1, 1]], dtype=np.int32)
    minimal = minimize(DFA(transitions, np.array([False, False]), 0, ALPHABETS[2]))
    assert minimal.transitions.tolist() == [[0, 0]] and minimal.accepting.tolist() == [False]
    assert num_states(minimal) == 0


def test_start_state_that_cannot_accept_but_others_can() -> None:
    transitions = np.array([[0, 0], [1, 1]], dtype=np.int32)
    minimal = minimize(DFA(transitions, np.array([False, True]), 0, ALPHABETS[2]))
    assert minimal.n_states == 1 and not minimal.accepting[0]
