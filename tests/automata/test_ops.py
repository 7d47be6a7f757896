"""Operations against brute force: every string up to length 6 over the universe.

Regexes over ``{a, b, c}`` are compiled *separately* (so their alphabets differ and every binary
operation has to align them) and their languages up to length 6 enumerated bottom-up
(:func:`finite_language`); witnesses longer than that are checked with ``re.fullmatch``.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings

from automata.algebra import ops
from automata.building.compile import compile_many, compile_regex
from automata.core.dfa import DFA
from regexlang import ast as A
from regexlang import unparse
from regexlang.charset import SIMPLE_ALPHABET, CharSet
from tests.automata.reference import finite_language, regexes, strings_up_to

MAX_LEN = 6
STRINGS = list(strings_up_to("abc", MAX_LEN))
AB = CharSet.of("ab")
AB_STRINGS = list(strings_up_to("ab", MAX_LEN))


def language(regex: A.Regex, strings: list[str] = STRINGS) -> np.ndarray:
    members = finite_language(regex, "".join(sorted(set("".join(strings)))), MAX_LEN)
    return np.array([s in members for s in strings])


def labels(dfa: DFA, strings: list[str] = STRINGS) -> np.ndarray:
    return ops.accepts_many(dfa, strings)


@settings(max_examples=150)
@given(regexes(), regexes())
def test_boolean_operations_match_brute_force(left: A.Regex, right: A.Regex) -> None:
    a, b = compile_regex(left, SIMPLE_ALPHABET), compile_regex(right, SIMPLE_ALPHABET)
    la, lb = language(left), language(right)
    assert (labels(a) == la).all()
    assert (labels(ops.complement(a)) == ~la).all()
    assert (labels(ops.intersection(a, b)) == (la & lb)).all()
    assert (labels(ops.union(a, b)) == (la | lb)).all()
    assert (labels(ops.difference(a, b)) == (la & ~lb)).all()
    assert (labels(ops.symmetric_difference(a, b)) == (la ^ lb)).all()


def _check_witness(
    witness: ops.Witness | None, left: A.Regex, right: A.Regex, wanted: np.ndarray
) -> None:
    """``wanted[i]``: whether STRINGS[i] is a valid answer; the witness must be the first of them."""
    hits = np.flatnonzero(wanted)
    if witness is None:
        assert hits.size == 0
        return
    string = witness.string
    in_left = re.fullmatch(unparse(left, "python"), string) is not None
    in_right = re.fullmatch(unparse(right, "python"), string) is not None
    assert in_left != in_right
    assert witness.accepted_by == ("left" if in_left else "right")
    assert "".join(witness.alphabet.representative(c) for c in witness.classes) == string
    if hits.size:
        assert string == STRINGS[hits[0]], "not the shortest, lexicographically smallest witness"
    else:
        assert len(string) > MAX_LEN


@settings(max_examples=200)
@given(regexes(), regexes())
def test_equivalence_witness_is_shortest_and_smallest(left: A.Regex, right: A.Regex) -> None:
    a, b = compile_regex(left, SIMPLE_ALPHABET), compile_regex(right, SIMPLE_ALPHABET)
    la, lb = language(left), language(right)
    witness = ops.equivalence_witness(a, b)
    _check_witness(witness, left, right, la ^ lb)
    assert ops.equivalent(a, b) == (witness is None)
    assert ops.equivalent(b, a) == (witness is None)
    inclusion = ops.inclusion_witness(a, b)
    _check_witness(inclusion, left, right, la & ~lb)
    if inclusion is not None:
        assert inclusion.accepted_by == "left"
    assert ops.is_subset(a, b) == (inclusion is None)


@settings(max_examples=150)
@given(regexes())
def test_decisions_match_brute_force(regex: A.Regex) -> None:
    dfa = compile_regex(regex, SIMPLE_ALPHABET)
    lang = language(regex)
    if ops.is_empty(dfa):
        assert not lang.any()
    if lang.any():
        assert not ops.is_empty(dfa)
    if ops.is_universal(dfa):
        assert lang.all()
    if not lang.all():
        assert not ops.is_universal(dfa)
    assert ops.is_empty(dfa) == ops.is_universal(ops.complement(dfa))
    assert ops.equivalent(dfa, ops.complement(ops.complement(dfa)))


@settings(max_examples=100)
@given(regexes("ab"), regexes("ab"))
def test_shared_alphabet_over_a_two_letter_universe(left: A.Regex, right: A.Regex) -> None:
    a, b = compile_many([left, right], AB)
    assert a.alphabet is b.alphabet
    la, lb = language(left, AB_STRINGS), language(right, AB_STRINGS)
    assert (labels(ops.intersection(a, b), AB_STRINGS) == (la & lb)).all()
    assert (labels(ops.complement(a), AB_STRINGS) == ~la).all()
    assert ops.equivalent(a, b) == ((la == lb).all() and ops.equivalence_witness(a, b) is None)


def test_accepts_rejects_characters_outside_the_universe() -> None:
    dfa = compile_regex(A.Star(A.Chars(SIMPLE_ALPHABET)), SIMPLE_ALPHABET)
    assert ops.accepts(dfa, "abcab")
    assert not ops.accepts(dfa, "abd")
    assert ops.accepts_many(dfa, ["", "d", "cc", "\U0001f600"]).tolist() == [
        True,
        False,
        True,
        False,
    ]
    assert ops.accepts_many(dfa, []).tolist() == []


def test_complement_is_relative_to_the_universe() -> None:
    dfa = compile_regex(A.literal("a"), SIMPLE_ALPHABET)
    other = ops.complement(dfa)
    assert ops.accepts(other, "b") and ops.accepts(other, "") and not ops.accepts(other, "a")
    assert not ops.accepts(other, "d")
    assert ops.is_universal(ops.union(dfa, other))


def test_num_states_and_dead_state() -> None:
    a_then_b = compile_regex(A.text("ab"), SIMPLE_ALPHABET)
    assert ops.num_states(a_then_b) == 3
    assert ops.dead_state(a_then_b) == a_then_b.n_states - 1
    everything = compile_regex(A.Star(A.Chars(SIMPLE_ALPHABET)), SIMPLE_ALPHABET)
    assert ops.num_states(everything) == 1 and ops.dead_state(everything) is None
    nothing = compile_regex(A.EmptySet(), SIMPLE_ALPHABET)
    assert ops.num_states(nothing) == 0 and ops.dead_state(nothing) == 0
    assert ops.num_states(compile_regex(A.Epsilon(), SIMPLE_ALPHABET)) == 1


def test_witness_prints_class_representatives() -> None:
    digits = CharSet.range("0", "9")
    universe = CharSet.range("0", "9") | CharSet.range("a", "z")
    left = compile_regex(A.concat(A.Chars(digits), A.literal("x")), universe)
    right = compile_regex(A.concat(A.literal("7"), A.literal("x")), universe)
    witness = ops.equivalence_witness(left, right)
    assert witness is not None
    assert witness.string == "0x" and witness.accepted_by == "left"
    assert witness.alphabet.classes[witness.classes[0]] == CharSet.range("0", "6") | CharSet.range(
        "8", "9"
    )


def test_align_reindexes_columns_onto_the_common_refinement() -> None:
    a = compile_regex(A.literal("a"), SIMPLE_ALPHABET)
    b = compile_regex(A.literal("b"), SIMPLE_ALPHABET)
    a2, b2 = ops.align(a, b)
    assert a2.alphabet is b2.alphabet and len(a2.alphabet) == 3
    for string in STRINGS[:40]:
        assert a2.accepts(string) == a.accepts(string) and b2.accepts(string) == b.accepts(string)


def test_mismatched_universes_are_refused() -> None:
    a = compile_regex(A.literal("a"), SIMPLE_ALPHABET)
    b = compile_regex(A.literal("a"), AB)
    with pytest.raises(ValueError, match="different universes"):
        ops.equivalent(a, b)
