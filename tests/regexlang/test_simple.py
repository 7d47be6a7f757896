"""The simple dialect: its reading of pyformlang syntax, its printer, and agreement with pyformlang itself."""

from __future__ import annotations

import itertools
import re

import pytest
from hypothesis import given, settings
from pyformlang.regular_expression import Regex as PyformlangRegex

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
from regexlang.charset import SIMPLE_ALPHABET, CharSet
from regexlang.simple import desugar
from tests.regexlang.strategies import simple_trees

a, b, c = literal("a"), literal("b"), literal("c")


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("(((b)*+a)+c)", union(Star(b), a, c)),
        ("((b)* ((c a))*)", concat(Star(b), Star(text("ca")))),
        ("ab", text("ab")),
        ("a b", text("ab")),
        ("a.b", text("ab")),
        ("a|b", union(a, b)),
        ("a+b c*", union(a, concat(b, Star(c)))),
        ("a**", Star(Star(a))),
        ("epsilon", Epsilon()),
        ("$", Epsilon()),
        ("aepsilon", concat(a, Epsilon())),
        ("( a + epsilon ) *", Star(union(a, Epsilon()))),
        ("a\tb\n", text("ab")),
    ],
)
def test_parse(source: str, expected: Regex) -> None:
    assert parse(source, "simple") == expected


def test_custom_alphabet() -> None:
    alphabet = CharSet.of("01")
    assert parse("0 1*", "simple", alphabet) == concat(literal("0"), Star(literal("1")))
    assert unparse(concat(literal("0"), Star(literal("1"))), "simple", alphabet) == "0 1*"


@pytest.mark.parametrize(
    ("tree", "expected"),
    [
        (union(Star(b), a, c), "b*+a+c"),
        (concat(Star(b), Star(text("ca"))), "b* (c a)*"),
        (Star(union(a, b)), "(a+b)*"),
        (concat(union(a, b), c), "(a+b) c"),
        (union(concat(a, b), c), "a b+c"),
        (Star(Star(a)), "a**"),
        (Epsilon(), "epsilon"),
        (Star(Epsilon()), "epsilon*"),
    ],
)
def test_unparse(tree: Regex, expected: str) -> None:
    assert unparse(tree, "simple") == expected


@pytest.mark.parametrize(
    ("tree", "expected"),
    [
        (Plus(a), concat(a, Star(a))),
        (Optional(a), union(a, Epsilon())),
        (Repeat(a, 2, 3), concat(a, a, union(a, Epsilon()))),
        (Repeat(a, 1, None), concat(a, Star(a))),
        (Repeat(a, 0, 0), Epsilon()),
        (Chars(CharSet.of("cab")), union(a, b, c)),
    ],
)
def test_desugar(tree: Regex, expected: Regex) -> None:
    assert desugar(tree, SIMPLE_ALPHABET) == expected
    assert parse(unparse(tree, "simple"), "simple") == expected


@pytest.mark.parametrize(
    "tree",
    [
        EmptySet(),
        Chars(CharSet()),
        literal("d"),
        Chars(CharSet.of("ad")),
        Complement(a),
        intersection(a, b),
        Assertion(AssertKind.WORD_BOUNDARY),
        Repeat(a, 1001, None),
    ],
)
def test_unparse_rejects_what_the_dialect_cannot_say(tree: Regex) -> None:
    with pytest.raises(NotExpressible):
        unparse(tree, "simple")


def _language(tree: Regex, max_len: int) -> set[str]:
    pattern = re.compile(unparse(tree, "python"))
    words = ("".join(w) for n in range(max_len + 1) for w in itertools.product("abc", repeat=n))
    return {w for w in words if pattern.fullmatch(w)}


def _pyformlang_language(source: str, max_len: int) -> set[str]:
    nfa = PyformlangRegex(source).to_epsilon_nfa()
    words = ("".join(w) for n in range(max_len + 1) for w in itertools.product("abc", repeat=n))
    return {w for w in words if nfa.accepts(list(w))}


@settings(max_examples=40)
@given(simple_trees)
def test_printed_text_means_the_same_to_pyformlang(tree: Regex) -> None:
    assert _pyformlang_language(unparse(tree, "simple"), 4) == _language(tree, 4)


@pytest.mark.parametrize(
    "source", ["(((b)*+a)+c)", "((((b+b))* a)+((b)*+c))", "((a ((b)*+c)))*", "a.b|c*"]
)
def test_corpus_style_reads_like_pyformlang(source: str) -> None:
    assert _language(parse(source, "simple"), 4) == _pyformlang_language(source, 4)
