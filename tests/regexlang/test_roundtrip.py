"""Round trips per dialect: random trees the dialect can express → unparse → parse gives the tree back."""

from __future__ import annotations

import re

from hypothesis import given, settings

from regexlang import parse, unparse
from regexlang.ast import Chars, Regex, concat, literal
from regexlang.charset import SIMPLE_ALPHABET, CharSet
from regexlang.simple import desugar
from tests.regexlang.strategies import (
    extended_trees,
    python_trees,
    simple_trees,
    sugared_simple_trees,
)

_EXAMPLES = settings(max_examples=150)


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


@_EXAMPLES
@given(sugared_simple_trees)
def test_simple_prints_sugar_through_desugar(tree: Regex) -> None:
    assert parse(unparse(tree, "simple"), "simple") == desugar(tree, SIMPLE_ALPHABET)


def test_custom_alphabet_round_trip_escapes_metacharacters() -> None:
    alphabet = CharSet.of("ab.*(|&~[]-^\\ ")
    tree = concat(*(literal(c) for c in ".*(|&~[]\\ "), Chars(CharSet.of("-^]a")))
    text = unparse(tree, "extended", alphabet)
    assert parse(text, "extended", alphabet) == tree
