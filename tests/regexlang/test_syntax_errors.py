"""Malformed input per dialect: the message a learner sees and the exact position it points at."""

from __future__ import annotations

import re
import warnings

import pytest

from regexlang import Dialect, RegexSyntaxError, UnsupportedFeature, parse

_TABLE: list[tuple[Dialect, str, str, int]] = [
    # simple
    ("simple", "(a+b", "unbalanced '('", 0),
    ("simple", "a+b)", "unbalanced ')'", 3),
    ("simple", "*a", "nothing to repeat", 0),
    ("simple", "a+*", "nothing to repeat", 2),
    ("simple", "a+", "missing operand after '+'", 2),
    ("simple", "a|", "missing operand after '|'", 2),
    ("simple", "+a", "missing operand before '+'", 0),
    ("simple", "a.", "missing operand after '.'", 2),
    ("simple", "a ()", "empty group", 2),
    ("simple", "", "empty regex", 0),
    ("simple", "  ", "empty regex", 2),
    ("simple", "a d", "'d' is not in the alphabet {a, b, c}", 2),
    ("simple", "a?", "'?' is not part of the simple dialect", 1),
    ("simple", "[ab]", "'[' is not part of the simple dialect", 0),
    ("simple", "a ε", "write epsilon", 2),
    # extended
    ("extended", "(ab", "unbalanced '('", 0),
    ("extended", "ab)", "unbalanced ')'", 2),
    ("extended", "*a", "nothing to repeat", 0),
    ("extended", "a|+", "nothing to repeat", 2),
    ("extended", "a**", "multiple repeat", 2),
    ("extended", "[]", "empty class", 0),
    ("extended", "[ab", "unbalanced '['", 0),
    ("extended", "a[z-a]", "bad range z-a", 2),
    ("extended", "\\q", "unknown escape \\q", 0),
    ("extended", "a|", "missing operand after '|'", 2),
    ("extended", "|a", "missing operand before '|'", 0),
    ("extended", "a&", "missing operand after '&'", 2),
    ("extended", "a~", "missing operand after '~'", 2),
    ("extended", "~*", "missing operand after '~'", 1),
    ("extended", "", "empty regex", 0),
    ("extended", "a{3,2}", "repetition {3,2} has max below min", 1),
    ("extended", "a{100001}", "repetition count too large", 1),
    ("extended", "a{,3}", "write {0,3}", 1),
    ("extended", "a{x}", "bad repetition", 1),
    ("extended", "a b", "' ' is not in the alphabet [A-Za-z0-9#]", 1),
    ("extended", "ab_", "'_' is not in the alphabet", 2),
    ("extended", "[ _]", "class has no character in the alphabet", 0),
    ("extended", "a.b", "'.' is not part of the extended dialect", 1),
    ("extended", "^a", "anchor '^' is not part of the extended dialect", 0),
    ("extended", "a$", "anchor '$' is not part of the extended dialect", 1),
    ("extended", "[^a]", "negated classes are not part of the extended dialect", 0),
    ("extended", "a\\W", "negated classes are not part of the extended dialect", 1),
    ("extended", "\\d", "write [0-9]", 0),
    ("extended", "\\bab", "word boundaries are not part of the extended dialect", 0),
    ("extended", "a(?=b)", "are not part of the extended dialect", 1),
    ("extended", "(a)\\1", "backreferences are not regular", 3),
    # python
    ("python", "(a", "unbalanced '('", 0),
    ("python", "a)", "unbalanced ')'", 1),
    ("python", "*a", "nothing to repeat", 0),
    ("python", "a**", "multiple repeat", 2),
    ("python", "\\b*", "nothing to repeat", 2),
    ("python", "[]", "unterminated character set", 0),
    ("python", "a[z-a]", "bad range z-a", 2),
    ("python", "\\q", "unknown escape \\q", 0),
    ("python", "[\\q]", "unknown escape \\q", 1),
    ("python", "a{3,2}", "repetition {3,2} has max below min", 1),
    ("python", "a{100001}", "repetition count too large", 1),
    ("python", "a\\", "bad escape (end of pattern)", 1),
    ("python", "\\x4g", "incomplete escape \\x4", 0),
    ("python", "(a)\\1", "backreferences are not regular", 3),
    ("python", "(?P<n>a)(?P=n)", "backreferences are not regular", 8),
    ("python", "a(?<=b*)", "look-behind requires fixed-width pattern", 1),
    ("python", "a(?:bc)*+", "possessive quantifier is supported only on one character class", 7),
    ("python", "a(?>b|bc)", "atomic group is supported only when all in it matches one way", 1),
    ("python", "(?a)\\w", "ASCII flag", 3),
    ("python", "a(?i)", "global flags not at the start of the expression", 1),
    ("python", "(?P<a>x)(?P<a>y)", "redefinition of group name 'a'", 12),
]


@pytest.mark.parametrize(("dialect", "source", "fragment", "position"), _TABLE)
def test_error_message_and_position(
    dialect: Dialect, source: str, fragment: str, position: int
) -> None:
    with pytest.raises(RegexSyntaxError) as caught:
        parse(source, dialect)
    assert fragment in caught.value.message
    assert caught.value.position == position
    assert str(caught.value) == f"{caught.value.message} at {position}"
    assert caught.value.caret().splitlines()[-1] == " " * position + "^"


_RE_POSITIONS = [
    "(",
    "a)",
    "*",
    "a**",
    "^*",
    "[",
    "[]",
    "[a",
    "[z-a]",
    "\\q",
    "[\\q]",
    "\\x4",
    "\\400",
    "a\\",
    "(?",
    "(?P",
    "(?Px)",
    "(?P<1>a)",
    "(?P<>a)",
    "(?<x)",
    "(?z)",
    "(?i",
    "a(?i)",
    "(?i-i:a)",
    "(?-:a)",
    "(?L)a",
    "(?#",
    "(?x)#\\",
    "\\N{NO SUCH NAME}",
    "\\N",
    "[\\N{EM DASH]",
    "a|b)c",
    "x(?:a|(b)",
]


@pytest.mark.parametrize("source", _RE_POSITIONS)
def test_python_errors_point_where_re_points(source: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(re.error) as expected:
            re.compile(source)
    with pytest.raises(RegexSyntaxError) as caught:
        parse(source, "python")
    assert caught.value.position == expected.value.pos


@pytest.mark.parametrize(
    ("dialect", "text", "position"),
    [
        ("python", r"(a)\1", 3),
        ("python", "(?>a|b)", 0),
        ("python", "a(?:bc)?+", 7),
        ("python", "(a)?(?(1)b|c)", 4),
        ("python", "(?a)x", 3),
        ("extended", r"(a)\1", 3),
    ],
)
def test_valid_but_unsupported_syntax_is_its_own_error(
    dialect: Dialect, text: str, position: int
) -> None:
    with pytest.raises(UnsupportedFeature) as raised:
        parse(text, dialect)
    assert raised.value.position == position


@pytest.mark.parametrize("text", ["(a", "a)", "*a", "[a", "a{2,1}"])
def test_a_typo_is_not_an_unsupported_feature(text: str) -> None:
    with pytest.raises(RegexSyntaxError) as raised:
        parse(text, "python")
    assert not isinstance(raised.value, UnsupportedFeature)
