"""The simple dialect's token-level fast path against its character-level parser: wherever the fast
path returns a tree it is the careful parser's tree, and errors always come from the careful parser."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from regexlang import simple, simple_tokens
from regexlang.ast import Concat, Intersection, Regex, Star, Union, flat_node, literal
from regexlang.charset import SIMPLE_ALPHABET, CharSet
from regexlang.errors import RegexSyntaxError

PIECES = [
    "a",
    "b",
    "c",
    "e",
    "d",
    "(",
    ")",
    "(a)",
    "(b)",
    "*",
    "+",
    "|",
    ".",
    "epsilon",
    "$",
    " ",
    "\t",
    "\n",
    "\x0b",
    "ε",
    "?",
    "eps",
    "ilon",
    "((",
    "))",
    "a*",
    "(a)*",
]
ALPHABETS = [SIMPLE_ALPHABET, CharSet.of("abce"), CharSet.of("ab "), CharSet.of("eps")]


def _result(parse: object, text: str, alphabet: CharSet) -> Regex | tuple[str, int]:
    try:
        return parse(text, alphabet)  # type: ignore[operator, no-any-return]
    except RegexSyntaxError as error:
        return error.message, error.position


@settings(max_examples=3000)
@given(st.lists(st.sampled_from(PIECES), max_size=14).map("".join), st.sampled_from(ALPHABETS))
def test_fast_path_agrees_with_the_careful_parser(text: str, alphabet: CharSet) -> None:
    assert _result(simple.parse, text, alphabet) == _result(simple._parse_carefully, text, alphabet)


def test_corpus_style_takes_the_fast_path() -> None:
    for text in ["((b)* ((c a))*)", "(a ((a+a)+a))", "(((c)* a)+(b b))*", "a|b c* epsilon"]:
        fast = simple_tokens.parse(text, SIMPLE_ALPHABET, simple.METACHARS)
        assert fast is not None and fast == simple._parse_carefully(text, SIMPLE_ALPHABET)


def test_flat_node_is_the_node_the_constructor_builds() -> None:
    a, b = literal("a"), literal("b")
    built: list[tuple[Regex, Regex]] = [
        (flat_node(Concat, (a, b)), Concat((a, b))),
        (flat_node(Union, (a, Star(b))), Union((a, Star(b)))),
        (flat_node(Intersection, (a, b)), Intersection((a, b))),
    ]
    for fast, checked in built:
        assert fast == checked and hash(fast) == hash(checked) and repr(fast) == repr(checked)
        assert type(fast) is type(checked) and {fast: 1}[checked] == 1
