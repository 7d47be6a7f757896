"""The python dialect against its reference, Python's ``re``: what parses, what each set matches, what prints."""

from __future__ import annotations

import itertools
import re
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from regexlang import NotExpressible, RegexSyntaxError, parse, unparse
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
from regexlang.charset import CharSet
from regexlang.python_printing import interval_class
from tests.regexlang.strategies import edge_characters, wide_sets


def _compiles(pattern: str) -> bool:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            re.compile(pattern)
        except re.error:
            return False
    return True


def _parses(pattern: str) -> bool:
    try:
        parse(pattern, "python")
    except RegexSyntaxError:
        return False
    return True


# Characters where case-insensitive matching is irregular, plus ordinary ones.
_ODD = (
    "kK\u212asS\u017fiI\u0130\u0131\u00b5\u03bc\u039c\u00df\u1e9e"
    "\u03c3\u03c2\u03a3\u0345\u03b9\u1fbe\U00010400\U00010428"
)
_SAMPLE_CHARS = (
    [chr(c) for c in range(0x100)]
    + list(_ODD)
    + [
        chr(c)
        for c in np.random.default_rng(7).integers(0x100, 0x110000, 300)
        if not 0xD800 <= c < 0xE000
    ]
)


def _sample_strings(alphabet: str, max_len: int) -> list[str]:
    return ["".join(w) for n in range(max_len + 1) for w in itertools.product(alphabet, repeat=n)]


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        ("ab", text("ab")),
        ("a|", union(literal("a"), Epsilon())),
        ("", Epsilon()),
        ("(?:)", Epsilon()),
        ("(?P<word>ab)*?", Star(text("ab"))),
        ("a{,3}", Repeat(literal("a"), 0, 3)),
        ("a{2,}?", Repeat(literal("a"), 2, None)),
        ("a{x}", text("a{x}")),
        ("a{}", text("a{}")),
        ("a{1,2,3}", text("a{1,2,3}")),
        ("a(?#note)*", Star(literal("a"))),
        ("(?x) a b # comment\n *", concat(literal("a"), Star(literal("b")))),
        ("(?x)[ ]\\ ", text("  ")),
        ("\\x41\\u00e9\\U0001F600\\0\\101\\n\\t", text("A\u00e9\U0001f600\x00A\n\t")),
        ("\\N{EM DASH}", literal("\u2014")),
        ("[\\]]", literal("]")),
        ("[]a]", Chars(CharSet.of("]a"))),
        ("[a-]", Chars(CharSet.of("a-"))),
        ("[^\\s\\S]", EmptySet()),
        (
            "^a$",
            concat(
                Assertion(AssertKind.TEXT_START),
                literal("a"),
                Assertion(AssertKind.END_OR_FINAL_NEWLINE),
            ),
        ),
        ("(?m)^$", concat(Assertion(AssertKind.LINE_START), Assertion(AssertKind.LINE_END))),
        ("\\A\\Z\\b\\B", concat(*(Assertion(AssertKind(k)) for k in ("\\A", "\\Z", "\\b", "\\B")))),
        ("(?i)k", Chars(CharSet.of("kK\u212a"))),
        ("(?i:s)S", concat(Chars(CharSet.of("sS\u017f")), literal("S"))),
        ("(?i)(?-i:s)", literal("s")),
        ("a+b?", concat(Plus(literal("a")), Optional(literal("b")))),
    ],
)
def test_parses_to(pattern: str, expected: Regex) -> None:
    assert _compiles(pattern)
    assert parse(pattern, "python") == expected


def test_dot_and_dotall() -> None:
    assert parse(".", "python") == Chars(CharSet.of("\n").complement())
    assert parse("(?s).", "python") == Chars(CharSet.everything())


@pytest.mark.parametrize(
    ("pattern", "fragment"),
    [
        ("(a)\\1", "backreferences are not regular"),
        ("(?P<n>a)(?P=n)", "backreferences are not regular"),
        (
            "(a)(?(1)b|c)",
            "conditional groups are not supported (they test a captured group: not regular",
        ),
        ("(?>a*b)a", "an atomic group is supported only when all in it matches one way"),
        ("(?:ab)*+a", "a possessive quantifier is supported only on one character class"),
        ("(?a)\\w", "ASCII flag"),
        ("a{100001}", "repetition count too large"),
    ],
)
def test_rejects_what_re_accepts_but_is_not_supported(pattern: str, fragment: str) -> None:
    assert _compiles(pattern)
    with pytest.raises(RegexSyntaxError, match=re.escape(fragment)):
        parse(pattern, "python")


_VALID = [
    "abc",
    "a|b|",
    "|",
    "(a|b)*c",
    "a*?b+?c??",
    "a{2}{3}x" if False else "a{2}b{1,}c{,2}",
    "[a-z0-9_]+",
    "[^a-c]",
    "\\d\\w\\s\\D\\W\\S",
    "[\\d\\w-]",
    "[\\W\\d]",
    "[.]",
    "[-a]",
    "[a\\-z]",
    "\\.\\*\\+",
    "\\\\",
    "(?i)[a-z]+",
    "(?i)\u017f|K",
    "(?s)a.b",
    "a.b",
    "(?x) a | b ",
    "(?i:a)b",
    "(?-i:a)",
    "(?i)(?-i:a)b",
    "(?ms).^$",
    "\\bab\\B",
    "(?:)*",
    "()*",
    "(?:a|)+",
    "x{0}",
    "[\\x00-\\x7f]",
    "[\\0]",
    "\\012",
    "[\\12]",
    "(?P<a>x)(?P<b>y)",
    "{",
    "a{",
    "a{,}",
    "}",
    "]",
    "a]",
    "(?u)a",
    "(?#)a",
    "[[]",
    "\\Z",
    "(?im)a",
    "(?i)\U00010400",
    "(?i)[\U00010400x]",
    "(?i)\U00010400|x",
    "(?i)(?:\U00010400)|(?:x)",
]
_INVALID = [
    "(",
    ")",
    "a)",
    "(a",
    "*",
    "a**",
    "a*{2}",
    "+a",
    "?",
    "{1}",
    "a|*",
    "^*",
    "\\b+",
    "[",
    "[]",
    "[a",
    "[z-a]",
    "[\\d-z]",
    "\\q",
    "[\\q]",
    "\\x4",
    "\\u12",
    "\\U00110000",
    "\\400",
    "[\\8]",
    "a{3,2}",
    "\\",
    "a\\",
    "(?",
    "(?P",
    "(?Px)",
    "(?P<1>a)",
    "(?P<>a)",
    "(?P<a>x)(?P<a>y)",
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
]


@pytest.mark.parametrize("pattern", _VALID)
def test_accepts_what_re_accepts(pattern: str) -> None:
    assert _compiles(pattern)
    assert _parses(pattern)


@pytest.mark.parametrize("pattern", _INVALID)
def test_rejects_what_re_rejects(pattern: str) -> None:
    assert not _compiles(pattern)
    assert not _parses(pattern)


@pytest.mark.parametrize("pattern", _VALID)
def test_printed_pattern_matches_like_the_original(pattern: str) -> None:
    printed = unparse(parse(pattern, "python"), "python")
    assert _compiles(printed)
    for string in _sample_strings("ab.\n", 3) + [
        "K",
        "\u212a",
        "\u017f",
        "S",
        "\U00010400",
        "\U00010428",
        "x",
    ]:
        assert bool(re.fullmatch(printed, string)) == bool(re.fullmatch(pattern, string)), (
            printed,
            string,
        )


_TOKENS = [
    "a",
    "b",
    "k",
    "(",
    ")",
    "(?:",
    "(?i)",
    "(?i:",
    "(?-i:",
    "|",
    "*",
    "+",
    "?",
    "*?",
    "{2}",
    "{1,2}",
    "{,2}",
    "{",
    "}",
    "[",
    "]",
    "[a-c]",
    "[^ab]",
    "[k\u017f]",
    "\\d",
    "\\W",
    ".",
    "^",
    "$",
    "\\b",
    "-",
    "\\",
    "\\x4",
    "\\n",
]


@settings(max_examples=400)
@given(st.lists(st.sampled_from(_TOKENS), max_size=7).map("".join))
def test_generated_patterns_agree_with_re(pattern: str) -> None:
    if _compiles(pattern) and not _parses(pattern):
        with pytest.raises(RegexSyntaxError, match="possessive quantifier is supported only on"):
            parse(pattern, "python")
        return
    assert _parses(pattern) == _compiles(pattern), pattern
    if _compiles(pattern):
        printed = unparse(parse(pattern, "python"), "python")
        for string in _sample_strings("abK\n", 2) + ["\u212a", "\u017fa", "1"]:
            assert bool(re.fullmatch(printed, string)) == bool(re.fullmatch(pattern, string)), (
                printed,
                string,
            )


_CLASS_ITEMS = [
    "a",
    "z",
    "k",
    "K",
    "s",
    "\u017f",
    "\u212a",
    "\u00b5",
    "\u0130",
    "\u00df",
    "\u1e9e",
    "\\U00010400",
    "\\U00010428",
    "A-Z",
    "a-f",
    "\u00c0-\u00ff",
    "\\x00-\\x1f",
    "\u0400-\u04ff",
    "\\U00010400-\\U0001044f",
    "\\d",
    "\\w",
    "\\s",
    "\\W",
    "\\S",
    "-",
    "\\]",
    "_",
    "\u03c3",
]


@settings(max_examples=200)
@given(
    st.lists(st.sampled_from(_CLASS_ITEMS), min_size=1, max_size=4),
    st.booleans(),
    st.booleans(),
)
def test_class_sets_agree_with_re(items: list[str], negate: bool, ignorecase: bool) -> None:
    pattern = ("(?i)" if ignorecase else "") + "[" + ("^" if negate else "") + "".join(items) + "]"
    if not _compiles(pattern):
        return
    node = parse(pattern, "python")
    chars = node.chars if isinstance(node, Chars) else CharSet()
    compiled = re.compile(pattern)
    for char in _SAMPLE_CHARS:
        assert (char in chars) == bool(compiled.fullmatch(char)), (pattern, char)


@settings(max_examples=300, derandomize=True, deadline=None)
@given(wide_sets, st.lists(st.integers(0, 0x10FFFF).map(chr), max_size=8))
def test_an_interval_class_matches_exactly_the_characters_of_its_set(
    chars: CharSet, others: list[str]
) -> None:
    pattern = re.compile(interval_class(chars))
    for char in edge_characters(chars) + others:
        assert bool(pattern.fullmatch(char)) == (char in chars), (interval_class(chars), char)


def test_case_insensitive_literals_agree_with_re() -> None:
    candidates = (
        [chr(c) for c in range(0x41, 0x250)]
        + list(_ODD)
        + ["\u1f80", "\u1f88", "\u0399", "\u2126", "\u03a9"]
    )
    for letter in candidates[::3] + list(_ODD):
        pattern = "(?i)" + re.escape(letter)
        node = parse(pattern, "python")
        assert isinstance(node, Chars)
        compiled = re.compile(pattern)
        for char in candidates + _SAMPLE_CHARS[:0x100]:
            assert (char in node.chars) == bool(compiled.fullmatch(char)), (letter, char)


@pytest.mark.parametrize(
    ("tree", "expected"),
    [
        (Chars(CharSet.range("a", "z")), "[a-z]"),
        (Chars(CharSet.of("\n").complement()), "."),
        (Chars(CharSet.of("a\n").complement()), "[^a\\n]"),
        (parse("\\d", "python"), "\\d"),
        (parse("[\\w-]", "python"), "[\\w\\-]"),
        (parse("[^\\W_]", "python"), "[^\\W_]"),
        (parse("\\D", "python"), "\\D"),
        (union(literal("a"), Epsilon()), "a|"),
        (concat(literal("a"), Epsilon()), "a(?:)"),
        (Star(concat(literal("a"), literal("b"))), "(?:ab)*"),
        (Star(Star(literal("a"))), "(?:a*)*"),
        (Star(Assertion(AssertKind.WORD_BOUNDARY)), "(?:\\b)*"),
        (text("a.b\n\x00\u200b"), "a\\.b\\n\\x00\\u200b"),
        (EmptySet(), "[^\\s\\S]"),
        (union(literal("["), literal("^")), "\\[|\\^"),
    ],
)
def test_unparse(tree: Regex, expected: str) -> None:
    assert unparse(tree, "python") == expected


@pytest.mark.parametrize(
    "tree", [Complement(literal("a")), intersection(literal("a"), literal("b"))]
)
def test_unparse_rejects_extended_only_nodes(tree: Regex) -> None:
    with pytest.raises(NotExpressible):
        unparse(tree, "python")
