"""Lookarounds compile exactly: our DFA agrees with ``re.fullmatch`` on every short string.

The reference is CPython's ``re`` itself: random pattern *texts* with lookaheads and lookbehinds at
the start, in the middle, at the end, nested, under stars and in alternations, with anchors inside
and out, are compiled by both, and every string up to length 6 over ``a``, ``b`` and ``"\\n"``
(which ``\\b`` and ``$`` tell apart) is matched by both. A pattern ``re`` refuses must be refused by
the parser too. CPython's own ``re_tests`` cases with lookarounds, and the plain ones of its
``test_re`` (``test_lookbehind``), are compared on every substring of their subject.
"""

from __future__ import annotations

import importlib
import re
import warnings

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from automata.algebra.ops import accepts_many, equivalent
from automata.building.compile import compile_many, compile_regex
from automata.errors import StateLimitExceeded, UnsupportedRegex
from regexlang import RegexSyntaxError, UnsupportedFeature, parse
from regexlang.charset import UNICODE, CharSet
from tests.automata.reference import strings_up_to

ALPHABET = "ab\n"
STRINGS = list(strings_up_to(ALPHABET, 6))
_ATOMS = ["a", "b", ".", "[ab]", "\\n", r"\b", r"\B", "^", "$", r"\Z", r"\A"]
_LOOKS = ["(?={})", "(?!{})", "(?<={})", "(?<!{})"]


def _pattern_texts() -> st.SearchStrategy[str]:
    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        return st.one_of(
            st.tuples(inner, inner).map("".join),
            st.tuples(inner, inner).map("(?:{0[0]}|{0[1]})".format),
            st.tuples(inner, st.sampled_from(["*", "+", "?", "{2}", "{1,2}"])).map(
                lambda p: f"(?:{p[0]}){p[1]}"
            ),
            st.tuples(st.sampled_from(_LOOKS), inner).map(lambda p: p[0].format(p[1])),
        )

    return st.recursive(st.sampled_from(_ATOMS), extend, max_leaves=7)


def _re_compiled(text: str) -> re.Pattern[str] | None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return re.compile(text)
        except re.error:
            return None


def _disagreements(text: str, strings: list[str]) -> list[str]:
    pattern = re.compile(text)
    dfa = compile_regex(parse(text, "python"), UNICODE)
    ours = accepts_many(dfa, strings).tolist()
    return [
        s for s, accepted in zip(strings, ours) if accepted != (pattern.fullmatch(s) is not None)
    ]


@settings(max_examples=400)
@given(_pattern_texts().filter(lambda t: "(?" in t))
def test_agrees_with_fullmatch_on_every_short_string(text: str) -> None:
    if _re_compiled(text) is None:  # e.g. a variable-width lookbehind, or a repeated anchor
        with pytest.raises(RegexSyntaxError):
            parse(text, "python")
        return
    assert _disagreements(text, STRINGS) == [], text


@pytest.mark.slow
@settings(max_examples=4000)
@given(_pattern_texts().filter(lambda t: "(?" in t))
def test_agrees_with_fullmatch_at_length(text: str) -> None:
    assume(_re_compiled(text) is not None)
    assert _disagreements(text, STRINGS) == [], text


PLACES = [
    "(?=a)[ab]*",  # start
    "a(?!b)[ab]*",  # middle
    "[ab]*(?<=b)",  # end
    "[ab]*(?<!ab)",
    "(?=a(?=b)).*",  # nested
    "(?=(?!a).)..",
    "(?<=(?<=a)b)a|.*",
    "(?<=a(?=b))b*|a*",  # a lookahead inside a lookbehind looks past it
    "(?:a(?=b)|b)*",  # under a star
    "(?:(?<!a)b|a)*",
    "(?:(?=a)|b)*a",  # a zero-width turn of a star
    "(?:a|(?!b))*b",
    "(?=.*a$)[ab\\n]*",  # anchors inside
    "(?=[ab]*\\Z)a.*",
    r"(?<=\ba)b*",
    r"a(?<=^a)b",
    r"(?!.*\n)[^b]*",
    "(?!)a|b",  # the empty lookahead
    "(?=)a",
    "(?<=a|b)a|a",  # fixed width across options
    "(?<=a{2})b|aab",
]


@pytest.mark.parametrize("text", PLACES)
def test_lookarounds_everywhere_agree_with_fullmatch(text: str) -> None:
    assert _disagreements(text, STRINGS) == []


def _re_tests_cases() -> list[tuple[str, str]]:
    re_tests = importlib.import_module(
        "test.re_tests"
    )  # CPython's own table (pattern, subject, outcome, ...)
    return [
        (case[0], case[1])
        for case in re_tests.tests
        if any(look in case[0] for look in ("(?=", "(?!", "(?<"))
    ]


#: Plain lookbehinds from CPython's ``test_re.test_lookbehind`` (the rest there use backreferences).
TEST_RE_CASES = [
    (r"ab(?<=b)c", "abc"),
    (r"ab(?<=c)c", "abc"),
    (r"ab(?<!b)c", "abc"),
    (r"ab(?<!c)c", "abc"),
    ("(a)((?!(b)*))*", "abb"),
    ("(a)(?:(?=(b)*)c)*", "abb"),
]


def test_cpython_lookaround_cases_run_and_agree() -> None:
    cases = _re_tests_cases() + TEST_RE_CASES
    ran = []
    for pattern, subject in cases:
        if _re_compiled(pattern) is None:
            continue
        substrings = sorted(
            {subject[i:j] for i in range(len(subject) + 1) for j in range(i, len(subject) + 1)}
        )
        assert _disagreements(pattern, substrings + STRINGS[:40]) == [], pattern
        ran.append(pattern)
    assert (
        len(ran) == len(cases) == 16
    )  # none refused (those with backreferences are not in re_tests)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        (r"(a)b(?<=\1)a", "backreferences are not regular"),
        (
            r"(?:(a)|(x))b(?=(?(1)b|x))c",
            "conditional groups are not supported (they test a captured group: not regular",
        ),
        ("(?>a|ab)", "an atomic group is supported only when all in it matches one way"),
    ],
)
def test_what_is_not_regular_stays_refused_with_the_reason(text: str, fragment: str) -> None:
    assert _re_compiled(text) is not None
    with pytest.raises(UnsupportedFeature, match=re.escape(fragment)):
        parse(text, "python")


def test_a_variable_width_lookbehind_is_refused_as_re_refuses_it() -> None:
    assert _re_compiled("(?<=a|bc)d") is None
    with pytest.raises(RegexSyntaxError, match="look-behind requires fixed-width pattern"):
        parse("(?<=a|bc)d", "python")


def test_the_password_rule_equals_its_intersection() -> None:
    universe = (
        CharSet.range("a", "z")
        | CharSet.range("A", "Z")
        | CharSet.range("0", "9")
        | CharSet.of("#")
    )
    looked = parse("(?=.*[0-9])(?=.*[a-z])[a-z0-9]{8,}", "python")
    written = parse(
        "([a-z0-9]{8,})&([A-Za-z0-9#]*[0-9][A-Za-z0-9#]*)&([A-Za-z0-9#]*[a-z][A-Za-z0-9#]*)",
        "extended",
        universe,
    )
    first, second = compile_many([looked, written], universe)
    assert equivalent(first, second)


def test_the_state_limit_bounds_the_construction() -> None:
    with pytest.raises(StateLimitExceeded):
        compile_regex(parse("(?=[ab]*a[ab]{12})[ab]*", "python"), UNICODE, state_limit=500)


def test_a_count_too_deep_for_the_construction_is_a_typed_error() -> None:
    with pytest.raises(UnsupportedRegex, match="too deeply"):
        compile_regex(parse("(?=a)(?:a?){2000}", "python"), UNICODE)
