"""Lookarounds in the python dialect: what they parse to, how they print back, and Python's
fixed-width rule for lookbehinds (the same patterns ``re`` refuses, with its message)."""

from __future__ import annotations

import re

import pytest

from regexlang import RegexSyntaxError, parse, unparse
from regexlang.ast import Chars, Lookaround, Star, concat, literal
from regexlang.charset import CharSet
from regexlang.python_printing import NOT_NEWLINE
from regexlang.widths import width


def test_each_lookaround_parses_to_its_node() -> None:
    a = literal("a")
    assert parse("(?=a)", "python") == Lookaround(a)
    assert parse("(?!a)", "python") == Lookaround(a, negative=True)
    assert parse("(?<=a)", "python") == Lookaround(a, behind=True)
    assert parse("(?<!a)", "python") == Lookaround(a, behind=True, negative=True)
    digit = Chars(CharSet.range("0", "9"))
    assert parse("(?=.*[0-9])[0-9]", "python") == concat(
        Lookaround(concat(Star(Chars(NOT_NEWLINE)), digit)), digit
    )


@pytest.mark.parametrize(
    "text",
    [
        "(?=a)b",
        "a(?!b|c)d",
        "(?<=ab)c",
        "(?<!a(?=b))b",
        "(?:(?=a)|b)*",
        "(?=(?!a)b)+",
        "(?i:(?=A)a)",
        "(?<=\\ba)",
    ],
)
def test_lookarounds_print_back_to_the_same_tree(text: str) -> None:
    tree = parse(text, "python")
    assert parse(unparse(tree, "python"), "python") == tree


@pytest.mark.parametrize(
    "text",
    [
        "(?<=a|bc)",
        "(?<=a*)",
        "(?<!a?)",
        "(?<=a{1,2})",
        "(?<=(?:ab|c))",
        "(?<=(?:\\b)*a)",
        "(?<=a{0}b*)",
        "(?<=[^\\s\\S])",
    ],
)
def test_lookbehinds_need_the_fixed_width_re_needs(text: str) -> None:
    try:
        re.compile(text)
    except re.error as error:
        assert "fixed-width" in error.msg
        with pytest.raises(RegexSyntaxError, match="look-behind requires fixed-width pattern"):
            parse(text, "python")
    else:
        tree = parse(text, "python")
        assert isinstance(tree, Lookaround)
        low, high = width(tree.inner)
        assert low == high
