"""Counted classes peeled off the end of a language: each peel is exact on its range."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from automata.algebra import ops
from automata.building.compile import compile_regex, from_text
from automata.core.dfa import DFA
from automata.printing.counted import Peel, peels
from automata.printing.to_regex import to_regex
from regexlang import ast as A
from regexlang import unparse
from regexlang.charset import CharSet

UNIVERSE = CharSet.of("abc")


def factor(peel: Peel) -> A.Regex:
    counted = A.Repeat(A.Chars(peel.chars), peel.low, peel.high)
    return A.Optional(counted) if peel.optional else counted


def written(dfa: DFA, peel: Peel, rest: DFA) -> DFA:
    return compile_regex(A.concat(to_regex(rest), factor(peel)), dfa.alphabet.universe)


def assert_exact(dfa: DFA, peel: Peel) -> None:
    """Every language between the rest's bounds, followed by the factor, is the language peeled."""
    assert ops.is_subset(peel.lower, peel.upper)
    assert ops.equivalent(written(dfa, peel, peel.lower), dfa)
    assert ops.equivalent(written(dfa, peel, peel.upper), dfa)


def test_overlapping_classes_peel_to_their_last_count() -> None:
    dfa = from_text("[a-z]{1,4}[A-Za-z]{2}[a-z]{1,4}", "extended")
    first = next(peels(dfa, dfa))
    universe = dfa.alphabet.universe
    assert (
        unparse(A.Chars(first.chars), "extended", universe),
        first.low,
        first.high,
        first.optional,
    ) == ("[a-z]", 1, 4, False)
    assert ops.equivalent(first.upper, from_text("[a-z]{1,4}[A-Za-z]{2}", "extended"))
    assert_exact(dfa, first)


def test_the_rest_may_be_wider_than_needed() -> None:
    # before the last [0-9]{2,}: the least rest needed is [0-9]{2}|[0-9]{2,}[A-Z]{1,3}, the largest
    # also holds 00A0 (00A0·00 is in the language); the natural rest lies between them
    dfa = from_text("[0-9]{2,}([A-Z]{1,3})?[0-9]{2,}", "extended")
    first = next(peels(dfa, dfa))
    assert (first.low, first.high, first.optional) == (2, None, False)
    assert ops.equivalent(first.lower, from_text("[0-9]{2}|[0-9]{2,}[A-Z]{1,3}", "extended"))
    assert first.upper.accepts("00A0") and not first.lower.accepts("00A0")
    natural = from_text("[0-9]{2,}([A-Z]{1,3})?", "extended")
    assert ops.is_subset(first.lower, natural) and ops.is_subset(natural, first.upper)


def test_an_optional_last_factor() -> None:
    dfa = from_text("[A-Z]{2,3}(([0-9]|[A-Z]){3,4})?", "extended")
    found = {
        (unparse(A.Chars(p.chars), "extended", dfa.alphabet.universe), p.low, p.high, p.optional)
        for p in peels(dfa, dfa)
    }
    assert ("[A-Z0-9]", 3, 4, True) in found


def test_no_class_ends_a_language_of_words() -> None:
    dfa = from_text("dog|cat", "extended")
    assert all(p.optional for p in peels(dfa, dfa))  # only ([gt])? shapes, never a required count


CLASSES = [CharSet.of(c) for c in ("a", "b", "c", "ab", "bc", "abc")]


@st.composite
def counted_concatenations(draw: st.DrawFn) -> A.Regex:
    """Concatenations of counted classes over overlapping classes, some optional."""
    parts = []
    for _ in range(draw(st.integers(1, 4))):
        low = draw(st.integers(0, 3))
        high = draw(st.one_of(st.none(), st.integers(low, low + 2)))
        part: A.Regex = A.Repeat(A.Chars(draw(st.sampled_from(CLASSES))), low, high)
        parts.append(A.Optional(part) if draw(st.booleans()) else part)
    return A.concat(*parts)


@settings(max_examples=80)
@given(counted_concatenations())
def test_every_peel_is_exact(regex: A.Regex) -> None:
    dfa = compile_regex(regex, UNIVERSE)
    for peel in list(peels(dfa, dfa))[:4]:
        assert_exact(dfa, peel)
        for inner in list(peels(peel.lower, peel.upper))[:2]:  # on a range: within its bounds
            assert ops.is_subset(peel.lower, written(dfa, inner, inner.lower))
            assert ops.is_subset(written(dfa, inner, inner.upper), peel.upper)
