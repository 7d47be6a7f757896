"""The extended dialect: precedence, corpus notation, printing, and agreement with ``re`` on its regex core."""

from __future__ import annotations

import itertools
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from regexlang import NotExpressible, parse, unparse
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
    text,
    union,
)
from regexlang.charset import EXTENDED_ALPHABET, CharSet
from tests.regexlang.strategies import class_of, n_ary, quantified

a, b, c = literal("a"), literal("b"), literal("c")
SIGMA = Chars(EXTENDED_ALPHABET)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("a|b&c", union(a, intersection(b, c))),
        ("ab&c|a", union(intersection(text("ab"), c), a)),
        ("~a*", Star(Complement(a))),
        ("~(a*)", Complement(Star(a))),
        ("~~a", Complement(Complement(a))),
        ("ab*", concat(a, Star(b))),
        ("a+b?c{2}", concat(Plus(a), Optional(b), Repeat(c, 2, 2))),
        ("a{2,5}b{3,}", concat(Repeat(a, 2, 5), Repeat(b, 3, None))),
        ("()", Epsilon()),
        ("a()", concat(a, Epsilon())),
        ("[A-Za-z0-9#]", SIGMA),
        ("[A-Z-a-z]", Chars(CharSet([(ord("A"), ord("Z")), (ord("a"), ord("z"))]))),
        (
            "[0-z]",
            Chars(CharSet([(ord("0"), ord("9")), (ord("A"), ord("Z")), (ord("a"), ord("z"))])),
        ),
        (
            "([A-Za-z0-9#]*z[A-Za-z0-9#]*)&~([A-Za-z0-9#]*q[A-Za-z0-9#]*)",
            intersection(
                concat(Star(SIGMA), literal("z"), Star(SIGMA)),
                Complement(concat(Star(SIGMA), literal("q"), Star(SIGMA))),
            ),
        ),
        (
            "([A-Za-z0-9#]*[0-9][A-Za-z0-9#]*){2,}",
            Repeat(concat(Star(SIGMA), Chars(CharSet.range("0", "9")), Star(SIGMA)), 2, None),
        ),
    ],
)
def test_parse(source: str, expected: Regex) -> None:
    assert parse(source, "extended") == expected


@pytest.mark.parametrize(
    ("tree", "expected"),
    [
        (union(a, intersection(b, c)), "a|b&c"),
        (intersection(union(a, b), c), "(a|b)&c"),
        (concat(intersection(a, b), c), "(a&b)c"),
        (Star(Complement(a)), "~a*"),
        (Complement(Star(a)), "~(a*)"),
        (Complement(text("ab")), "~(ab)"),
        (Star(Star(a)), "(a*)*"),
        (Repeat(SIGMA, 0, None), "[A-Za-z0-9#]{0,}"),
        (Chars(CharSet.of("aeiouAEIOU")), "[AEIOUaeiou]"),
        (Epsilon(), "()"),
        (Optional(Epsilon()), "()?"),
    ],
)
def test_unparse(tree: Regex, expected: str) -> None:
    assert unparse(tree, "extended") == expected


@pytest.mark.parametrize(
    "tree",
    [
        EmptySet(),
        Chars(CharSet()),
        literal("."),
        Chars(CharSet.of("a_")),
        Assertion(AssertKind.TEXT_START),
    ],
)
def test_unparse_rejects_what_the_dialect_cannot_say(tree: Regex) -> None:
    with pytest.raises(NotExpressible):
        unparse(tree, "extended")


def test_custom_alphabet_escapes_metacharacters() -> None:
    alphabet = CharSet.of("a.*-")
    tree = concat(literal("."), literal("*"), Chars(CharSet.of("a-")))
    assert unparse(tree, "extended", alphabet) == "\\.\\*[a\\-]"
    assert parse("\\.\\*[a\\-]", "extended", alphabet) == tree


# Without & and ~, extended text is also a Python pattern with the same meaning: an independent check
# of the extended printer (and of both parsers' precedence) against re.
_core_trees = st.recursive(
    st.one_of(
        st.just(Epsilon()), st.sampled_from("abZ9").map(literal), class_of(CharSet.of("abZ9#"))
    ),
    lambda children: st.one_of(n_ary(children), quantified(children)),
    max_leaves=10,
)


@settings(max_examples=100)
@given(_core_trees)
def test_core_text_matches_like_python(tree: Regex) -> None:
    extended_text = unparse(tree, "extended")
    python_text = unparse(tree, "python")
    for n in range(4):
        for word in map("".join, itertools.product("abZ", repeat=n)):
            expected = bool(re.fullmatch(python_text, word))
            assert bool(re.fullmatch(extended_text, word)) == expected, (extended_text, word)
