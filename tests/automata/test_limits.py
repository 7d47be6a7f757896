"""State limits stop blow-ups early, with a message that says what and how to allow more."""

from __future__ import annotations

import resource
import time

import pytest

from automata import ops
from automata.compile import compile_regex, from_text
from automata.alphabet import partition_with_members
from automata.determinize import determinize
from automata.dfa import DFA
from automata.errors import StateLimitExceeded
from automata.nfa import thompson
from regexlang import ast as A
from regexlang.charset import SIMPLE_ALPHABET, CharSet


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def test_exponential_determinization_stops_fast_and_small() -> None:
    # The bound is a hang detector (the stop takes ~0.2 s), so numba's one-off JIT must be paid before
    # the clock starts: run the same path once with a tiny limit.
    with pytest.raises(StateLimitExceeded):
        from_text("(a|b)*a(a|b){30}", "python", state_limit=1_000)
    before = _peak_rss_mb()
    started = time.perf_counter()
    with pytest.raises(StateLimitExceeded, match=r"200,000 states; pass a larger state_limit="):
        from_text("(a|b)*a(a|b){30}", "python")
    assert time.perf_counter() - started < 5
    assert _peak_rss_mb() - before < 500


def test_the_same_regex_fits_a_raised_limit_when_small_enough() -> None:
    dfa = from_text("(a|b)*a(a|b){8}", "python", state_limit=1_000)
    assert ops.num_states(dfa) == 2**9
    with pytest.raises(StateLimitExceeded, match="more than 100 states"):
        from_text("(a|b)*a(a|b){8}", "python", state_limit=100)


def test_long_counted_repetition_compiles_within_the_limit() -> None:
    started = time.perf_counter()
    dfa = from_text("a{100000}", "python")
    assert time.perf_counter() - started < 5
    assert ops.num_states(dfa) == 100_001
    assert ops.accepts(dfa, "a" * 100_000) and not ops.accepts(dfa, "a" * 99_999)


def test_nfa_size_is_capped_before_expansion_runs_away() -> None:
    started = time.perf_counter()
    with pytest.raises(StateLimitExceeded, match="Thompson NFA"):
        from_text("(a{1000}){1000}", "python")
    with pytest.raises(StateLimitExceeded, match="Thompson NFA"):
        compile_regex(A.Repeat(A.literal("a"), 10**9, None), SIMPLE_ALPHABET)
    assert time.perf_counter() - started < 5


def test_stored_item_budget_is_enforced() -> None:
    # Few DFA states but hundreds of NFA states in each: the memory budget trips first.
    regex = A.Repeat(A.Optional(A.literal("a")), 600, 600)
    alphabet, members = partition_with_members(SIMPLE_ALPHABET, [CharSet.of("a")])
    nfa = thompson(regex, alphabet, members, _no_nesting, state_limit=10_000)
    with pytest.raises(StateLimitExceeded, match="stored NFA states"):
        determinize(nfa, state_limit=2)
    assert determinize(nfa, state_limit=1_000).n_states == 602


def _no_nesting(node: object) -> DFA:
    raise AssertionError("no intersection or complement here")


def test_products_and_searches_respect_the_limit() -> None:
    left = from_text("(a|b)*a(a|b){6}", "python")
    right = from_text("(a|b)*b(a|b){6}", "python")
    with pytest.raises(StateLimitExceeded, match="product automaton"):
        ops.intersection(left, right, state_limit=50)
    longer = from_text("(a|b)*a(a|b){7}", "python")
    with pytest.raises(StateLimitExceeded, match="distinguishing string"):
        ops.equivalence_witness(left, longer, state_limit=50)
    assert ops.equivalence_witness(left, longer) is not None
