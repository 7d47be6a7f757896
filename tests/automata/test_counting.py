"""Counting and diff_ratio against brute-force enumeration of short strings.

Also home of the small DFA builders the sampling, paths and to_regex tests share: DFAs are drawn
directly as random tables over a random partition of a few characters, so every test here runs
independently of the regex compiler.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from automata.core.alphabet import partition
from automata.core.dfa import DFA, coreachable
from automata.strings.counting import (
    completions,
    count_by_length,
    diff_ratio,
    log_count_by_length,
)
from regexlang.charset import UNICODE, CharSet
from tests.automata.reference import strings_up_to

UNIVERSE = "abcd"


def dfa_from_rows(
    rows: Sequence[Sequence[int]],
    accepting: Sequence[bool],
    classes: Sequence[str | CharSet],
    start: int = 0,
) -> DFA:
    """A DFA whose column ``k`` reads the characters of ``classes[k]``."""
    sets = [CharSet.of(c) if isinstance(c, str) else c for c in classes]
    universe = CharSet()
    for s in sets:
        universe |= s
    alphabet = partition(universe, sets)
    order = [sets.index(c) for c in alphabet.classes]
    table = np.asarray(rows, dtype=np.int32)[:, order]
    return DFA(
        transitions=np.ascontiguousarray(table),
        accepting=np.asarray(accepting, dtype=np.bool_),
        start=start,
        alphabet=alphabet,
    )


@st.composite
def dfas(draw: st.DrawFn, max_states: int = 5, universe: str = UNIVERSE) -> DFA:
    """Random complete DFAs over a random partition of ``universe`` (classes of size >= 1)."""
    labels = draw(st.lists(st.integers(0, 3), min_size=len(universe), max_size=len(universe)))
    groups: dict[int, str] = {}
    for char, label in zip(universe, labels):
        groups[label] = groups.get(label, "") + char
    classes = list(groups.values())
    n = draw(st.integers(1, max_states))
    row = st.lists(st.integers(0, n - 1), min_size=len(classes), max_size=len(classes))
    rows = draw(st.lists(row, min_size=n, max_size=n))
    accepting = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    return dfa_from_rows(rows, accepting, classes, start=draw(st.integers(0, n - 1)))


def universe_chars(dfa: DFA) -> str:
    return "".join(dfa.alphabet.universe)


def acceptor(dfa: DFA, start: int | None = None) -> Callable[[str], bool]:
    """A plain-Python membership test (one table lookup per character), fast enough for brute force."""
    column = {c: dfa.alphabet.class_of(c) for c in dfa.alphabet.universe}
    rows = dfa.transitions.tolist()
    accepting = dfa.accepting.tolist()
    initial = dfa.start if start is None else start

    def accepts(string: str) -> bool:
        state = initial
        for char in string:
            state = rows[state][column[char]]
        return bool(accepting[state])

    return accepts


@settings(max_examples=150)
@given(dfas())
def test_counts_match_brute_force(dfa: DFA) -> None:
    accepts = acceptor(dfa)
    expected = [0] * 7
    for s in strings_up_to(universe_chars(dfa), 6):
        expected[len(s)] += accepts(s)
    assert count_by_length(dfa, 6) == expected


@settings(max_examples=60)
@given(dfas(), st.integers(0, 6))
def test_completion_rows_count_from_every_state(dfa: DFA, length: int) -> None:
    table = completions(dfa, 6)
    strings = [s for s in strings_up_to(universe_chars(dfa), length) if len(s) == length]
    for state in range(dfa.n_states):
        assert table.count(length, state) == sum(map(acceptor(dfa, state), strings))


def test_unicode_counts_are_exact_beyond_float_range() -> None:
    other = UNICODE - CharSet.of("a")
    # (a | anything else)* and "strings without a": exact powers far past 2**53 and 2**64.
    everything = dfa_from_rows([[0, 0]], [True], ["a", other])
    no_a = dfa_from_rows([[1, 0], [1, 1]], [True, False], ["a", other])
    assert count_by_length(everything, 32) == [0x110000**n for n in range(33)]
    assert count_by_length(no_a, 32) == [(0x110000 - 1) ** n for n in range(33)]
    assert all(type(c) is int for c in count_by_length(no_a, 32))


def test_counts_cross_from_float_to_integers_mid_table() -> None:
    # Over 63 characters the float kernel is exact up to length 8; the rest is Python integers.
    extended = (
        CharSet.range("0", "9")
        | CharSet.range("A", "Z")
        | CharSet.range("a", "z")
        | CharSet.of("#")
    )
    ends_with_hash = dfa_from_rows(
        [[1, 0], [1, 0]], [False, True], ["#", extended - CharSet.of("#")]
    )
    assert count_by_length(ends_with_hash, 20) == [0] + [63 ** (n - 1) for n in range(1, 21)]


@settings(max_examples=150)
@given(dfas(max_states=8))
def test_float_log_counts_follow_the_exact_counts(dfa: DFA) -> None:
    logs = log_count_by_length(dfa, 40)
    for count, log in zip(count_by_length(dfa, 40), logs, strict=True):
        assert (log is None) == (count == 0)
        if count:
            assert log == pytest.approx(math.log2(count), rel=1e-12, abs=1e-12)


def test_float_log_counts_reach_lengths_no_table_holds() -> None:
    # (ab)* over Unicode at length 20,000: a table would need gigabytes; every odd length is None.
    other = UNICODE - CharSet.of("ab")
    pairs = dfa_from_rows(
        [[1, 2, 2], [2, 0, 2], [2, 2, 2]], [True, False, False], ["a", "b", other]
    )
    free = dfa_from_rows([[0, 0]], [True], ["a", UNICODE - CharSet.of("a")])
    logs = log_count_by_length(pairs, 20_000)
    assert logs[::2] == [0.0] * 10_001 and set(logs[1::2]) == {None}
    assert log_count_by_length(free, 20_000)[-1] == pytest.approx(20_000 * math.log2(0x110000))


def test_coreachable_marks_states_that_can_accept() -> None:
    dfa = dfa_from_rows([[1, 2], [1, 1], [3, 2], [3, 3]], [False, False, True, False], ["a", "b"])
    assert coreachable(dfa).tolist() == [True, False, True, False]


@settings(max_examples=80)
@given(dfas(max_states=4), st.data())
def test_diff_ratio_matches_brute_force(a: DFA, data: st.DataObject) -> None:
    b = data.draw(dfas(max_states=4))
    in_a, in_b = acceptor(a), acceptor(b)
    strings = list(strings_up_to(UNIVERSE, 6))
    union = sum(in_a(s) or in_b(s) for s in strings)
    differ = sum(in_a(s) != in_b(s) for s in strings)
    assert diff_ratio(a, b, max_len=6) == (differ / union if union else 0.0)


def test_diff_ratio_of_equal_and_of_empty_languages() -> None:
    a = dfa_from_rows([[1, 0], [1, 0]], [False, True], ["a", "b"])
    empty = dfa_from_rows([[0, 0]], [False], ["a", "b"])
    assert diff_ratio(a, a) == 0.0
    assert diff_ratio(empty, empty) == 0.0
    assert diff_ratio(a, empty) == 1.0
