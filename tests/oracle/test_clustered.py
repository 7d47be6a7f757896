"""The universal reading of clustered examples, checked exactly and against brute-force expansion."""

from __future__ import annotations

import itertools
import re

import attrs
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from automata.algebra.ops import difference
from automata.building.compile import compile_regex
from automata.core.alphabet import partition
from automata.core.dfa import DFA
from automata.jit import _jit
from automata.jit._jit import Mode
from oracle.clustered import ClusteredReading, lift, misclassified, reachable_states, satisfies
from oracle.examples import ClusteredExample, Counterexample, Example
from regexlang.charset import EXTENDED_ALPHABET, SIMPLE_ALPHABET, UNICODE, CharSet
from regexlang.dialects import parse

SIMPLE_REGEXES = [
    "(a b* + c)*",
    "a (b + c)* a",
    "(a + b)* c",
    "((a b)* c)*",
    "a* b* c*",
    "(a + b + c)*",
]
SUBSETS = [CharSet.of(s) for s in ("a", "b", "c", "ab", "ac", "bc", "abc")]


def simple_dfa(text: str) -> DFA:
    return compile_regex(parse(text, "simple"), SIMPLE_ALPHABET)


def brute_force(dfa: DFA, example: ClusteredExample) -> bool:
    return all(dfa.accepts(s) == example.label for s in example.strings())


@given(
    st.sampled_from(SIMPLE_REGEXES),
    st.lists(st.sampled_from(SUBSETS), max_size=5),
    st.booleans(),
)
def test_satisfies_matches_expansion(regex: str, positions: list[CharSet], label: bool) -> None:
    dfa = simple_dfa(regex)
    example = ClusteredExample(tuple(positions), label, SIMPLE_ALPHABET)
    assert satisfies(dfa, example) == brute_force(dfa, example)


def brute_force_differences() -> list[tuple[str, str, list[str]]]:
    """Every ordered pair of :data:`SIMPLE_REGEXES` with its difference's strings up to length 6,
    enumerated with Python ``re`` (pairs whose difference has none are left out)."""

    def matcher(text: str) -> re.Pattern[str]:
        return re.compile(text.replace(" ", "").replace("+", "|"))

    strings = ["".join(t) for n in range(7) for t in itertools.product("abc", repeat=n)]
    pairs = []
    for target, hypothesis in itertools.permutations(SIMPLE_REGEXES, 2):
        inside, outside = matcher(target), matcher(hypothesis)
        witnesses = [s for s in strings if inside.fullmatch(s) and not outside.fullmatch(s)]
        if witnesses:
            pairs.append((target, hypothesis, witnesses))
    return pairs


DIFFERENCES = brute_force_differences()


@given(st.sampled_from(DIFFERENCES), st.data())
def test_lifted_witness_is_a_clustered_counterexample(
    pair: tuple[str, str, list[str]], data: st.DataObject
) -> None:
    target, hypothesis, witnesses = pair
    string = data.draw(st.sampled_from(witnesses))  # every case reaches the checks below
    example = lift(difference(simple_dfa(target), simple_dfa(hypothesis)), string, True)
    assert string in example
    assert set(example.strings()) <= set(witnesses)  # every string it stands for is a witness
    assert satisfies(simple_dfa(target), example)


@given(
    st.sampled_from(SIMPLE_REGEXES),
    st.lists(st.sampled_from(SUBSETS), max_size=5),
)
def test_loose_reading_of_negatives_matches_expansion(regex: str, positions: list[CharSet]) -> None:
    dfa = simple_dfa(regex)
    negative = ClusteredExample(tuple(positions), False, SIMPLE_ALPHABET)
    all_accepted = all(dfa.accepts(s) for s in negative.strings())
    assert satisfies(dfa, negative, reading="loose") == (not all_accepted)
    positive = attrs.evolve(negative, label=True)
    assert satisfies(dfa, positive, reading="loose") == satisfies(dfa, positive) == all_accepted
    assert misclassified(dfa, [negative], reading="loose") == (
        () if not all_accepted else (negative,)
    )


def test_characters_outside_the_universe_are_rejected_strings() -> None:
    letters = compile_regex(parse("[a-z]*", "extended"), EXTENDED_ALPHABET)
    wide = ClusteredExample(("a", CharSet.of("b!")), True, UNICODE)
    assert not satisfies(letters, wide)  # "a!" is outside the universe, hence rejected
    assert satisfies(letters, ClusteredExample(("a", CharSet.of("bc")), True))
    assert satisfies(letters, ClusteredExample((CharSet.of("!?"),), False))
    assert not satisfies(letters, ClusteredExample((CharSet.of("!b"),), False))


def test_plain_examples_and_misclassified() -> None:
    dfa = simple_dfa("a b*")
    examples: list[Counterexample] = [
        Example("abb", True),
        Example("b", True),
        ClusteredExample(("a", CharSet.of("bc")), False),
    ]
    assert [satisfies(dfa, e) for e in examples] == [True, False, False]
    assert misclassified(dfa, examples) == tuple(examples[1:])
    assert satisfies(dfa, ClusteredExample((), False)) and not satisfies(dfa, Example("", True))


#: A small universe, and characters outside it (examples may hold them, hypotheses never read them).
SMALL_UNIVERSE = CharSet.of("abcd")
CHARACTERS = "abcde!"


@st.composite
def small_dfas(draw: st.DrawFn) -> DFA:
    """A random complete DFA over a random partition of :data:`SMALL_UNIVERSE`."""
    sets = draw(st.lists(st.sets(st.sampled_from("abcd"), min_size=1).map(CharSet.of), max_size=3))
    alphabet = partition(SMALL_UNIVERSE, sets)
    n = draw(st.integers(1, 6))
    rows = draw(
        st.lists(
            st.lists(st.integers(0, n - 1), min_size=len(alphabet), max_size=len(alphabet)),
            min_size=n,
            max_size=n,
        )
    )
    accepting = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    return DFA(
        np.array(rows, dtype=np.int32),
        np.array(accepting, dtype=np.bool_),
        draw(st.integers(0, n - 1)),
        alphabet,
    )


def small_examples() -> st.SearchStrategy[list[Counterexample]]:
    """Clustered and plain examples over :data:`CHARACTERS`; positions repeat as one object and as equal ones."""
    shared = [CharSet.of(s) for s in ("ab", "e!", "abcd")]
    position = st.one_of(
        st.sampled_from(shared), st.sets(st.sampled_from(CHARACTERS), min_size=1).map(CharSet.of)
    )
    clustered = st.builds(
        ClusteredExample,
        st.lists(position, max_size=4).map(tuple),
        st.booleans(),
        st.just(SMALL_UNIVERSE),
    )
    plain = st.builds(Example, st.text(CHARACTERS, max_size=4), st.booleans())
    return st.lists(st.one_of(clustered, plain), max_size=8)


def reference_satisfies(dfa: DFA, example: Counterexample, reading: ClusteredReading) -> bool:
    """The docstring's semantics by expansion: every string labelled right (``loose`` negatives:
    some string rejected); a string with a character outside the universe is rejected."""
    accepted = [dfa.accepts(s) for s in example.strings()]
    if reading == "loose" and not example.label:
        return not all(accepted)
    return all(a == example.label for a in accepted)


def reference_reached(dfa: DFA, example: ClusteredExample) -> tuple[frozenset[int], bool]:
    """The states the strings inside the universe reach, walked one by one, and whether any leaves."""
    rows, reached, leaves = dfa.transitions.tolist(), set(), False
    for string in example.strings():
        classes = dfa.alphabet.encode(string).tolist()
        if min(classes, default=0) < 0:
            leaves = True
            continue
        state = dfa.start
        for cls in classes:
            state = rows[state][cls]
        reached.add(state)
    return frozenset(reached), leaves


@pytest.mark.parametrize("mode", ["python", "compiled"])
@settings(max_examples=150)
@given(small_dfas(), small_examples(), st.sampled_from(["universal", "loose"]))
def test_misclassified_matches_expansion_in_both_kernel_forms(
    mode: Mode, dfa: DFA, examples: list[Counterexample], reading: ClusteredReading
) -> None:
    expected = tuple(e for e in examples if not reference_satisfies(dfa, e, reading))
    with _jit.forced(mode):
        assert misclassified(dfa, examples, reading=reading) == expected
        assert [satisfies(dfa, e, reading=reading) for e in examples] == [
            e not in expected for e in examples
        ]
        for example in examples:
            if isinstance(example, ClusteredExample):
                assert reachable_states(dfa, example) == reference_reached(dfa, example)
