"""Whether a DFA accepts infinitely many strings, against the pumping bound: a DFA of ``n`` states
accepts infinitely many strings exactly when it accepts one of length ``n`` to ``2n - 1``; run
as plain Python and compiled (:mod:`automata.jit._jit`)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from automata.core.alphabet import partition
from automata.core.dfa import DFA, infinite
from automata.jit import _jit
from regexlang.charset import CharSet

UNIVERSE = CharSet.of("abc")


def _pumped(dfa: DFA) -> bool:
    """Whether ``dfa`` accepts a string of ``n`` to ``2n - 1`` characters (``n``: its states)."""
    n = dfa.n_states
    states = {dfa.start}
    for length in range(1, 2 * n):
        states = {int(t) for s in states for t in dfa.transitions[s]}
        if length >= n and any(dfa.accepting[s] for s in states):
            return True
    return False


@st.composite
def dfas(draw: st.DrawFn) -> DFA:
    alphabet = partition(
        UNIVERSE, [CharSet.of(c) for c in draw(st.sampled_from(["a", "ab", "abc"]))]
    )
    n = draw(st.integers(1, 7))
    table = draw(
        st.lists(
            st.lists(st.integers(0, n - 1), min_size=len(alphabet), max_size=len(alphabet)),
            min_size=n,
            max_size=n,
        )
    )
    accepting = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    start = draw(st.integers(0, n - 1))
    return DFA(np.array(table, dtype=np.int32), np.array(accepting), start, alphabet)


@pytest.mark.parametrize("mode", ["python", "compiled"])
@settings(max_examples=300, deadline=None)
@given(dfas())
def test_infinite_is_the_pumping_bound(mode: str, dfa: DFA) -> None:
    with _jit.forced(mode):  # type: ignore[arg-type]
        assert infinite(dfa) is _pumped(dfa)


def test_a_long_chain_with_a_loop_at_its_end() -> None:
    """Deeper than any recursion: the chain of a long line, looping only past its last state, and
    that loop live or not."""
    n = 50_000
    alphabet = partition(UNIVERSE, [CharSet.of("a")])
    table = np.full((n + 1, len(alphabet)), n, dtype=np.int32)
    table[np.arange(n - 1), 0] = np.arange(1, n)
    table[n - 1, 1] = n - 1  # a loop on the last state of the chain
    accepting = np.zeros(n + 1, dtype=np.bool_)
    assert not infinite(DFA(table, accepting.copy(), 0, alphabet))
    accepting[n - 1] = True
    assert infinite(DFA(table.copy(), accepting, 0, alphabet))
