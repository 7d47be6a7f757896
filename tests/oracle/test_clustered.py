"""The universal reading of clustered examples, checked exactly and against brute-force expansion."""

from __future__ import annotations

import itertools
import re

import attrs
from hypothesis import given
from hypothesis import strategies as st

from automata.compile import compile_regex
from automata.dfa import DFA
from automata.ops import difference
from oracle.clustered import lift, misclassified, satisfies
from oracle.examples import ClusteredExample, Counterexample, Example
from regexlang.charset import EXTENDED_ALPHABET, SIMPLE_ALPHABET, UNICODE, CharSet
from regexlang.dialects import parse

SIMPLE_REGEXES = ["(a b* + c)*", "a (b + c)* a", "(a + b)* c", "((a b)* c)*", "a* b* c*", "(a + b + c)*"]
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
def test_lifted_witness_is_a_clustered_counterexample(pair: tuple[str, str, list[str]], data: st.DataObject) -> None:
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
    assert misclassified(dfa, [negative], reading="loose") == (() if not all_accepted else (negative,))


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
