"""The candidate checks, RepairScore and the settings, against Python ``re`` and by hand."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from automata.errors import DEFAULT_STATE_LIMIT
from cegis.config import LoopConfig
from cegis.llm.answers import parse_regex
from cegis.llm.contract import GUARD_CHECKS, REPAIR_CHECKS, Assessment, assess
from cegis.llm.prompts import SIMPLE_REGULARIZATION, Regularization
from cegis.llm.settings import SETTINGS, log_scale_sizes, setting_named
from cegis.llm.setup import setting_config
from oracle.config import TeacherConfig
from oracle.examples import ClusteredExample, Counterexample, Example
from regexlang.charset import CharSet
from regexlang.dialects import universe

REGEXES = [
    "a (b + c)*",
    "(a + b)* c",
    "a* b*",
    "(a b + c)*",
    "epsilon + a",
    "c (a + b c)* a",
    "((a + b) c)*",
    "a a* + b",
]
SIGMA = universe("simple")


def _python(regex: str) -> str:
    return regex.replace("epsilon", "").replace(" ", "").replace("+", "|")


def _judge(
    regex: str, examples: list[Counterexample], bounds: Regularization | None = None
) -> Assessment:
    answer = parse_regex(regex, "simple", SIGMA)
    return assess(
        answer,
        "",
        examples,
        dialect="simple",
        universe=SIGMA,
        bounds=bounds,
        state_limit=DEFAULT_STATE_LIMIT,
    )


strings = st.text(alphabet="abc", max_size=6)
positions = st.lists(st.sampled_from(["a", "b", "c", "ab", "bc", "abc"]), max_size=4)


@given(
    st.sampled_from(REGEXES),
    st.lists(st.tuples(strings, st.booleans()), max_size=12),
    st.lists(st.tuples(positions, st.booleans()), max_size=4),
)
def test_misclassified_and_repair_score_match_re_fullmatch(
    regex: str, plain: list[tuple[str, bool]], clustered: list[tuple[list[str], bool]]
) -> None:
    examples: list[Counterexample] = [Example(s, label) for s, label in plain]
    examples += [
        ClusteredExample(tuple(CharSet.of(p) for p in ps), label) for ps, label in clustered
    ]
    judged = _judge(regex, examples)
    pattern = re.compile(_python(regex))

    def wrong(example: Counterexample) -> bool:
        members = [example.string] if isinstance(example, Example) else list(example.strings())
        return any((pattern.fullmatch(s) is not None) != example.label for s in members)

    expected = [e for e in examples if wrong(e)]
    assert list(judged.misclassified) == expected
    assert judged.score == pytest.approx(
        0.5 + 0.5 * (1 - len(expected) / len(examples)) if examples else 1.0
    )
    assert judged.meets(REPAIR_CHECKS) == (not expected)


def test_unparsable_and_truncated_answers_score_zero_with_typed_failures() -> None:
    bad = _judge("a (b", [Example("a", True)])
    assert bad.score == 0.0 and bad.failure_kind(REPAIR_CHECKS) == "syntax_error"
    assert "^" in bad.feedback(REPAIR_CHECKS)
    missing = assess(
        parse_regex("", "simple", SIGMA),
        "",
        [],
        dialect="simple",
        universe=SIGMA,
        bounds=None,
        state_limit=100,
    )
    assert missing.failure_kind(REPAIR_CHECKS) in ("no_regex", "syntax_error")


def test_the_guard_contract_adds_the_regularization_bounds() -> None:
    long = " + ".join(["a b c"] * 10)  # 49 symbols and operators: under 60 is fine
    longer = " + ".join(["a b c"] * 20)
    deep = "((((a*)* b)* c)* a)* b"
    for regex, violated in [(long, None), (longer, "length"), (deep, "star_depth")]:
        judged = _judge(regex, [], SIMPLE_REGULARIZATION)
        assert judged.meets(REPAIR_CHECKS)
        failing = [v.check for v in judged.failing(GUARD_CHECKS)]
        assert failing == ([] if violated is None else [violated])
        assert judged.failure_kind(GUARD_CHECKS) == (
            None if violated is None else "outside_dialect"
        )


def test_settings_are_data_and_map_to_the_loop() -> None:
    assert log_scale_sizes() == (3, 6, 12, 24, 48, 96, 192, 384, 768, 1536, 3000)
    assert setting_named("agentic").attempts == 3 and setting_named("single").attempts == 1
    assert setting_named("guarded").attempts == 5 and setting_named("multi").candidates == 10
    assert (
        setting_named("multi").candidate_source == "reply" and setting_named("multi").attempts == 1
    )
    standard = setting_config(setting_named("standard"))
    assert (
        standard.initial_size == 3
        and standard.budgets.epochs == 11
        and not standard.teacher.clustered
    )
    assert (
        setting_config(setting_named("agentic")).teacher.clustered
        and setting_config(setting_named("agentic")).budgets.epochs == 12
    )
    assert setting_config(setting_named("acegis-diagnostic")).budgets.epochs == 4
    assert setting_config(setting_named("acegis-full")).budgets.epochs == 7
    assert setting_config(setting_named("single-plain"), LoopConfig(seed=3)).seed == 3
    assert len(SETTINGS) == len({s.name for s in SETTINGS.values()})
    with pytest.raises(KeyError, match="known"):
        setting_named("nope")


def test_the_cegml_reading_scores_a_negative_cluster_as_not_all_accepted() -> None:
    # "[ab], 0" under a* b*: both "a" and "b" are accepted, so it is wrong under either reading;
    # under (a)*, "a" is accepted and "b" rejected: wrong universally, satisfied in the loose reading.
    negative = ClusteredExample((CharSet.of("ab"),), False, SIGMA)
    answer = parse_regex("a*", "simple", SIGMA)
    universal = assess(
        answer,
        "",
        [negative],
        dialect="simple",
        universe=SIGMA,
        bounds=None,
        state_limit=DEFAULT_STATE_LIMIT,
    )
    loose = assess(
        answer,
        "",
        [negative],
        dialect="simple",
        universe=SIGMA,
        bounds=None,
        state_limit=DEFAULT_STATE_LIMIT,
        reading="loose",
    )
    assert universal.misclassified == (negative,) and loose.misclassified == ()
    both = parse_regex("a* b*", "simple", SIGMA)
    assert assess(
        both,
        "",
        [negative],
        dialect="simple",
        universe=SIGMA,
        bounds=None,
        state_limit=DEFAULT_STATE_LIMIT,
        reading="loose",
    ).misclassified == (negative,)
    assert LoopConfig(teacher=TeacherConfig.cegml()).teacher.reading == "loose"
