"""Printing for engines: Python's own ``re`` agrees with the tree, whole-string or through the
anchors of a search; the other flavours spell what their engines need."""

from __future__ import annotations

import itertools
import re

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from automata import compile_regex
from regexlang import CharSet, NotExpressible, parse
from regexlang.ast import (
    Complement,
    Concat,
    Epsilon,
    Optional,
    Plus,
    Regex,
    Repeat,
    Star,
    Union,
    literal,
)
from regexlang.flavors import FLAVORS, LOOKAROUND_FLAVORS, Flavor, render
from tests.regexlang.strategies import _trees, class_of, n_ary, quantified

SIGMA = CharSet.of("a.|-]^\\")
TREES = _trees(
    st.one_of(st.just(Epsilon()), st.sampled_from(sorted(SIGMA)).map(literal), class_of(SIGMA)),
    lambda children: st.one_of(n_ary(children), quantified(children)),
)


def quantifier_depth(tree: Regex) -> int:
    """How deeply quantifiers nest in ``tree``: ``re`` backtracks exponentially in it on a failing match."""
    if isinstance(tree, (Star, Plus, Optional, Repeat)):
        return 1 + quantifier_depth(tree.inner)
    if isinstance(tree, (Concat, Union)):
        return max(
            quantifier_depth(part)
            for part in (tree.parts if isinstance(tree, Concat) else tree.options)
        )
    return 0


def strings(alphabet: str, longest: int) -> list[str]:
    return ["".join(p) for n in range(longest + 1) for p in itertools.product(alphabet, repeat=n)]


@settings(max_examples=150, deadline=None, derandomize=True)
@given(TREES)
def test_python_flavour_matches_the_tree_whole_string_and_through_search_anchors(
    tree: Regex,
) -> None:
    # Python's backtracking engine, the reference here, takes time exponential in the nesting of
    # quantifiers on a failing match (a tree of 12 leaves may nest 10 deep: minutes on "aa-")
    assume(quantifier_depth(tree) <= 4)
    dfa = compile_regex(tree, SIGMA)
    full = re.compile(render(tree, "python", "fullmatch", SIGMA))
    search = re.compile(render(tree, "python", "search", SIGMA))
    for s in strings("a.|-]", 3):
        assert bool(full.fullmatch(s)) == dfa.accepts(s) == bool(search.search(s)), (tree, s)


def test_each_flavour_spells_classes_groups_and_anchors_its_own_way() -> None:
    tree = parse(r"[0-9]{5}(-[0-9]{4})?|x", "python")
    assert render(tree, "python") == "[0-9]{5}(?:-[0-9]{4})?|x"
    assert render(tree, "pcre") == r"\A(?:\d{5}(?:-\d{4})?|x)\z"
    assert render(tree, "javascript") == r"^(?:\d{5}(?:-\d{4})?|x)$"
    assert render(tree, "re2") == r"\d{5}(?:-\d{4})?|x"
    assert render(tree, "posix") == "^([0-9]{5}(-[0-9]{4})?|x)$"
    assert render(tree, "javascript", "fullmatch") == r"\d{5}(?:-\d{4})?|x"


def test_any_character_prints_as_a_dot_and_posix_brackets_have_no_escapes() -> None:
    everything = Star(parse(".", "python"))
    assert {render(everything, f, "fullmatch") for f in FLAVORS} == {".*"}
    assert render(parse(r"[\]\-^a]", "python"), "posix", "fullmatch") == "[]a^-]"
    assert re.fullmatch(render(parse(r"[\]\-^a]", "python"), "pcre", "fullmatch"), "^")


@pytest.mark.parametrize("flavor", ["python", "pcre", "javascript", "re2"])
def test_a_class_holding_the_universe_s_newline_is_not_a_dot(flavor: Flavor) -> None:
    lines = CharSet.of("ab\n")
    everything = Star(parse("[ab\n]", "python"))
    assert render(everything, flavor, "fullmatch", lines) == r"[\s\S]*"
    assert render(Star(parse("[ab]", "python")), flavor, "fullmatch", CharSet.of("ab")) == ".*"
    assert render(Star(parse("[\\s\\S]", "python")), flavor, "fullmatch") == r"[\s\S]*"
    assert render(Star(parse(".", "python")), flavor, "fullmatch", lines) == ".*"
    assert render(everything, "posix", "fullmatch", lines) == ".*"


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    _trees(
        st.one_of(st.sampled_from(sorted("ab\n")).map(literal), class_of(CharSet.of("ab\n"))),
        lambda children: st.one_of(n_ary(children), quantified(children)),
    )
)
def test_python_flavour_matches_the_tree_over_a_universe_with_a_newline(tree: Regex) -> None:
    assume(quantifier_depth(tree) <= 4)
    lines = CharSet.of("ab\n")
    dfa = compile_regex(tree, lines)
    full = re.compile(render(tree, "python", "fullmatch", lines))
    for s in strings("ab\n", 3):
        assert bool(full.fullmatch(s)) == dfa.accepts(s), (tree, s)


def test_intersection_and_complement_are_not_expressible() -> None:
    with pytest.raises(NotExpressible):
        render(Complement(parse("a", "python")), "python")
    with pytest.raises(NotExpressible):
        render(Complement(Star(parse("a", "python"))), "pcre")


@pytest.mark.parametrize("text", ["(?=a)a*", "a(?!b).", "(?<=a)b|c", "(?<!a|b)c", "(?:(?=a).)*"])
def test_lookarounds_print_where_the_engine_has_them_and_nowhere_else(text: str) -> None:
    tree = parse(text, "python")
    for flavor in sorted(LOOKAROUND_FLAVORS):
        printed = render(tree, flavor, "fullmatch")
        assert "(?" in printed and parse(printed, "python") == tree, (
            flavor
        )  # the three spell them alike
    for flavor in set(FLAVORS) - LOOKAROUND_FLAVORS:
        with pytest.raises(NotExpressible, match="lookarounds"):
            render(tree, flavor)
