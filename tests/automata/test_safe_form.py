"""The safe printer: linear forms that Python's own ``re`` agrees with, on every short text."""

from __future__ import annotations

import itertools
import re

import attrs
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from automata.algebra.ops import accepts
from automata.building.compile import compile_regex
from automata.redos import analyse, check
from automata.safe import safe_form
from automata.safe.possessive import language, loops, render
from automata.safe.rewrites import rewritten
from automata.strings.sampling import sample_strings
from regexlang import parse
from regexlang.ast import Chars, Concat, Plus, Regex, Repeat, Star, concat, union
from regexlang.charset import UNICODE, CharSet
from regexlang.errors import NotExpressible
from regexlang.flavors import render as render_flavor

_TEXTS = ["".join(chars) for n in range(6) for chars in itertools.product("ab1\n", repeat=n)]


def _same_on_short_texts(left: str, right: str) -> None:
    for text in _TEXTS:
        assert bool(re.fullmatch(left, text)) == bool(re.fullmatch(right, text)), (
            left,
            right,
            text,
        )


@pytest.mark.parametrize(
    ("written", "safe"),
    [
        ("[AEIOUaeiou]{2,}.*", "[AEIOUaeiou]{2}.*"),
        ("(?:.|[a-z]){7,}", ".{7,}"),
        (".*[0-9].*", "[^0-9\\n]*[0-9].*"),
        ("(a|a)*", "a*"),
        ("(a+)+b", "a+b"),
        ("\\d+\\d+x", "\\d{2,}x"),
    ],
)
def test_the_issue_examples_print_linear(written: str, safe: str) -> None:
    form = safe_form(written)
    assert not form.original.linear
    assert (form.text, form.verdict.verdict, form.rewritten) == (safe, "linear", True)
    assert check(form.text).linear


def test_words_between_stars_print_from_the_minimal_dfa() -> None:
    form = safe_form("[A-Z].*dog.*.*[0-9].*")
    assert form.verdict.linear and form.rewritten
    _same_on_short_texts(form.text, "[A-Z].*dog.*.*[0-9].*")
    for text in ["Adogdog1", "Xdo1g", "Zxdogy", "Adog\n1"]:
        assert bool(re.fullmatch(form.text, text)) == bool(
            re.fullmatch("[A-Z].*dog.*[0-9].*", text)
        )


def test_a_linear_print_is_kept_as_written() -> None:
    form = safe_form("(?:ab|cd)*e")
    assert (form.text, form.rewritten, form.reason) == ("(?:ab|cd)*e", False, "")


def test_without_a_linear_form_the_reason_is_given() -> None:
    form = safe_form("[0-9].*(?:dog|truck|ring).*", "javascript")
    assert not form.verdict.linear and not form.rewritten
    assert "JavaScript has no atomic groups or possessive quantifiers" in form.reason


@pytest.mark.parametrize("pattern", ["a+b", ".*[0-9].*", "(?:ab|cd)*e"])
def test_under_search_the_form_finds_what_the_original_finds(pattern: str) -> None:
    form = safe_form(pattern, match="search")
    assert form.verdict.semantics == "search"
    assert form.verdict.linear or form.reason
    for text in _TEXTS:
        assert bool(re.search(form.text, text)) == bool(re.search(pattern, text)), (form.text, text)


def test_backreferences_are_unknown_with_the_reason() -> None:
    form = safe_form("(a)\\1")
    assert form.verdict.verdict == "unknown" and form.reason


@pytest.mark.parametrize(
    "pattern", ["[a-z]*[0-9]", "[a-z]*[a-z0-9]", "a*a", "\\d+x\\d*", "[a-z]{2,}[0-9]*[a-z]", "b*"]
)
@pytest.mark.parametrize("proposed", [True, False])
def test_possessive_language_is_what_re_matches(pattern: str, proposed: bool) -> None:
    # proposed: the loops the printer would try; otherwise every loop, the cut changing the language
    tree = parse(pattern, "python")
    parts = tree.parts if isinstance(tree, Concat) else (tree,)
    every = tuple(i for i, part in enumerate(parts) if isinstance(part, (Star, Plus, Repeat)))
    marks = loops(tree) if proposed else every
    printed = render(tree, marks, "python")
    dfa = compile_regex(language(tree, marks), UNICODE)
    for text in _TEXTS:
        assert accepts(dfa, text) == bool(re.fullmatch(printed, text)), (printed, text)


_LEAF = st.sampled_from(
    [
        Chars(CharSet.of("a")),
        Chars(CharSet.of("b")),
        Chars(CharSet.of("ab1")),
        Chars(UNICODE - CharSet.of("\n")),
    ]
)


def _regexes() -> st.SearchStrategy[Regex]:
    def extend(inner: st.SearchStrategy[Regex]) -> st.SearchStrategy[Regex]:
        return st.one_of(
            inner.map(Star),
            st.tuples(inner, st.integers(0, 2)).map(lambda p: Repeat(p[0], p[1], None)),
            st.tuples(inner, inner).map(lambda p: concat(*p)),
            st.tuples(inner, inner).map(lambda p: union(*p)),
        )

    return st.recursive(_LEAF, extend, max_leaves=5)


@settings(max_examples=60, derandomize=True, deadline=None)
@given(_regexes())
def test_every_safe_form_matches_what_the_original_matches(regex: Regex) -> None:
    original = render_flavor(regex, "python", "fullmatch")
    form = safe_form(regex)
    if form.rewritten:
        assert form.verdict.linear and check(form.text).linear
        _same_on_short_texts(form.text, original)
    else:
        assert form.text == original
        assert form.verdict.linear or form.reason


@settings(max_examples=40, derandomize=True, deadline=None)
@given(_regexes())
def test_rewrites_keep_the_language(regex: Regex) -> None:
    _same_on_short_texts(
        render_flavor(rewritten(regex), "python", "fullmatch"),
        render_flavor(regex, "python", "fullmatch"),
    )


def _sample_targets() -> list[Regex]:
    from experiments.data_dir import DEFAULT_DATA_DIR
    from experiments.datasets import DatasetNotFound
    from experiments.datasets.deepregex import python_targets

    try:
        tasks = python_targets(DEFAULT_DATA_DIR / "kb13").tasks
    except DatasetNotFound:
        pytest.skip("the KB13 data is not here")
    trees = [task.regex() for task in tasks[::12]]
    return [tree for tree in trees if _printable(tree)]


def _printable(tree: Regex) -> bool:
    try:
        render_flavor(tree, "python")
    except NotExpressible:  # word boundaries have no spelling in the flavour printer
        return False
    return True


def test_dataset_targets_print_linear_and_re_agrees() -> None:
    forms = [safe_form(tree) for tree in _sample_targets()]
    assert all(form.verdict.linear or form.reason for form in forms)
    assert sum(form.verdict.linear for form in forms) >= 0.9 * len(forms)
    for form in forms:
        if form.rewritten:
            _same_on_short_texts(form.text, form.original_text)
            dfa = compile_regex(parse(form.original_text, "python"), UNICODE)
            for text in sample_strings(dfa, 20, np.random.default_rng(0)):
                assert re.fullmatch(form.text, text), (form.text, text)


@settings(max_examples=150, derandomize=True, deadline=None)
@given(_regexes())
def test_a_possessive_print_read_back_has_the_verdict_the_printer_gives(regex: Regex) -> None:
    marks = loops(regex)
    try:
        text = render(regex, marks, "python")
    except NotExpressible:
        return
    claimed = analyse(regex, possessive=marks)
    read = check(text)
    assert (read.verdict, read.degree) == (claimed.verdict, claimed.degree), text


@pytest.mark.parametrize(
    ("pattern", "verdict"),
    [
        ("(?:a*+)*b", "linear"),
        ("(?:a*(?!a))*b", "linear"),
        ("(?:a*)*b", "exponential"),
        ("(?:(?>a+)b?)*c", "linear"),
    ],
)
def test_a_cut_loop_is_linear_where_the_engine_is(pattern: str, verdict: str) -> None:
    assert check(pattern).verdict == verdict


def test_past_its_budget_the_search_gives_the_print_as_written_with_its_verdict() -> None:
    # no tries: not even the target DFA is compiled, let alone a candidate tried
    form = safe_form(".*[0-9].*", tries=0)
    assert (form.text, form.rewritten) == (".*[0-9].*", False)
    assert form.verdict == check(".*[0-9].*") and form.verdict.verdict == "polynomial"
    assert "no linear form among the first 0 candidates" in form.reason


def test_the_search_tries_as_many_candidates_as_it_is_given() -> None:
    # the first candidate (the tree rewritten) is not linear; the second (an elimination print) is
    first = safe_form("(?:a|b)*(?:a|c)*d", tries=1)
    assert not first.rewritten and "among the first 1 candidates" in first.reason
    assert safe_form("(?:a|b)*(?:a|c)*d", tries=2).verdict.linear


def test_a_verdict_the_caller_has_is_not_analysed_again() -> None:
    known = check("(?:a+)+b")
    form = safe_form("(?:a+)+b", known=attrs.evolve(known, reason="handed in"))
    assert form.original.reason == "handed in" and form.verdict.linear
