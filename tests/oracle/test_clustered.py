"""The universal reading of clustered examples, checked exactly and against brute-force expansion."""

from __future__ import annotations

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


@given(st.sampled_from(SIMPLE_REGEXES), st.sampled_from(SIMPLE_REGEXES), st.text("abc", max_size=6))
def test_lifted_witness_is_a_clustered_counterexample(target: str, hypothesis: str, string: str) -> None:
    diff = difference(simple_dfa(target), simple_dfa(hypothesis))
    if not diff.accepts(string):
        return
    example = lift(diff, string, True)
    assert string in example
    assert all(diff.accepts(s) for s in example.strings())
    assert satisfies(simple_dfa(target), example)
    assert not any(simple_dfa(hypothesis).accepts(s) for s in example.strings())


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
