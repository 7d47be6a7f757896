"""Round trips per dialect: random trees the dialect can express → unparse → parse gives the tree back."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from regexlang import parse, unparse
from regexlang.ast import (
    AssertKind,
    Assertion,
    Chars,
    Complement,
    EmptySet,
    Epsilon,
    Optional,
    Plus,
    Regex,
    Repeat,
    Star,
    concat,
    intersection,
    literal,
    union,
)
from regexlang.charset import EXTENDED_ALPHABET, SIMPLE_ALPHABET, UNICODE, CharSet
from regexlang.simple import desugar
from regexlang.unicode_classes import digit_chars, word_chars

_EXAMPLES = settings(max_examples=150)


def _n_ary(children: st.SearchStrategy[Regex]) -> st.SearchStrategy[Regex]:
    lists = st.lists(children, min_size=2, max_size=4)
    return st.one_of(lists.map(lambda parts: concat(*parts)), lists.map(lambda options: union(*options)))


def _quantified(children: st.SearchStrategy[Regex]) -> st.SearchStrategy[Regex]:
    counts = st.integers(0, 4)
    return st.one_of(
        children.map(Star),
        children.map(Plus),
        children.map(Optional),
        st.builds(lambda r, lo, extra: Repeat(r, lo, None if extra is None else lo + extra), children, counts, st.none() | counts),
    )


def _trees(leaves: st.SearchStrategy[Regex], extend: object) -> st.SearchStrategy[Regex]:
    return st.recursive(leaves, extend, max_leaves=12)  # type: ignore[arg-type]


simple_trees = _trees(
    st.one_of(st.just(Epsilon()), st.sampled_from("abc").map(literal)),
    lambda children: st.one_of(_n_ary(children), children.map(Star)),
)


def _class_of(alphabet: CharSet) -> st.SearchStrategy[Regex]:
    return st.sets(st.sampled_from(list(alphabet)), min_size=1, max_size=8).map(lambda chars: Chars(CharSet.of(chars)))


extended_trees = _trees(
    st.one_of(st.just(Epsilon()), st.sampled_from("aZ9#").map(literal), _class_of(EXTENDED_ALPHABET)),
    lambda children: st.one_of(
        _n_ary(children),
        _quantified(children),
        children.map(Complement),
        st.lists(children, min_size=2, max_size=3).map(lambda parts: intersection(*parts)),
    ),
)

_ODD_CHARS = "a.^$*+?{}[]()|\\-&~# \n\t\x00\x7f\u00e9\u200b\u212a\U0001f600\U000e0001"
_code_points = st.integers(0, 0x10FFFF)
python_sets = st.one_of(
    st.sampled_from(_ODD_CHARS).map(CharSet.of),
    st.sets(st.sampled_from(_ODD_CHARS), min_size=2, max_size=6).map(CharSet.of),
    st.lists(st.tuples(_code_points, st.integers(0, 300)), min_size=1, max_size=4).map(
        lambda pairs: CharSet([(lo, min(lo + size, 0x10FFFF)) for lo, size in pairs])
    ),
    st.sampled_from([digit_chars(), word_chars(), word_chars() - CharSet.of("_"), UNICODE, CharSet.of("\n").complement()]),
    st.sets(st.sampled_from(_ODD_CHARS), min_size=1, max_size=3).map(lambda chars: CharSet.of(chars).complement()),
)
python_trees = _trees(
    st.one_of(
        st.just(Epsilon()),
        st.just(EmptySet()),
        python_sets.map(Chars),
        st.sampled_from(list(AssertKind)).map(Assertion),
    ),
    lambda children: st.one_of(_n_ary(children), _quantified(children)),
)


@_EXAMPLES
@given(simple_trees)
def test_simple_round_trip(tree: Regex) -> None:
    assert parse(unparse(tree, "simple"), "simple") == tree


@_EXAMPLES
@given(extended_trees)
def test_extended_round_trip(tree: Regex) -> None:
    assert parse(unparse(tree, "extended"), "extended") == tree


@_EXAMPLES
@given(python_trees)
def test_python_round_trip(tree: Regex) -> None:
    text = unparse(tree, "python")
    re.compile(text)
    assert parse(text, "python") == tree


sugared_simple_trees = _trees(
    st.one_of(st.just(Epsilon()), st.sampled_from("abc").map(literal), _class_of(SIMPLE_ALPHABET)),
    lambda children: st.one_of(_n_ary(children), _quantified(children)),
)


@_EXAMPLES
@given(sugared_simple_trees)
def test_simple_prints_sugar_through_desugar(tree: Regex) -> None:
    assert parse(unparse(tree, "simple"), "simple") == desugar(tree, SIMPLE_ALPHABET)


def test_custom_alphabet_round_trip_escapes_metacharacters() -> None:
    alphabet = CharSet.of("ab.*(|&~[]-^\\ ")
    tree = concat(*(literal(c) for c in ".*(|&~[]\\ "), Chars(CharSet.of("-^]a")))
    text = unparse(tree, "extended", alphabet)
    assert parse(text, "extended", alphabet) == tree
