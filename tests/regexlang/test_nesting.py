"""Deeply nested input is a syntax error with a position, never a RecursionError."""

from __future__ import annotations

import pytest

from regexlang import DIALECTS, Dialect, RegexSyntaxError, parse
from regexlang.dialects import MAX_NESTING


@pytest.mark.parametrize("dialect", DIALECTS)
def test_nesting_beyond_the_limit_is_reported_at_the_first_excess_parenthesis(dialect: Dialect) -> None:
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
    assert parse(text, "python") is not None


def test_long_complement_chain_is_a_syntax_error() -> None:
    with pytest.raises(RegexSyntaxError, match="nested deeper than"):
        parse("~" * 5000 + "a", "extended")
