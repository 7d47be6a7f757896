"""Deep input is a syntax error with a position, never a RecursionError, here or after parsing."""

from __future__ import annotations

import contextlib
import inspect
import re
import sys
from collections.abc import Iterator

import pytest

from automata.algebra.ops import accepts, equivalent
from automata.building.compile import compile_regex
from automata.printing.to_regex import to_regex
from regexlang import DIALECTS, Dialect, RegexSyntaxError, parse, universe, unparse
from regexlang import ast as A
from regexlang.dialects import MAX_DEPTH, MAX_NESTING
from regexlang.metrics import node_count, star_depth
from regexlang.normalize import normalize


@pytest.mark.parametrize("dialect", DIALECTS)
def test_nesting_beyond_the_limit_is_reported_at_the_first_excess_parenthesis(
    dialect: Dialect,
) -> None:
    depth = MAX_NESTING + 200
    with pytest.raises(RegexSyntaxError) as caught:
        parse("(" * depth + "a" + ")" * depth, dialect)
    assert caught.value.position == MAX_NESTING
    assert "nested deeper" in caught.value.message


@pytest.mark.parametrize("dialect", DIALECTS)
def test_nesting_at_the_limit_parses(dialect: Dialect) -> None:
    assert parse("(" * MAX_NESTING + "a" + ")" * MAX_NESTING, dialect) == parse("a", dialect)


def test_escaped_and_class_parentheses_do_not_count() -> None:
    text = "[(]" * (MAX_NESTING + 5) + "\\(" * (MAX_NESTING + 5)
    parens = "(" * (2 * MAX_NESTING + 10)
    assert re.fullmatch(text, parens)
    assert parse(text, "python") == A.text(parens)


@pytest.mark.parametrize(
    "text",
    [
        "(?#" + "(" * (MAX_NESTING + 50) + ")a",  # a comment
        "(?x)a # " + "(" * (MAX_NESTING + 50) + "\n",  # a verbose-mode comment
        "(?x:a # " + "(" * (MAX_NESTING + 50) + "\n)",  # the same, in a scoped group
    ],
)
def test_comment_parentheses_do_not_count(text: str) -> None:
    assert re.fullmatch(text, "a") and not re.fullmatch(text, "")
    assert parse(text, "python") == A.literal("a")


def test_groups_after_a_comment_still_count() -> None:
    text = "(?#)" + "(" * (MAX_NESTING + 1) + "a" + ")" * (MAX_NESTING + 1)
    with pytest.raises(RegexSyntaxError, match="nested deeper") as caught:
        parse(text, "python")
    assert caught.value.position == len("(?#)") + MAX_NESTING


def _python_levels(levels: int) -> str:
    """``levels`` groups, each adding a star, a union and a concatenation: three tree levels each."""
    text = "a"
    for _ in range(levels):
        text = f"(b|c{text})*"
    return text


# Texts whose trees are exactly as deep as allowed, one per way of nesting: a prefix chain, a
# postfix chain, and groups that each add three levels. Then a string in the language, one not in
# it, and the star depth.
_AT_THE_LIMIT: list[tuple[str, Dialect, str, str, int]] = [
    ("~" * (MAX_DEPTH - 1) + "a", "extended", *(("a", "b") if MAX_DEPTH % 2 else ("b", "a")), 0),
    ("a" + "*" * (MAX_DEPTH - 1), "simple", "aaa", "b", MAX_DEPTH - 1),
    (_python_levels((MAX_DEPTH - 1) // 3), "python", "bcb", "a", (MAX_DEPTH - 1) // 3),
]


@pytest.mark.parametrize(("text", "dialect", "member", "non_member", "stars"), _AT_THE_LIMIT)
def test_the_deepest_tree_a_parse_returns_is_safe_everywhere(
    text: str, dialect: Dialect, member: str, non_member: str, stars: int
) -> None:
    tree = parse(text, dialect)
    assert MAX_DEPTH - 3 < A.depth(tree) <= MAX_DEPTH
    sigma = universe(dialect)
    with _frames_left(_CONSUMER_FRAMES):
        printed = unparse(tree, dialect)
        normalized = normalize(tree)
        dfa = compile_regex(tree, sigma)
        stars_counted = star_depth(tree)
    assert parse(printed, dialect) == tree
    assert stars_counted == stars and node_count(tree) >= MAX_DEPTH - 2
    assert accepts(dfa, member) and not accepts(dfa, non_member)
    if dialect == "python":
        assert re.fullmatch(text, member) and not re.fullmatch(text, non_member)
    assert equivalent(compile_regex(normalized, sigma), dfa)
    assert equivalent(compile_regex(to_regex(dfa), sigma), dfa)


#: The frames the recursive consumers may use on the deepest tree: the rest of Python's default
#: limit of 1000 is left to whatever calls them.
_CONSUMER_FRAMES = 600


@contextlib.contextmanager
def _frames_left(frames: int) -> Iterator[None]:
    """Run with only ``frames`` stack frames available beyond the current depth."""
    previous = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack(0)) + frames)
    try:
        yield
    finally:
        sys.setrecursionlimit(previous)


@pytest.mark.parametrize(
    ("text", "dialect"),
    [
        ("~" * MAX_DEPTH + "a", "extended"),
        ("~" * 500 + "a", "extended"),
        ("a" + "*" * MAX_DEPTH, "simple"),
        ("a" + "*" * 1000, "simple"),
    ],
)
def test_one_level_deeper_is_a_syntax_error(text: str, dialect: Dialect) -> None:
    with pytest.raises(RegexSyntaxError, match=f"nested deeper than {MAX_DEPTH} levels"):
        parse(text, dialect)


def test_python_trees_too_deep_for_their_groups_are_rejected() -> None:
    with pytest.raises(RegexSyntaxError, match="nested deeper"):
        parse(_python_levels(MAX_DEPTH // 3 + 1), "python")


def test_long_complement_chain_is_a_syntax_error() -> None:
    with pytest.raises(RegexSyntaxError, match="nested deeper than"):
        parse("~" * 5000 + "a", "extended")
