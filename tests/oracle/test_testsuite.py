"""The A-CEGIS test-suite oracle and hardening probes on NL-RX-style python regexes.

Python's ``re`` is the independent reference for every label here; the oracle itself never uses it.
"""

from __future__ import annotations

import re

import pytest

from oracle import Example, SuiteConfig, SuiteOracle, Teacher, remember
from regexlang import parse

NL_RX = [
    (".*(dog){2,}.*", "lines with the word dog repeated at least twice"),
    ("([0-9]).*([a-z]).*", "lines with a number followed later by a lower-case letter"),
    ("(.*[A-Z].*){3,}", "lines with at least three capital letters"),
]


def fullmatch(pattern: str, string: str) -> bool:
    return re.fullmatch(pattern, string) is not None


@pytest.mark.parametrize(("gold", "description"), NL_RX)
def test_hidden_tests_are_labeled_by_the_gold(gold: str, description: str) -> None:
    suite = SuiteOracle.from_gold(gold, description=description)
    assert not suite.issues
    labels = [t.label for t in suite.tests]
    assert labels.count(True) == 12 and labels.count(False) == 12
    assert len({t.string for t in suite.tests}) == 24
    assert all(fullmatch(gold, t.string) == t.label and len(t.string) <= 16 for t in suite.tests)
    assert all(t.string.isprintable() for t in suite.tests)
    assert suite.tests == SuiteOracle.from_gold(gold).tests
    assert suite.tests != SuiteOracle.from_gold(gold, config=SuiteConfig(seed=1)).tests
    sized = SuiteOracle.from_gold(gold, config=SuiteConfig(positives=5, negatives=7))
    assert [t.label for t in sized.tests].count(True) == 5 and len(sized.tests) == 12


@pytest.mark.parametrize(("gold", "description"), NL_RX)
def test_gold_passes_hidden_tests_probes_and_exact_check(gold: str, description: str) -> None:
    suite = SuiteOracle.from_gold(gold, description=description, config=SuiteConfig(exact=True))
    report = suite.evaluate(gold)
    assert report.passed and report.robust and report.equivalent is True
    assert report.probes is not None and len(report.probes.probes) == 400
    assert all(fullmatch(gold, p.string) == p.label for p in report.probes.probes)
    verdict = suite.check(gold)
    assert verdict.equivalent and verdict.exact and not verdict.counterexamples


def test_failures_come_with_directional_witnesses() -> None:
    gold = "([0-9]).*([a-z]).*"
    suite = SuiteOracle.from_gold(gold)
    report = suite.evaluate(
        "[^0-9].*"
    )  # too narrow (every positive starts with a digit) and too broad
    assert not report.passed and report.probes is None
    assert report.outcomes.count(False) == len(report.false_negatives) + len(report.false_positives)
    assert all(
        fullmatch(gold, t.string) and not fullmatch("[^0-9].*", t.string)
        for t in report.false_negatives
    )
    assert all(
        fullmatch("[^0-9].*", t.string) and not fullmatch(gold, t.string)
        for t in report.false_positives
    )
    verdict = suite.check("[^0-9].*")
    assert not verdict.equivalent and not verdict.exact and verdict.mode == "tests"
    assert 0 < len(verdict.positives) <= 3 and 0 < len(verdict.negatives) <= 3
    assert set(verdict.counterexamples) <= set(report.false_negatives + report.false_positives)
    later = suite.check("[^0-9].*", remember((), verdict))
    assert not set(later.counterexamples) & set(verdict.counterexamples)


def test_passing_the_tests_is_not_robust_success() -> None:
    """``.*dog.*dog.*`` passes these hidden tests, but the gold wants the two dogs adjacent."""
    gold, hypothesis = NL_RX[0]
    suite = SuiteOracle.from_gold(
        gold, description=hypothesis, config=SuiteConfig(seed=2, exact=True)
    )
    report = suite.evaluate(".*dog.*dog.*")
    assert report.passed and report.equivalent is False and not report.robust
    assert report.probes is not None and report.probes.failures
    for failure in report.probes.failures:
        assert (
            fullmatch(gold, failure.string)
            == failure.label
            != fullmatch(".*dog.*dog.*", failure.string)
        )
    verdict = suite.check(".*dog.*dog.*")  # exact mode goes on where the tests stop
    assert not verdict.equivalent and verdict.exact and verdict.mode == "paths"
    assert verdict.counterexamples and all(
        fullmatch(gold, e.string) == e.label
        for e in verdict.counterexamples
        if isinstance(e, Example)
    )


def test_suite_from_user_examples_has_no_gold() -> None:
    examples = [
        Example("cat", True),
        Example("cats", True),
        Example("dog", False),
        Example("", False),
    ]
    suite = SuiteOracle.from_examples(examples, config=SuiteConfig(exact=True))
    assert suite.tests == tuple(examples) and not suite.issues
    good = suite.evaluate("cats?")
    assert good.passed and good.equivalent is None and good.probes is None and not good.robust
    verdict = suite.check("cat")
    assert not verdict.equivalent and not verdict.exact
    assert [e.text() for e in verdict.counterexamples] == ["cats, 1"]
    assert suite.check("cats?").equivalent


def test_bad_gold_and_bad_hypothesis_are_reported() -> None:
    broken = SuiteOracle.from_gold("(dog")
    assert [i.kind for i in broken.issues] == ["syntax_error"] and not broken.tests
    verdict = broken.check("dog")
    assert not verdict.valid and not verdict.equivalent
    suite = SuiteOracle.from_gold(NL_RX[0][0])
    bad = suite.evaluate("[a-")
    assert not bad.valid and not bad.passed and bad.predicted == ()
    assert [(i.subject, i.kind) for i in suite.check("[a-").issues] == [
        ("hypothesis", "syntax_error")
    ]
    empty = SuiteOracle.from_gold("[^\\s\\S]")
    assert [i.kind for i in empty.issues] == ["empty_language"]
    assert empty.tests and not any(t.label for t in empty.tests)


def test_suite_oracle_is_a_teacher() -> None:
    teacher: Teacher = SuiteOracle.from_gold(NL_RX[1][0])
    assert teacher.check(parse("[0-9].*[a-z].*", "python")).equivalent
