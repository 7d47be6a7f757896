"""The exact teacher: counterexamples are real, fresh, balanced, bounded and reproducible.

Labels are checked against independent references, never the teacher's own automata: Python's
``re.fullmatch`` on a transliteration of each regex (the python dialect as written), or a plain
predicate where the extended dialect's ``&`` and ``~`` have no ``re`` counterpart.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable

import numpy as np
import pytest

from automata.building.compile import compile_regex
from oracle import (
    ClusteredExample,
    CountedMembership,
    Counterexample,
    ExactTeacher,
    Example,
    SuiteConfig,
    Teacher,
    TeacherConfig,
    Verdict,
    remember,
)
from regexlang.ast import EmptySet
from regexlang.charset import CharSet
from regexlang.dialects import Dialect, parse, universe

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
    ("python", r"\d+(\.\d+)?", r"\d*\.?\d+"),
    ("python", r"(?i)ab+c", r"ab+c"),
    ("python", r"[^a-z]x", r".x"),
]

#: Regexes with no ``re`` transliteration, and their meaning as a predicate.
SPECIAL: dict[str, Callable[[str], bool]] = {
    "([A-Za-z0-9#]*z[A-Za-z0-9#]*)&~([A-Za-z0-9#]*q[A-Za-z0-9#]*)": lambda s: (
        re.fullmatch("[A-Za-z0-9#]*", s) is not None and "z" in s and "q" not in s
    ),
}


def reference(dialect: Dialect, text: str) -> Callable[[str], bool]:
    """Membership in ``text``'s language by Python ``re`` (or :data:`SPECIAL`), independent of automata."""
    if text in SPECIAL:
        return SPECIAL[text]
    pattern = re.compile(text.replace(" ", "").replace("+", "|") if dialect == "simple" else text)
    return lambda s: pattern.fullmatch(s) is not None


def nth(chars: CharSet, index: int) -> str:
    for low, high in chars.intervals:
        if index <= high - low:
            return chr(low + index)
        index -= high - low + 1
    raise IndexError(index)


def strings_of(example: Counterexample, rng: np.random.Generator) -> list[str]:
    """The strings an example stands for: all of them, or 256 random ones when there are more."""
    if isinstance(example, Example):
        return [example.string]
    if example.size() <= 256:
        return list(example.strings())
    return [
        "".join(nth(p, int(rng.integers(len(p)))) for p in example.positions) for _ in range(256)
    ]


def assert_genuine(
    teacher: ExactTeacher, target_text: str, hypothesis: str, verdict: Verdict
) -> None:
    """Every counterexample (every string of a clustered one, or 256 of them) is in the teacher's
    universe, labeled as the target's ``re`` reference says and mislabeled by the hypothesis's,
    and no longer than max_len."""
    target, guess = reference(teacher.dialect, target_text), reference(teacher.dialect, hypothesis)
    rng = np.random.default_rng(0)
    for example in verdict.counterexamples:
        for string in strings_of(example, rng):
            assert len(string) <= teacher.config.max_len
            assert all(c in teacher.universe for c in string)
            assert target(string) == example.label, (string, example.text())
            assert guess(string) != example.label, (string, example.text())


@pytest.mark.parametrize("clustered", [False, True])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("dialect", "target", "hypothesis"), PAIRS)
def test_counterexamples_are_genuine_and_distinct(
    dialect: Dialect, target: str, hypothesis: str, mode: str, clustered: bool
) -> None:
    teacher = ExactTeacher.from_regex(target, dialect).with_config(
        mode=mode, clustered=clustered, batch=40
    )
    verdict = teacher.check(hypothesis)
    assert not verdict.equivalent and verdict.valid and verdict.exact
    assert 0 < len(verdict.counterexamples) <= 40
    assert verdict.mode == mode + ("+clustered" if clustered else "")
    assert all(
        isinstance(e, ClusteredExample if clustered else Example) for e in verdict.counterexamples
    )
    assert len(remember((), verdict)) == len(verdict.counterexamples)
    assert verdict.spend.seconds > 0 and verdict.spend.strings_examined >= len(
        verdict.counterexamples
    )
    assert_genuine(teacher, target, hypothesis, verdict)


def test_equivalent_hypothesis_gets_no_counterexamples() -> None:
    teacher = ExactTeacher.from_regex("(a b* + c)*", "simple")
    verdict = teacher.check("(c + a b*)* (a b*)*")
    assert (
        verdict.equivalent and verdict.valid and not verdict.counterexamples and not verdict.issues
    )


def test_batch_is_balanced_when_both_sides_exist() -> None:
    teacher = ExactTeacher.from_regex("a (a + b + c)*", "simple").with_config(
        mode="uniform", batch=250
    )
    verdict = teacher.check("(a + b + c)* b")
    assert len(verdict.positives) == len(verdict.negatives) == 125
    interleaved = [e.label for e in verdict.counterexamples[:6]]
    assert interleaved == [True, False, True, False, True, False]


def test_short_side_hands_its_share_to_the_other() -> None:
    teacher = ExactTeacher.from_regex("a (a + b + c)*", "simple").with_config(
        mode="shortest", batch=50
    )
    verdict = teacher.check("a (a + b + c)* c + b")  # only one negative exists: "b"
    assert [e.text() for e in verdict.negatives] == ["b, 0"]
    assert len(verdict.positives) == 49
    assert_genuine(teacher, "a (a + b + c)*", "a (a + b + c)* c + b", verdict)


def test_shortest_mode_is_shortlex() -> None:
    teacher = ExactTeacher.from_regex("(a + b + c)* c", "simple").with_config(
        mode="shortest", order="grouped"
    )
    verdict = teacher.check("c")
    strings = [e.string for e in verdict.positives if isinstance(e, Example)]
    assert strings[:4] == ["ac", "bc", "cc", "aac"]
    assert [len(s) for s in strings] == sorted(len(s) for s in strings)


@pytest.mark.parametrize(
    ("hypothesis", "given", "expected"),
    [
        ("a", 0, ("a", False)),  # the negative "a" is shorter than the missing "aaa"
        ("a a a a a", 0, ("aaa", True)),  # the positive is shorter
        ("a a a a a + a a a a a a", 0, ("aaa", True)),  # both sides are long enough to spare
        ("b b b", 0, ("aaa", True)),  # a tie: the parity of what was given picks the side
        ("b b b", 1, ("bbb", False)),
    ],
)
def test_a_batch_of_one_in_shortest_mode_is_the_shortest_witness_of_either_side(
    hypothesis: str, given: int, expected: tuple[str, bool]
) -> None:
    teacher = ExactTeacher.from_regex("a a a", "simple").with_config(mode="shortest", batch=1)
    already = [Example("c" * (10 + i), False) for i in range(given)]
    verdict = teacher.check(hypothesis, already)
    assert [(e.string, e.label) for e in verdict.counterexamples if isinstance(e, Example)] == [
        expected
    ]
    assert_genuine(teacher, "a a a", hypothesis, verdict)


@pytest.mark.parametrize("order", ["interleaved", "grouped", "by_length"])
def test_order_setting(order: str) -> None:
    teacher = ExactTeacher.from_regex("a (a + b + c)*", "simple").with_config(
        mode="uniform", batch=20, order=order
    )
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
    teacher = ExactTeacher.from_regex("[A-Za-z]+[0-9]", "extended")
    teacher = teacher.with_config(mode=mode, clustered=clustered, batch=10)
    given: tuple[Counterexample, ...] = ()
    for _ in range(
        4
    ):  # the same (inconsistent) hypothesis every round: old counterexamples never return
        verdict = teacher.check("[A-Za-z0-9]*", given)
        before = len(given)
        given = remember(given, verdict)
        assert len(given) == before + len(verdict.counterexamples)
        # Loop-free paths are finitely many; once shown, paths mode falls back to longer witnesses.
        assert verdict.counterexamples and not verdict.issues
    assert len(given) >= (4 if mode == "paths" else 40)  # every round brought new ones


def test_same_seed_same_output_and_seed_matters() -> None:
    def run(seed: int, mode: str) -> list[str]:
        teacher = ExactTeacher.from_regex("[A-Za-z]+[0-9]", "extended").with_config(
            mode=mode, seed=seed, batch=30
        )
        return [e.text() for e in teacher.check("[a-z]*[0-9]*").counterexamples]

    for mode in MODES:
        assert run(7, mode) == run(7, mode)
    assert run(7, "uniform") != run(8, "uniform")


def test_clustered_paths_group_characters() -> None:
    teacher = ExactTeacher.from_regex("S[0-9]#run", "extended").with_config(
        clustered=True, mode="paths"
    )
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
    assert (
        empty.valid and empty.has("empty_language") and all(e.label for e in empty.counterexamples)
    )


def test_empty_target_is_allowed_and_flagged() -> None:
    teacher = ExactTeacher.from_regex(EmptySet(), "simple").with_config(batch=6, mode="shortest")
    assert [i.kind for i in teacher.issues] == ["empty_language"]
    verdict = teacher.check("a*")
    assert verdict.valid and verdict.has("empty_language")
    assert len(verdict.negatives) == 6 and not verdict.positives
    assert teacher.check(EmptySet()).equivalent


def test_a_difference_beyond_max_len_is_shown_by_its_shortest_witnesses() -> None:
    teacher = ExactTeacher.from_regex("a{40}", "extended")
    verdict = teacher.check("a{41}")
    assert not verdict.equivalent and verdict.has("beyond_max_len")
    assert [e.text() for e in verdict.counterexamples] == ["a" * 40 + ", 1"]  # a{41} is longer
    again = teacher.check("a{41}", verdict.counterexamples)
    assert [e.text() for e in again.counterexamples] == ["a" * 41 + ", 0"]


@pytest.mark.parametrize("clustered", [True, False])
@pytest.mark.parametrize("mode", MODES)
def test_a_hypothesis_right_up_to_max_len_gets_the_shortest_longer_witness(
    mode: str, clustered: bool
) -> None:
    # (xy)+|Q7r unrolled 16 times is right on every string up to length 32; the shortest strings
    # where it is wrong, found by enumerating the target's strings, are (xy){17} (and nothing else
    # of length 34).
    teacher = ExactTeacher.from_regex("(xy)+|Q7r", "extended").with_config(
        mode=mode, clustered=clustered
    )
    unrolled = "Q7r|" + "xy(" * 15 + "xy" + ")?" * 15
    target = compile_regex(parse("(xy)+|Q7r", "extended"), universe("extended"))
    hypothesis = compile_regex(parse(unrolled, "extended"), universe("extended"))
    wrong = [
        s for s in ("xy" * k for k in range(1, 30)) if target.accepts(s) != hypothesis.accepts(s)
    ]
    verdict = teacher.check(unrolled)
    assert (
        not verdict.equivalent
        and verdict.has("beyond_max_len")
        and "length 34" in str(verdict.issues)
    )
    assert [(e.text(), list(e.strings())) for e in verdict.counterexamples] == [
        (wrong[0] + ", 1", [wrong[0]])
    ]


def test_every_witness_within_max_len_given_the_next_lie_beyond() -> None:
    teacher = ExactTeacher.from_regex("aa|a{40}", "extended").with_config(clustered=True)
    first = teacher.check("b")
    assert {e.text() for e in first.counterexamples} == {"aa, 1", "b, 0"}
    beyond = teacher.check("b", first.counterexamples)
    assert [e.text() for e in beyond.counterexamples] == ["a" * 40 + ", 1"]
    assert beyond.has("beyond_max_len") and "already given" in str(beyond.issues)


def test_the_cegml_profile_answers_nothing_beyond_max_len_and_says_so() -> None:
    teacher = ExactTeacher.from_regex("(xy)+|Q7r", "extended", config=TeacherConfig.cegml())
    verdict = teacher.check("Q7r|" + "xy(" * 15 + "xy" + ")?" * 15)
    assert not verdict.equivalent and not verdict.counterexamples and verdict.has("beyond_max_len")
    assert not teacher.check("Q7r").has("beyond_max_len")


def test_exhaustion_is_flagged() -> None:
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


@pytest.mark.parametrize(
    ("changes", "error"),
    [
        ({"mode": "bogus"}, ValueError),
        ({"order": "bogus"}, ValueError),
        ({"profile": "bogus"}, ValueError),
        ({"batch": 0}, ValueError),
        ({"batch": -3}, ValueError),
        ({"max_len": -1}, ValueError),
        ({"batch": "250"}, TypeError),
        ({"clustered": 1}, TypeError),
    ],
)
def test_config_is_validated_at_construction(
    changes: dict[str, object], error: type[Exception]
) -> None:
    field = next(iter(changes))
    with pytest.raises(error, match=field):
        TeacherConfig(**changes)  # type: ignore[arg-type]
    with pytest.raises(error, match=field):
        ExactTeacher.from_regex("a", "simple").with_config(**changes)


def test_suite_config_is_validated_at_construction() -> None:
    for field in ("positives", "negatives", "max_len", "witnesses", "probes"):
        with pytest.raises(ValueError, match=field):
            SuiteConfig(**{field: -1})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="state_limit"):
        SuiteConfig(state_limit=0)


def test_a_hypothesis_that_is_not_a_regex_is_a_type_error() -> None:
    teacher = ExactTeacher.from_regex("a b*", "simple")
    with pytest.raises(TypeError, match="not int"):
        teacher.check(123)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not NoneType"):
        teacher.check(None)  # type: ignore[arg-type]


@pytest.mark.parametrize("clustered", [False, True])
def test_paths_mode_goes_on_after_every_loop_free_path_was_shown(clustered: bool) -> None:
    # The loop-free paths of the difference have lengths 1 and 3 (10 strings, 2 clustered examples).
    teacher = ExactTeacher.from_regex("[ab]{2}", "extended").with_config(
        mode="paths", clustered=clustered, batch=8
    )
    given: tuple[Counterexample, ...] = ()
    first = teacher.check("[ab]+", given)
    assert {
        len(e.string) if isinstance(e, Example) else len(e.positions) for e in first.counterexamples
    } == {1, 3}
    given = remember(given, first)
    for _ in range(3):
        verdict = teacher.check("[ab]+", given)
        assert_genuine(teacher, "[ab]{2}", "[ab]+", verdict)
        given = remember(given, verdict)
        assert not verdict.issues and verdict.counterexamples
    assert max(len(e.string) if isinstance(e, Example) else len(e.positions) for e in given) >= 4


@pytest.mark.parametrize(("mode", "clustered"), list(itertools.product(MODES, [False, True])))
def test_exhaustion_is_claimed_only_when_brute_force_agrees(mode: str, clustered: bool) -> None:
    """Rounds go on until the teacher says every witness up to max_len was given; then every string
    up to max_len in the symmetric difference (enumerated and labelled by ``re``) is covered by a
    given example, and the round answers with the shortest longer ones instead."""
    target, hypothesis = "(a b + c)*", "(a + c)* b*"
    config = TeacherConfig(mode=mode, clustered=clustered, batch=7, max_len=5)  # type: ignore[arg-type]
    teacher = ExactTeacher.from_regex(target, "simple", config=config)
    given: tuple[Counterexample, ...] = ()
    for _ in range(200):
        verdict = teacher.check(hypothesis, given)
        if verdict.has("beyond_max_len"):
            break
        assert_genuine(teacher, target, hypothesis, verdict)
        assert (
            verdict.counterexamples
            and not verdict.has("exhausted")
            and not verdict.has("search_budget")
        )
        given = remember(given, verdict)
    assert [issue.kind for issue in verdict.issues] == [
        "beyond_max_len"
    ] and "already given" in str(verdict.issues)
    inside, outside = reference("simple", target), reference("simple", hypothesis)
    beyond = [s for e in verdict.counterexamples for s in strings_of(e, np.random.default_rng(0))]
    assert beyond and all(len(s) == 6 and inside(s) != outside(s) for s in beyond)
    differ = [
        "".join(t)
        for n in range(6)
        for t in itertools.product("abc", repeat=n)
        if inside("".join(t)) != outside("".join(t))
    ]
    covered = {e.string for e in given if isinstance(e, Example)}
    covered |= {s for e in given if isinstance(e, ClusteredExample) for s in e.strings()}
    assert differ and set(differ) <= covered


def test_a_spent_path_budget_falls_back_to_shortest_witnesses() -> None:
    teacher = ExactTeacher.from_regex("[ab]*a[ab]{6}", "extended").with_config(
        mode="paths", clustered=True, max_expansions=1, max_frontier=1, batch=20
    )
    verdict = teacher.check("[ab]*b[ab]{6}")
    assert len(verdict.counterexamples) == 20 and not verdict.issues
    assert_genuine(teacher, "[ab]*a[ab]{6}", "[ab]*b[ab]{6}", verdict)


@pytest.mark.parametrize(("mode", "clustered"), list(itertools.product(MODES, [False, True])))
def test_guards_of_long_lengths_are_issues_not_exceptions(mode: str, clustered: bool) -> None:
    config = TeacherConfig(mode=mode, clustered=clustered, max_len=5000)  # type: ignore[arg-type]
    teacher = ExactTeacher.from_regex("a{1200}", "extended", config=config)
    verdict = teacher.check("a{1199}")
    assert not verdict.equivalent and verdict.valid
    lengths = {
        len(e.string) if isinstance(e, Example) else len(e.positions)
        for e in verdict.counterexamples
    }
    assert lengths == {1199, 1200}
    assert all(issue.kind == "search_budget" for issue in verdict.issues)
    wide = ExactTeacher.from_regex("[ab]*a[ab]{10}", "extended", config=config).check("[ab]*")
    assert not wide.equivalent and wide.valid
    assert wide.counterexamples or wide.has("search_budget")
