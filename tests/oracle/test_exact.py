"""The exact teacher: counterexamples are real, fresh, balanced, bounded and reproducible."""

from __future__ import annotations

import itertools

import attrs
import numpy as np
import pytest

from oracle import (
    ClusteredExample,
    CountedMembership,
    Counterexample,
    ExactTeacher,
    Example,
    Teacher,
    Verdict,
    remember,
    satisfies,
)
from regexlang.ast import EmptySet
from regexlang.dialects import Dialect, parse

MODES = ("paths", "shortest", "uniform")

#: (dialect, target, hypothesis): hypotheses too broad, too narrow, both, and structurally off.
PAIRS: list[tuple[Dialect, str, str]] = [
    ("simple", "(a b* + c)*", "(a b + c)*"),
    ("simple", "(a b* + c)*", "(a + b + c)*"),
    ("simple", "a (b + c)* a", "a (b + c + a)*"),
    ("simple", "((a b)* c)*", "(a + b)* c*"),
    ("extended", "S[0-9]#run", "S[0-9]*#run"),
    ("extended", "[A-Za-z0-9#]*dog[A-Za-z0-9#]*", "[A-Za-z]*dog[A-Za-z0-9#]*"),
    ("extended", "([A-Za-z0-9#]*z[A-Za-z0-9#]*)&~([A-Za-z0-9#]*q[A-Za-z0-9#]*)", "[a-z]*z[a-z]*"),
]


def strings_of(example: Counterexample, rng: np.random.Generator) -> list[str]:
    """The strings an example stands for: all of them, or 256 random ones when there are more."""
    if isinstance(example, Example):
        return [example.string]
    if example.size() <= 256:
        return list(example.strings())
    members = [list(p) for p in example.positions]
    return ["".join(m[int(rng.integers(len(m)))] for m in members) for _ in range(256)]


def assert_genuine(teacher: ExactTeacher, hypothesis: str, verdict: Verdict) -> None:
    """Every counterexample (every string of a clustered one) is labeled by the target and
    mislabeled by the hypothesis, and no longer than max_len."""
    target, guess = teacher.target.dfa, teacher.compile(hypothesis).dfa
    assert target is not None and guess is not None
    rng = np.random.default_rng(0)
    for example in verdict.counterexamples:
        assert satisfies(target, example)
        if isinstance(example, ClusteredExample):
            assert satisfies(guess, attrs.evolve(example, label=not example.label))
        for string in strings_of(example, rng):
            assert len(string) <= teacher.config.max_len
            assert target.accepts(string) == example.label
            assert guess.accepts(string) != example.label


@pytest.mark.parametrize("clustered", [False, True])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("dialect", "target", "hypothesis"), PAIRS)
def test_counterexamples_are_genuine_and_distinct(
    dialect: Dialect, target: str, hypothesis: str, mode: str, clustered: bool
) -> None:
    teacher = ExactTeacher.from_regex(target, dialect).with_config(mode=mode, clustered=clustered, batch=40)
    verdict = teacher.check(hypothesis)
    assert not verdict.equivalent and verdict.valid and verdict.exact
    assert 0 < len(verdict.counterexamples) <= 40
    assert verdict.mode == mode + ("+clustered" if clustered else "")
    assert all(isinstance(e, ClusteredExample if clustered else Example) for e in verdict.counterexamples)
    assert len(remember((), verdict)) == len(verdict.counterexamples)
    assert verdict.spend.seconds > 0 and verdict.spend.strings_examined >= len(verdict.counterexamples)
    assert_genuine(teacher, hypothesis, verdict)


def test_equivalent_hypothesis_gets_no_counterexamples() -> None:
    teacher = ExactTeacher.from_regex("(a b* + c)*", "simple")
    verdict = teacher.check("(c + a b*)* (a b*)*")
    assert verdict.equivalent and verdict.valid and not verdict.counterexamples and not verdict.issues


def test_batch_is_balanced_when_both_sides_exist() -> None:
    teacher = ExactTeacher.from_regex("a (a + b + c)*", "simple").with_config(mode="uniform", batch=250)
    verdict = teacher.check("(a + b + c)* b")
    assert len(verdict.positives) == len(verdict.negatives) == 125
    interleaved = [e.label for e in verdict.counterexamples[:6]]
    assert interleaved == [True, False, True, False, True, False]


def test_short_side_hands_its_share_to_the_other() -> None:
    teacher = ExactTeacher.from_regex("a (a + b + c)*", "simple").with_config(mode="shortest", batch=50)
    verdict = teacher.check("a (a + b + c)* c + b")  # only one negative exists: "b"
    assert [e.text() for e in verdict.negatives] == ["b, 0"]
    assert len(verdict.positives) == 49
    assert_genuine(teacher, "a (a + b + c)* c + b", verdict)


def test_shortest_mode_is_shortlex() -> None:
    teacher = ExactTeacher.from_regex("(a + b + c)* c", "simple").with_config(mode="shortest", order="grouped")
    verdict = teacher.check("c")
    strings = [e.string for e in verdict.positives if isinstance(e, Example)]
    assert strings[:4] == ["ac", "bc", "cc", "aac"]
    assert [len(s) for s in strings] == sorted(len(s) for s in strings)


@pytest.mark.parametrize("order", ["interleaved", "grouped", "by_length"])
def test_order_setting(order: str) -> None:
    teacher = ExactTeacher.from_regex("a (a + b + c)*", "simple").with_config(mode="uniform", batch=20, order=order)
    examples = teacher.check("(a + b + c)* b").counterexamples
    labels = [e.label for e in examples]
    lengths = [len(e.string) for e in examples if isinstance(e, Example)]
    assert labels.count(True) == labels.count(False) == 10
    if order == "interleaved":
        assert labels == [True, False] * 10
    if order == "grouped":
        assert labels == [True] * 10 + [False] * 10
    if order == "by_length":
        assert lengths == sorted(lengths)


@pytest.mark.parametrize(("mode", "clustered"), list(itertools.product(MODES, [False, True])))
def test_no_repeats_across_rounds(mode: str, clustered: bool) -> None:
    teacher = ExactTeacher.from_regex("[A-Za-z]+[0-9]", "extended").with_config(mode=mode, clustered=clustered, batch=10)
    given: tuple[Counterexample, ...] = ()
    for _ in range(4):  # the same (inconsistent) hypothesis every round: old counterexamples never return
        verdict = teacher.check("[A-Za-z0-9]*", given)
        before = len(given)
        given = remember(given, verdict)
        assert len(given) == before + len(verdict.counterexamples)
        # Loop-free paths are finitely many; once shown, paths mode falls back to longer witnesses.
        assert len(verdict.counterexamples) == 10 and not verdict.issues
    assert len(given) == 40


def test_same_seed_same_output_and_seed_matters() -> None:
    def run(seed: int, mode: str) -> list[str]:
        teacher = ExactTeacher.from_regex("[A-Za-z]+[0-9]", "extended").with_config(mode=mode, seed=seed, batch=30)
        return [e.text() for e in teacher.check("[a-z]*[0-9]*").counterexamples]

    for mode in MODES:
        assert run(7, mode) == run(7, mode)
    assert run(7, "uniform") != run(8, "uniform")


def test_clustered_paths_group_characters() -> None:
    teacher = ExactTeacher.from_regex("S[0-9]#run", "extended").with_config(clustered=True, mode="paths")
    verdict = teacher.check("S#run")
    assert [e.text() for e in verdict.counterexamples] == ["S[0-9]#run, 1", "S#run, 0"]


def test_bad_target_is_reported_in_every_verdict() -> None:
    teacher = ExactTeacher.from_regex("(a + b", "simple")
    assert [i.kind for i in teacher.issues] == ["syntax_error"]
    verdict = teacher.check("a")
    assert not verdict.equivalent and not verdict.valid and verdict.issues[0].subject == "target"
    with pytest.raises(ValueError, match="cannot be queried"):
        teacher.label("a")


def test_bad_hypotheses_are_typed_reasons_not_exceptions() -> None:
    teacher = ExactTeacher.from_regex("(a + b)* a", "simple").with_config(state_limit=64)
    cases = {
        "a b )": "syntax_error",
        "(a + b)* a (a + b) (a + b) (a + b) (a + b) (a + b) (a + b) (a + b)": "state_limit",
    }
    for hypothesis, kind in cases.items():
        verdict = teacher.check(hypothesis)
        assert not verdict.valid and not verdict.equivalent and not verdict.counterexamples
        assert [(i.subject, i.kind) for i in verdict.issues] == [("hypothesis", kind)]
    universal = teacher.check("(a + b + c)*")
    assert universal.valid and universal.has("universal_language") and universal.counterexamples
    empty = teacher.check(EmptySet())
    assert empty.valid and empty.has("empty_language") and all(e.label for e in empty.counterexamples)


def test_empty_target_is_allowed_and_flagged() -> None:
    teacher = ExactTeacher.from_regex(EmptySet(), "simple").with_config(batch=6, mode="shortest")
    assert [i.kind for i in teacher.issues] == ["empty_language"]
    verdict = teacher.check("a*")
    assert verdict.valid and verdict.has("empty_language")
    assert len(verdict.negatives) == 6 and not verdict.positives
    assert teacher.check(EmptySet()).equivalent


def test_difference_beyond_max_len_and_exhaustion_are_flagged() -> None:
    teacher = ExactTeacher.from_regex("a{40}", "extended")
    verdict = teacher.check("a{41}")
    assert not verdict.equivalent and not verdict.counterexamples and verdict.has("beyond_max_len")
    finite = ExactTeacher.from_regex("ab", "extended")
    first = finite.check("ba")
    again = finite.check("ba", first.counterexamples)
    assert {e.text() for e in first.counterexamples} == {"ab, 1", "ba, 0"}
    assert not again.counterexamples and again.has("exhausted")


def test_membership_queries_and_protocol_conformance() -> None:
    teacher = ExactTeacher.from_regex("(a b* + c)*", "simple")
    counted = CountedMembership(teacher)
    assert [counted.label(s) for s in ("", "abb", "b")] == [True, True, False]
    assert counted.queries == 3
    as_protocol: Teacher = teacher
    assert as_protocol.check(parse("c*", "simple")).counterexamples
