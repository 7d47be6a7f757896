"""Walks of difference automata (:mod:`oracle.draws`) against brute-force enumeration with ``re``."""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from automata.algebra.ops import difference
from automata.building.compile import compile_many
from oracle.draws import Edges, SearchTooLarge, random_strings, random_walks, shortest_walks
from oracle.examples import ClusteredExample
from regexlang.charset import EXTENDED_ALPHABET, SIMPLE_ALPHABET, CharSet
from regexlang.dialects import Dialect, parse

PAIRS: list[tuple[Dialect, str, str]] = [
    ("simple", "(a b* + c)*", "(a b + c)*"),
    ("simple", "a (b + c)* a", "a (b + c + a)*"),
    ("simple", "((a b)* c)*", "(a + b)* c*"),
    ("simple", "(a + b + c)* c", "c"),
    ("extended", "[a-c]*b[0-2]?", "[ab]*b"),
    ("extended", "[0-9]{2}", "[0-9]+"),
]
MAX_LEN = 4


def alphabet(dialect: Dialect) -> str:
    return "abc" if dialect == "simple" else "abc012"


def brute_force(dialect: Dialect, target: str, hypothesis: str) -> set[str]:
    """Strings up to MAX_LEN over a small alphabet in ``target`` but not ``hypothesis``, by ``re``."""

    def pattern(text: str) -> re.Pattern[str]:
        return re.compile(text.replace(" ", "").replace("+", "|") if dialect == "simple" else text)

    inside, outside = pattern(target), pattern(hypothesis)
    strings = (
        "".join(t)
        for n in range(MAX_LEN + 1)
        for t in itertools.product(alphabet(dialect), repeat=n)
    )
    return {s for s in strings if inside.fullmatch(s) and not outside.fullmatch(s)}


def diff_of(dialect: Dialect, target: str, hypothesis: str) -> tuple[Edges, CharSet]:
    universe = SIMPLE_ALPHABET if dialect == "simple" else EXTENDED_ALPHABET
    a, b = compile_many([parse(target, dialect), parse(hypothesis, dialect)], universe)
    return Edges(difference(a, b), "step"), universe


def small(chars: tuple[CharSet, ...], dialect: Dialect) -> set[str]:
    """The strings of a walk restricted to the small alphabet of :func:`brute_force`."""
    letters = alphabet(dialect)
    return {"".join(t) for t in itertools.product(*([c for c in letters if c in p] for p in chars))}


@pytest.mark.parametrize(("dialect", "target", "hypothesis"), PAIRS)
def test_shortest_walks_partition_the_witnesses_shortest_first(
    dialect: Dialect, target: str, hypothesis: str
) -> None:
    edges, universe = diff_of(dialect, target, hypothesis)
    walks = list(shortest_walks(edges, MAX_LEN))
    lengths = [len(states) for states, _ in walks]
    assert lengths == sorted(lengths) and len({states for states, _ in walks}) == len(walks)
    covered = [small(chars, dialect) for _, chars in walks]
    union = set().union(*covered)
    assert union == brute_force(dialect, target, hypothesis)
    assert sum(map(len, covered)) == len(union)  # no string is in two walks
    plain = {
        "".join(c.first() for c in chars)
        for _, chars in shortest_walks(Edges(edges.dfa, "class"), MAX_LEN)
    }
    assert plain <= union and {len(s) for s in plain} == {len(s) for s in union}
    assert all(
        isinstance(ClusteredExample(chars, True, universe).text(), str) for _, chars in walks
    )


@pytest.mark.parametrize(("dialect", "target", "hypothesis"), PAIRS)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 40))
def test_random_walks_are_distinct_witnesses(
    dialect: Dialect, target: str, hypothesis: str, seed: int, n: int
) -> None:
    edges, _ = diff_of(dialect, target, hypothesis)
    every = {states for states, _ in shortest_walks(edges, MAX_LEN)}
    walks, listed_all = random_walks(edges, n, MAX_LEN, np.random.default_rng(seed))
    states = [w for w, _ in walks]
    assert len(set(states)) == len(states) and set(states) <= every
    assert len(walks) == (len(every) if listed_all else n)
    witnesses = brute_force(dialect, target, hypothesis)
    assert all(small(chars, dialect) <= witnesses for _, chars in walks)


def test_random_walks_spread_over_lengths() -> None:
    edges, _ = diff_of("extended", "[ab]*", "b[ab]*")  # one walk per length, and far more strings
    walks, listed_all = random_walks(edges, 10, 32, np.random.default_rng(0))
    assert len({len(w) for w, _ in walks}) == len(walks)  # distinct walks here differ in length


def test_tables_past_the_cell_limit_are_refused() -> None:
    edges, _ = diff_of("extended", "[ab]*", "[ab]*a[ab]{6}")
    with pytest.raises(SearchTooLarge, match="max_len"):
        random_walks(edges, 5, 100_000, np.random.default_rng(0))
    assert (
        len(list(itertools.islice(shortest_walks(edges, 100_000), 5))) == 5
    )  # grows only as needed


@pytest.mark.parametrize(("dialect", "target", "hypothesis"), PAIRS)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 40))
def test_random_strings_are_distinct_witnesses(
    dialect: Dialect, target: str, hypothesis: str, seed: int, n: int
) -> None:
    edges, _ = diff_of(dialect, target, hypothesis)
    strings = random_strings(edges.dfa, n, MAX_LEN, np.random.default_rng(seed))
    witnesses = brute_force(dialect, target, hypothesis)
    assert len(set(strings)) == len(strings) <= n and bool(strings) == bool(witnesses)
    texts = (
        t.replace(" ", "").replace("+", "|") if dialect == "simple" else t
        for t in (target, hypothesis)
    )
    inside, outside = map(re.compile, texts)
    assert all(
        len(s) <= MAX_LEN and inside.fullmatch(s) and not outside.fullmatch(s) for s in strings
    )


def test_random_strings_are_uniform_within_a_length_and_list_small_languages() -> None:
    dfa = diff_of("extended", "[ab]*", "[ab]*a[ab]{9}")[0].dfa
    every = random_strings(dfa, 100, 3, np.random.default_rng(0))
    assert sorted(every) == sorted(
        "".join(t) for n in range(4) for t in itertools.product("ab", repeat=n)
    )
    digits = diff_of("extended", "[a-c][0-9]", "x")[0].dfa  # 30 strings, all of length 2
    firsts = [
        s[0]
        for seed in range(40)
        for s in random_strings(digits, 3, 2, np.random.default_rng(seed))
    ]
    assert all(25 < firsts.count(c) < 55 for c in "abc")  # 120 draws, 40 expected per letter
