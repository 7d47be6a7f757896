"""Possessive quantifiers and atomic groups of one character class read as the language Python's
``re`` (3.11) matches, checked on every short string; every other cut stays refused, at its
position."""

from __future__ import annotations

import itertools
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from automata.algebra.ops import accepts_many
from automata.building.compile import compile_regex
from regexlang import parse
from regexlang.ast import Lookaround, Plus, Repeat, Star, concat, literal, union
from regexlang.charset import UNICODE
from regexlang.errors import UnsupportedFeature

_STRINGS = ["".join(w) for n in range(7) for w in itertools.product("ab\n", repeat=n)]
_CLASSES = ["a", "[ab]", ".", "b", "\\n"]
_QUANTIFIERS = ["*", "+", "?", "{2,}", "{0,1}", "{1,3}", "{2}", "{0,2}"]
_CONTEXT = ["", "a", "b", "a*", "[ab]?", "(?:ab)*", ".*", "(?:a|ba)", "\\n?", "$", "(?=b)"]


@st.composite
def _cut(draw: st.DrawFn) -> str:
    chars, quantifier = draw(st.sampled_from(_CLASSES)), draw(st.sampled_from(_QUANTIFIERS))
    form = draw(st.sampled_from(["possessive", "atomic", "atomic lazy", "atomic prefixed"]))
    if form == "possessive":
        return f"{chars}{quantifier}+"
    if form == "atomic":
        return f"(?>{chars}{quantifier})"
    if form == "atomic lazy":
        return f"(?>{chars}{quantifier}?)"
    return f"(?>b(?=[ab\\n])\\B{chars}{quantifier})"


@st.composite
def _patterns(draw: st.DrawFn) -> str:
    before, after = draw(st.sampled_from(_CONTEXT)), draw(st.sampled_from(_CONTEXT))
    cut = draw(_cut())
    if draw(st.booleans()):
        cut = f"(?:{cut}{draw(st.sampled_from(_CONTEXT))})" + draw(st.sampled_from(["*", "+"]))
    return before + cut + after


@settings(max_examples=600, derandomize=True, deadline=None)
@given(_patterns())
def test_a_cut_of_one_class_reads_as_re_matches(pattern: str) -> None:
    dfa = compile_regex(parse(pattern, "python"), UNICODE)
    ours = accepts_many(dfa, _STRINGS).tolist()
    expected = [re.fullmatch(pattern, s) is not None for s in _STRINGS]
    assert ours == expected, [s for s, a, b in zip(_STRINGS, ours, expected) if a != b][:5]


def test_each_cut_reads_as_its_lookahead_form() -> None:
    a = literal("a")
    no_more = Lookaround(a, negative=True)
    assert parse("a*+", "python") == concat(Star(a), no_more)
    assert parse("a++", "python") == parse("(?>a+)", "python") == concat(Plus(a), no_more)
    assert parse("a?+", "python") == union(a, no_more)
    assert parse("a{2,4}+", "python") == union(Repeat(a, 4, 4), concat(Repeat(a, 2, 3), no_more))
    assert parse("a{3}+", "python") == Repeat(a, 3, 3)
    assert parse("(?>ba{2,}?)", "python") == concat(literal("b"), Repeat(a, 2, 2))


@pytest.mark.parametrize(
    ("pattern", "position", "fragment"),
    [
        ("x(?:ab)*+", 7, "a possessive quantifier is supported only on one character class"),
        ("x(?:a|b)++", 8, "a possessive quantifier is supported only on one character class"),
        ("x(?>a|ab)c", 1, "an atomic group is supported only when all in it matches one way"),
        ("(?>a*b)", 0, "an atomic group is supported only when all in it matches one way"),
        ("(?>a*a*)", 0, "an atomic group is supported only when all in it matches one way"),
        ("(?>(a*?))", 0, "an atomic group is supported only when all in it matches one way"),
    ],
)
def test_other_cuts_stay_refused_at_their_position(
    pattern: str, position: int, fragment: str
) -> None:
    assert re.compile(pattern)
    with pytest.raises(UnsupportedFeature, match=re.escape(fragment)) as caught:
        parse(pattern, "python")
    assert caught.value.position == position
