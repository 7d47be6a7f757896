"""The evaluation set and the two distances: accuracy and Diff Ratio."""

from __future__ import annotations

import pytest

from automata.algebra.ops import complement
from automata.building.compile import compile_regex
from automata.core.dfa import DFA
from oracle.evaluation import accuracy, evaluation_set, score
from regexlang.ast import EmptySet
from regexlang.charset import EXTENDED_ALPHABET, SIMPLE_ALPHABET
from regexlang.dialects import parse


def simple_dfa(text: str) -> DFA:
    return compile_regex(parse(text, "simple"), SIMPLE_ALPHABET)


def test_evaluation_set_is_balanced_bounded_labeled_and_seeded() -> None:
    target = compile_regex(parse("[A-Za-z]+[0-9]", "extended"), EXTENDED_ALPHABET)
    examples = evaluation_set(target)
    assert len(examples) == 800 and examples.positives == 400
    assert all(
        len(e.string) <= 32 and target.accepts(e.string) == e.label for e in examples.examples
    )
    assert examples == evaluation_set(target)
    assert examples != evaluation_set(target, seed=1)
    assert len(evaluation_set(target, size=10, max_len=4)) == 10


def test_accuracy_of_target_complement_and_trivial_hypotheses() -> None:
    target = simple_dfa("(a b* + c)*")
    examples = evaluation_set(target)
    assert accuracy(target, examples) == 1.0
    assert accuracy(complement(target), examples) == 0.0
    assert accuracy(compile_regex(EmptySet(), SIMPLE_ALPHABET), examples) == 0.5
    assert accuracy(simple_dfa("(a + b + c)*"), examples) == 0.5


def test_one_sided_languages_fill_the_set_from_the_other_side() -> None:
    examples = evaluation_set(simple_dfa("(a + b + c)*"), size=100)
    assert len(examples) == 100 and examples.positives == 100
    finite = evaluation_set(simple_dfa("a b"), size=100)
    assert finite.positives == 50 and {e.string for e in finite.examples if e.label} == {"ab"}


def test_score_reports_accuracy_and_diff_ratio() -> None:
    target = simple_dfa("a (a + b + c)*")
    examples = evaluation_set(target, size=200)
    assert score(target, target, examples).diff_ratio == 0.0
    half = score(target, simple_dfa("a (a + b + c)* a + a"), examples)
    assert 0.0 < half.diff_ratio < 1.0 and 0.5 < half.accuracy < 1.0
    disjoint = score(target, simple_dfa("b (a + b + c)*"), examples)
    assert disjoint.diff_ratio == pytest.approx(1.0)
