"""Metrics on hand-computed examples in each dialect."""

from __future__ import annotations

import pytest

from regexlang import Dialect, parse
from regexlang.ast import Complement, EmptySet, Epsilon, Regex, Repeat, Star, concat, literal
from regexlang.charset import EXTENDED_ALPHABET, CharSet
from regexlang.metrics import (
    literals,
    node_count,
    regex_length,
    star_depth,
    text_length,
    used_chars,
)


@pytest.mark.parametrize(
    ("dialect", "text", "depth"),
    [
        ("simple", "a+b c", 0),
        ("simple", "(a b)*", 1),
        ("simple", "((a)* b)*", 2),
        ("simple", "((((b)*+c))*+b)*", 3),
        ("python", "a{2,}", 1),
        ("python", "a{0,}", 1),
        ("python", "a{2,3}", 0),
        ("python", "(a{2,})?", 1),
        ("python", "(a?)?", 0),
        ("python", "(a*)*", 2),
        ("python", "(?:a+b*)+c*", 2),
        ("python", r"\b(dog)+\b", 1),
        ("extended", "xyz([A-Za-z0-9#]*xyz)?", 1),
        ("extended", "~([A-Za-z0-9#]*a)", 1),
        ("extended", "(a*)&(b+)", 1),
        ("extended", "([A-Za-z0-9#]*[0-9][A-Za-z0-9#]*){2,}", 2),
        ("extended", "([A-Za-z0-9#]*[A-Za-z]{2}[A-Za-z0-9#]*){2}", 1),
    ],
)
def test_star_depth_counts_only_unbounded_repetition(
    dialect: Dialect, text: str, depth: int
) -> None:
    assert star_depth(parse(text, dialect)) == depth


@pytest.mark.parametrize(
    ("regex", "depth"),
    [
        (Epsilon(), 0),
        (EmptySet(), 0),
        (Star(Epsilon()), 1),
        (Repeat(Star(literal("a")), 0, None), 2),
    ],
)
def test_star_depth_of_trees(regex: Regex, depth: int) -> None:
    assert star_depth(regex) == depth


def test_star_depth_of_a_deep_tree_needs_no_recursion() -> None:
    deep: Regex = literal("a")
    for _ in range(5000):
        deep = Star(concat(deep, literal("b")))
    assert star_depth(deep) == 5000
    assert node_count(deep) == 1 + 5000 * 3


@pytest.mark.parametrize(
    ("text", "length"), [("", 0), ("(a b)*", 5), ("a  +  b", 3), ("[A-Z]{2,}", 9)]
)
def test_text_length_ignores_spaces(text: str, length: int) -> None:
    assert text_length(text) == length


@pytest.mark.parametrize(
    ("dialect", "text", "length"),
    [
        ("simple", "( ( a ) b )*", 5),  # printed "(a b)*"
        ("simple", "a+$", 9),  # printed "a+epsilon"
        ("extended", "((a)*)&(b+)", 5),  # printed "a*&b+"
        ("python", "(x|y)z", 8),  # printed "(?:x|y)z"
    ],
)
def test_regex_length_measures_the_canonical_text(dialect: Dialect, text: str, length: int) -> None:
    assert regex_length(parse(text, dialect), dialect) == length


@pytest.mark.parametrize(
    ("dialect", "text", "count"),
    [
        ("python", "ab*", 4),
        ("python", "a[bc]d*", 5),
        ("simple", "(a+b)*", 4),
        ("extended", "~(ab)&c*", 7),
    ],
)
def test_node_count(dialect: Dialect, text: str, count: int) -> None:
    assert node_count(parse(text, dialect)) == count


def test_literals_are_the_one_character_sets() -> None:
    assert literals(parse("a[bc]d*|(x|y)z", "python")) == frozenset("adxyz")
    assert literals(parse("[A-Za-z0-9#]*", "extended")) == frozenset()


def test_used_chars_joins_every_set() -> None:
    assert used_chars(parse("a[bc]d*", "python")) == CharSet.of("abcd")
    assert used_chars(parse("x[A-Za-z0-9#]*", "extended")) == EXTENDED_ALPHABET
    assert used_chars(Complement(EmptySet())) == CharSet()
