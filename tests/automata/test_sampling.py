"""Sampling against brute force: membership, lengths, uniformity (chi-square), determinism, shortlex."""

from __future__ import annotations

from collections import Counter

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from automata import from_text
from automata.core.dfa import DFA
from automata.strings.counting import count_by_length
from automata.strings.sampling import StringSampler, sample, sample_strings, shortest
from regexlang.charset import UNICODE, CharSet
from tests.automata.reference import strings_up_to
from tests.automata.test_counting import acceptor, dfa_from_rows, dfas

# [ab][cde] (6 strings) | f[ab] (2 strings): classes ab, cde, f, g.
TINY = dfa_from_rows(
    [[1, 4, 2, 4], [4, 3, 4, 4], [3, 4, 4, 4], [4, 4, 4, 4], [4, 4, 4, 4]],
    [False, False, False, True, False],
    ["ab", "cde", "f", "g"],
)
# [ab][cde]f (6 strings) | f[ab]g (2 strings): a sampler that split evenly between the branches
# would draw each of the last two 1/4 of the time instead of 1/8.
TINY_3 = dfa_from_rows(
    [
        [1, 6, 3, 6],
        [6, 2, 6, 6],
        [6, 6, 5, 6],
        [4, 6, 6, 6],
        [6, 6, 6, 5],
        [6, 6, 6, 6],
        [6, 6, 6, 6],
    ],
    [False, False, False, False, False, True, False],
    ["ab", "cde", "f", "g"],
)


def representative_strings(dfa: DFA, max_len: int) -> list[str]:
    reps = "".join(dfa.alphabet.representative(k) for k in range(len(dfa.alphabet)))
    return [s for s in strings_up_to(reps, max_len) if acceptor(dfa)(s)]


@settings(max_examples=100)
@given(
    dfas(),
    st.integers(0, 8),
    st.integers(0, 2**32),
    st.sampled_from(["uniform", "representatives"]),
)
def test_samples_are_accepted_and_have_the_requested_length(
    dfa: DFA, length: int, seed: int, mode: str
) -> None:
    rng = np.random.default_rng(seed)
    string = sample(dfa, length, rng, mode="uniform" if mode == "uniform" else "representatives")
    if count_by_length(dfa, length)[length] == 0:
        assert string is None
    else:
        assert string is not None and len(string) == length and acceptor(dfa)(string)


def test_uniform_over_strings_passes_chi_square() -> None:
    language = [s for s in strings_up_to("abcdefg", 3) if len(s) == 3 and acceptor(TINY_3)(s)]
    rng = np.random.default_rng(12345)
    n = 200 * len(language)
    counts = Counter(sample(TINY_3, 3, rng) for _ in range(n))
    assert set(counts) == set(language)
    expected = n / len(language)
    chi_square = sum((counts[s] - expected) ** 2 / expected for s in language)
    # The 0.999 quantile of chi-square with 8 - 1 degrees of freedom is 24.3.
    assert len(language) == 8 and chi_square < 24.3


def test_representatives_mode_is_uniform_over_class_sequences() -> None:
    rng = np.random.default_rng(7)
    counts = Counter(sample(TINY, 2, rng, mode="representatives") for _ in range(3000))
    assert set(counts) == {"ac", "fa"}
    assert abs(counts["ac"] - 1500) < 150


def test_same_seed_same_strings() -> None:
    first = sample_strings(TINY_3, 20, np.random.default_rng(3), unique=False)
    again = sample_strings(TINY_3, 20, np.random.default_rng(3), unique=False)
    other = sample_strings(TINY_3, 20, np.random.default_rng(4), unique=False)
    assert first == again != other


@settings(max_examples=60)
@given(dfas(max_states=4), st.integers(0, 2**32))
def test_unique_samples_exhaust_small_languages(dfa: DFA, seed: int) -> None:
    language = [s for s in strings_up_to("".join(dfa.alphabet.universe), 4) if acceptor(dfa)(s)]
    drawn = sample_strings(dfa, len(language) + 5, np.random.default_rng(seed), max_len=4)
    assert sorted(drawn) == sorted(language)


def test_representatives_unique_exhausts_class_sequences() -> None:
    drawn = sample_strings(TINY, 10, np.random.default_rng(0), mode="representatives", max_len=5)
    assert sorted(drawn) == sorted(representative_strings(TINY, 5))


def test_length_distributions() -> None:
    # Over {a, b}: a* has one string per length, (a|b)* has 2**n. Uniform lengths see both.
    both = dfa_from_rows([[0, 1], [1, 1]], [True, True], ["a", "b"])
    rng = np.random.default_rng(1)
    uniform = Counter(len(s) for s in sample_strings(both, 2000, rng, max_len=10, unique=False))
    drawn = sample_strings(both, 2000, rng, max_len=10, lengths="proportional", unique=False)
    proportional = Counter(len(s) for s in drawn)
    assert set(uniform) == set(range(11)) and min(uniform.values()) > 100
    assert proportional[10] > 800 and proportional[0] < 10
    assert all(2 <= len(s) <= 3 for s in sample_strings(both, 50, rng, min_len=2, max_len=3))


def test_sampling_over_unicode_uses_exact_big_integers() -> None:
    other = UNICODE - CharSet.of("a")
    no_a = dfa_from_rows([[1, 0], [1, 1]], [True, False], ["a", other])
    rng = np.random.default_rng(5)
    strings = sample_strings(no_a, 50, rng, min_len=20, max_len=20)
    assert len(set(strings)) == 50 and all(len(s) == 20 and "a" not in s for s in strings)


@settings(max_examples=100)
@given(dfas(), st.integers(1, 12))
def test_shortest_matches_shortlex_brute_force(dfa: DFA, k: int) -> None:
    expected = representative_strings(dfa, 5)[:k]
    got = shortest(dfa, k, max_len=5)
    assert got == expected


def test_shortest_of_finite_and_empty_languages() -> None:
    assert shortest(TINY, 10) == ["ac", "fa"]
    empty = dfa_from_rows([[0, 0]], [False], ["a", "b"])
    assert shortest(empty, 3) == []


def test_a_kept_sampler_draws_what_sample_strings_draws() -> None:
    dfa = from_text("(a|bc)*d?", "python")
    kept = StringSampler(dfa, 10)
    for seed in range(5):
        for unique in (True, False):
            expected = sample_strings(
                dfa, 30, np.random.default_rng(seed), max_len=10, min_len=2, unique=unique
            )
            drawn = kept.draw(30, np.random.default_rng(seed), min_len=2, unique=unique)
            assert drawn == expected


@settings(max_examples=60, derandomize=True)
@given(dfas(max_states=4), st.integers(0, 60), st.integers(1, 7), st.booleans())
def test_pieces_are_the_draw_cut_in_doubling_sizes(
    dfa: DFA, n: int, first: int, unique: bool
) -> None:
    kept = StringSampler(dfa, 6)
    whole = kept.draw(n, np.random.default_rng(n), unique=unique)
    pieces = list(kept.pieces(n, np.random.default_rng(n), first=first, unique=unique))
    assert [s for piece in pieces for s in piece] == whole
    assert [len(piece) for piece in pieces[:-1]] == [first * 2**i for i in range(len(pieces) - 1)]


def test_pieces_read_the_generator_once_however_far_they_are_taken() -> None:
    kept = StringSampler(from_text("(a|bc)*d?", "python"), 10)
    taken, untouched = np.random.default_rng(1), np.random.default_rng(1)
    pieces = kept.pieces(40, taken, first=3)
    kept.pieces(40, untouched, first=3)
    assert next(pieces) == kept.draw(3, np.random.default_rng(1))
    assert taken.integers(2**63) == untouched.integers(2**63)
