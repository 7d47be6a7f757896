"""Hypothesis strategies for regex trees that each dialect can express, shared by the regexlang tests."""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import strategies as st

from regexlang.ast import (
    Assertion,
    AssertKind,
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
from regexlang.unicode_classes import digit_chars, word_chars


def n_ary(children: st.SearchStrategy[Regex]) -> st.SearchStrategy[Regex]:
    lists = st.lists(children, min_size=2, max_size=4)
    return st.one_of(
        lists.map(lambda parts: concat(*parts)), lists.map(lambda options: union(*options))
    )


def quantified(children: st.SearchStrategy[Regex]) -> st.SearchStrategy[Regex]:
    counts = st.integers(0, 4)
    return st.one_of(
        children.map(Star),
        children.map(Plus),
        children.map(Optional),
        st.builds(
            lambda r, lo, extra: Repeat(r, lo, None if extra is None else lo + extra),
            children,
            counts,
            st.none() | counts,
        ),
    )


def _trees(
    leaves: st.SearchStrategy[Regex],
    extend: Callable[[st.SearchStrategy[Regex]], st.SearchStrategy[Regex]],
) -> st.SearchStrategy[Regex]:
    return st.recursive(leaves, extend, max_leaves=12)


simple_trees = _trees(
    st.one_of(st.just(Epsilon()), st.sampled_from("abc").map(literal)),
    lambda children: st.one_of(n_ary(children), children.map(Star)),
)


def class_of(alphabet: CharSet) -> st.SearchStrategy[Regex]:
    return st.sets(st.sampled_from(list(alphabet)), min_size=1, max_size=8).map(
        lambda chars: Chars(CharSet.of(chars))
    )


extended_trees = _trees(
    st.one_of(
        st.just(Epsilon()), st.sampled_from("aZ9#").map(literal), class_of(EXTENDED_ALPHABET)
    ),
    lambda children: st.one_of(
        n_ary(children),
        quantified(children),
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
    st.sampled_from(
        [
            digit_chars(),
            word_chars(),
            word_chars() - CharSet.of("_"),
            UNICODE,
            CharSet.of("\n").complement(),
        ]
    ),
    st.sets(st.sampled_from(_ODD_CHARS), min_size=1, max_size=3).map(
        lambda chars: CharSet.of(chars).complement()
    ),
)
#: Sets of any size anywhere in Unicode: the above, the empty set, and sets across the surrogates
#: and beyond the Basic Multilingual Plane.
wide_sets = st.one_of(
    python_sets,
    st.just(CharSet()),
    st.sampled_from(
        [
            CharSet([(0xD7F0, 0xE010)]),
            CharSet([(0xDC00, 0xDC00), (0xFFFE, 0x10001)]),
            CharSet([(0x10000, 0x10FFFF)]),
        ]
    ),
)


def edge_characters(chars: CharSet) -> list[str]:
    """The first and last character of each interval of ``chars`` and the characters just outside."""
    return [
        chr(code)
        for lo, hi in chars.intervals
        for code in (lo - 1, lo, hi, hi + 1)
        if 0 <= code <= 0x10FFFF
    ]


python_trees = _trees(
    st.one_of(
        st.just(Epsilon()),
        st.just(EmptySet()),
        python_sets.map(Chars),
        st.sampled_from(list(AssertKind)).map(Assertion),
    ),
    lambda children: st.one_of(n_ary(children), quantified(children)),
)

sugared_simple_trees = _trees(
    st.one_of(st.just(Epsilon()), st.sampled_from("abc").map(literal), class_of(SIMPLE_ALPHABET)),
    lambda children: st.one_of(n_ary(children), quantified(children)),
)
