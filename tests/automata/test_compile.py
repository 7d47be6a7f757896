"""Compilation entry points: languages against brute force, alphabets, canonical results."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from automata.algebra import ops
from automata.building.compile import alphabet_of, compile_many, compile_regex, from_text
from automata.errors import UnsupportedRegex
from regexlang import ast as A
from regexlang.charset import EXTENDED_ALPHABET, SIMPLE_ALPHABET, UNICODE, CharSet
from regexlang.unicode_classes import word_chars
from tests.automata.reference import finite_language, regexes, strings_up_to

STRINGS = list(strings_up_to("abc", 6))


def boolean_regexes() -> st.SearchStrategy[A.Regex]:
    """Regexes over {a, b, c} with intersection and complement anywhere."""

    def extend(inner: st.SearchStrategy[A.Regex]) -> st.SearchStrategy[A.Regex]:
        return st.one_of(
            st.lists(inner, min_size=2, max_size=3).map(lambda parts: A.intersection(*parts)),
            inner.map(A.Complement),
            st.lists(inner, min_size=2, max_size=3).map(lambda parts: A.concat(*parts)),
            st.lists(inner, min_size=2, max_size=3).map(lambda parts: A.union(*parts)),
            inner.map(A.Star),
        )

    return st.recursive(regexes(max_leaves=3), extend, max_leaves=5)


@settings(max_examples=200)
@given(regexes())
def test_language_matches_brute_force(regex: A.Regex) -> None:
    members = finite_language(regex, "abc", 6)
    dfa = compile_regex(regex, SIMPLE_ALPHABET)
    assert ops.accepts_many(dfa, STRINGS).tolist() == [s in members for s in STRINGS]


@settings(max_examples=200)
@given(boolean_regexes())
def test_intersection_and_complement_match_brute_force(regex: A.Regex) -> None:
    members = finite_language(regex, "abc", 6)
    dfa = compile_regex(regex, SIMPLE_ALPHABET)
    assert ops.accepts_many(dfa, STRINGS).tolist() == [s in members for s in STRINGS]


def test_compile_many_shares_one_alphabet() -> None:
    a, b = compile_many([A.literal("a"), A.Chars(CharSet.of("bc"))], SIMPLE_ALPHABET)
    assert a.alphabet is b.alphabet
    assert a.alphabet.classes == (CharSet.of("a"), CharSet.of("bc"))


def test_equal_languages_give_identical_tables() -> None:
    a, b = compile_many(
        [
            A.Star(A.union(A.literal("a"), A.literal("b"))),
            A.Star(A.concat(A.Star(A.literal("a")), A.Star(A.literal("b")))),
        ],
        SIMPLE_ALPHABET,
    )
    assert np.array_equal(a.transitions, b.transitions) and np.array_equal(a.accepting, b.accepting)


def test_alphabet_keeps_extra_sets_and_assertion_sets_apart() -> None:
    alphabet = alphabet_of([A.literal("a")], SIMPLE_ALPHABET, extra_sets=[CharSet.of("b")])
    assert alphabet.classes == (CharSet.of("a"), CharSet.of("b"), CharSet.of("c"))
    boundary = alphabet_of(
        [A.concat(A.literal("a"), A.Assertion(A.AssertKind.WORD_BOUNDARY))], UNICODE
    )
    assert any(c == word_chars() - CharSet.of("a") for c in boundary.classes)
    dollar = alphabet_of([A.Assertion(A.AssertKind.END_OR_FINAL_NEWLINE)], UNICODE)
    assert CharSet.of("\n") in dollar.classes and len(dollar) == 2


def test_from_text_uses_the_dialect_universe_or_an_override() -> None:
    assert from_text("a", "simple").alphabet.universe == SIMPLE_ALPHABET
    assert from_text("a", "extended").alphabet.universe == EXTENDED_ALPHABET
    assert from_text("a", "python").alphabet.universe == UNICODE
    custom = from_text("x*", "simple", alphabet=CharSet.of("xy"))
    assert custom.alphabet.universe == CharSet.of("xy")
    assert ops.accepts(custom, "xx") and not ops.accepts(custom, "xy")


def test_sets_outside_the_universe_are_empty() -> None:
    dfa = compile_regex(A.union(A.literal("z"), A.literal("a")), SIMPLE_ALPHABET)
    assert ops.accepts(dfa, "a") and not ops.accepts(dfa, "z") and ops.num_states(dfa) == 2


def test_assertions_under_complement_are_refused() -> None:
    regex = A.Complement(A.Assertion(A.AssertKind.WORD_BOUNDARY))
    with pytest.raises(UnsupportedRegex, match="assertions inside intersection or complement"):
        compile_regex(regex, UNICODE)


def test_counted_repetition_expands_exactly() -> None:
    dfa = from_text("(ab){2,3}c{2,}", "python")
    accepted = [s for s in strings_up_to("abc", 9) if ops.accepts(dfa, s)]
    assert accepted == ["ababcc", "ababccc", "abababcc", "ababcccc", "abababccc", "ababccccc"]


def test_the_package_exports_what_other_packages_use_and_keeps_module_names() -> None:
    import types

    import automata
    from automata.core import minimize
    from automata.strings import paths, sampling

    assert (
        isinstance(automata.core.minimize, types.ModuleType) and minimize is automata.core.minimize
    )
    assert automata.shortest is sampling.shortest and automata.steps_from is paths.steps_from
    assert all(hasattr(automata, name) for name in automata.__all__)
    assert {
        "Path",
        "Step",
        "accepting_paths",
        "sample_strings",
        "diff_ratio",
        "count_by_length",
    } <= set(automata.__all__)
