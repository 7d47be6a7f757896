"""The loop as a fold: determinism, custom teachers, budgets, failed proposals and outcomes."""

from __future__ import annotations

import asyncio
import itertools

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from automata.building.compile import from_text
from automata.printing.readable import draft
from cegis.config import Budgets, LoopConfig
from cegis.loop import initial_state, run, spent, step
from cegis.records import epoch_json, without_wall_clock
from cegis.setup import exact_setting
from cegis.state import Task
from cegis.symbolic.union import UnionLearner
from oracle import ExactTeacher, Example, TeacherConfig, satisfies
from regexlang import CharSet, parse, unparse
from tests.cegis.support import (
    CompilingLearner,
    ExhaustiveTeacher,
    FailingLearner,
    FixedLearner,
    LabelingTeacher,
)

TARGETS = ("(a b)* c", "a (b+c)*", "(a+b) (b+c) a")


def exact(task: Task, config: LoopConfig) -> ExactTeacher:
    assert task.target is not None
    return ExactTeacher.from_regex(task.target, task.dialect, config=config.teacher_config)


def trajectory(task: Task, config: LoopConfig) -> list[object]:
    state = asyncio.run(run(task, UnionLearner(), exact(task, config), config))
    return [without_wall_clock(epoch_json(r, "")) for r in state.records] + [state.outcome]


@settings(max_examples=8)
@given(st.sampled_from(TARGETS), st.integers(0, 2**16), st.booleans())
def test_the_same_task_config_and_seed_give_the_same_trajectory(
    target: str, seed: int, clustered: bool
) -> None:
    config = LoopConfig(
        teacher=TeacherConfig(batch=4, clustered=clustered), seed=seed, budgets=Budgets(epochs=4)
    )
    task = Task("simple", target)
    assert trajectory(task, config) == trajectory(task, config)


def test_initial_sample_is_balanced_labeled_by_the_target_and_seeded() -> None:
    task = Task("extended", "[A-Z][a-z]*#")
    config = LoopConfig(seed=3)
    teacher = exact(task, config)
    examples = initial_state(task, teacher, config).examples
    assert len(examples) == 8 and sum(e.label for e in examples) == 4
    assert all(isinstance(e, Example) and teacher.label(e.string) == e.label for e in examples)
    assert initial_state(task, teacher, attrs.evolve(config, seed=4)).examples != examples


def test_every_epoch_adds_the_teachers_counterexamples_and_the_run_ends_equivalent() -> None:
    task = Task("simple", "a b + b a + c")
    config = LoopConfig(teacher=TeacherConfig(batch=2))
    state = asyncio.run(run(task, UnionLearner(), exact(task, config), config))
    assert state.outcome == "equivalent"
    assert [r.source for r in state.records[:-1]] == ["counterexamples"] * (state.epoch - 1)
    assert all(0 < len(r.added) <= 2 for r in state.records[:-1])
    assert state.examples == tuple(e for r in state.records for e in (*r.initial, *r.added))
    last = state.records[-1]
    assert last.verdict is not None and last.verdict.equivalent and last.scores is not None
    assert last.scores.accuracy == 1.0 and last.scores.diff_ratio == 0.0
    assert state.cost.equivalence_queries == state.epoch


def test_a_custom_teacher_without_sampling_drives_the_loop_from_its_first_counterexample() -> None:
    finite = {"ab", "ba", "abb", ""}
    teacher = ExhaustiveTeacher(lambda s: s in finite, "ab", max_len=4)
    task = Task("simple", universe=CharSet.of("ab"))
    state = asyncio.run(run(task, UnionLearner(), teacher, LoopConfig(budgets=Budgets(epochs=20))))
    assert state.outcome == "consistent"  # an exhaustive test up to length 4 is not a proof
    assert state.records[0].initial == () and state.records[0].proposal_text == "∅"
    assert {e.string for e in state.examples if isinstance(e, Example) and e.label} == finite


def test_a_failed_proposal_adds_the_next_random_labeled_examples() -> None:
    task = Task("simple", "(a b)*")
    config = LoopConfig(budgets=Budgets(epochs=3))
    teacher = exact(task, config)
    state = asyncio.run(run(task, FailingLearner(), teacher, config))
    assert state.outcome == "epochs" and state.epoch == 3
    for record in state.records:
        assert record.source == "random" and record.verdict is None and record.failure is not None
        assert len(record.added) == 8 and all(
            teacher.label(e.string) == e.label  # type: ignore[union-attr]
            for e in record.added
        )
    strings = [e.string for e in state.examples]  # type: ignore[union-attr]
    assert len(strings) == len(set(strings)) == 32


def test_without_a_way_to_label_a_failing_run_stalls() -> None:
    teacher = ExhaustiveTeacher(lambda s: s == "a", "ab")
    state = asyncio.run(run(Task("simple"), FailingLearner(), teacher, LoopConfig()))
    assert state.outcome == "stalled" and state.epoch == 1


def test_a_target_the_teacher_cannot_judge_ends_the_run() -> None:
    task = Task("simple", "(a")
    teacher = ExactTeacher.from_regex("(a", "simple")
    state = asyncio.run(run(task, UnionLearner(), teacher, LoopConfig()))
    assert state.outcome == "invalid_target"


@pytest.mark.parametrize(
    ("budgets", "learner", "outcome"),
    [
        (Budgets(epochs=2), FailingLearner(), "epochs"),
        (Budgets(epochs=None, examples=20), FailingLearner(), "examples"),
        (Budgets(epochs=None, tokens=250), FailingLearner(tokens=100), "tokens"),
        (Budgets(epochs=0), UnionLearner(), "epochs"),
    ],
)
def test_each_budget_stops_the_run_and_is_named(
    budgets: Budgets, learner: object, outcome: str
) -> None:
    task = Task("simple", "(a b)* c")
    config = LoopConfig(budgets=budgets)
    state = asyncio.run(run(task, learner, exact(task, config), config))  # type: ignore[arg-type]
    assert state.outcome == outcome
    assert spent(attrs.evolve(state, outcome=None), config) == outcome


def test_the_seconds_budget_reads_the_injected_clock() -> None:
    ticks = itertools.count(step=10.0)
    task = Task("simple", "(a b)* c")
    config = LoopConfig(budgets=Budgets(epochs=None, seconds=25.0))
    state = asyncio.run(
        run(task, FailingLearner(), exact(task, config), config, clock=lambda: next(ticks))
    )
    assert state.outcome == "seconds" and state.epoch == 3


def test_a_learner_wanting_membership_queries_needs_a_teacher_that_labels() -> None:
    teacher = ExhaustiveTeacher(lambda s: True, "ab")
    with pytest.raises(ValueError, match="membership"):
        asyncio.run(run(Task("simple"), UnionLearner(), teacher, LoopConfig(membership=True)))


def test_union_hypotheses_are_consistent_with_every_example_at_every_epoch() -> None:
    task = Task("extended", "[A-Z][a-z]{2}")
    config = LoopConfig(teacher=TeacherConfig(batch=6, clustered=True))
    teacher = exact(task, config)
    state = initial_state(task, teacher, config)
    while not state.done and state.epoch < 6:
        before = state.examples
        state = asyncio.run(step(state, UnionLearner(), teacher, config))
        guess = teacher.compile(state.records[-1].proposal_text).dfa
        assert guess is not None and all(satisfies(guess, e) for e in before)


def test_with_only_a_membership_oracle_the_initial_sample_is_random_strings_it_labels() -> None:
    teacher = LabelingTeacher(lambda s: s.startswith("a"), "ab")
    task = Task("simple", universe=CharSet.of("ab"))
    examples = initial_state(task, teacher, LoopConfig(seed=1)).examples
    assert len(examples) == 8 and sum(e.label for e in examples) == 4
    assert all(
        isinstance(e, Example)
        and e.label == e.string.startswith("a")
        and set(e.string) <= {"a", "b"}
        for e in examples
    )


def test_a_small_target_fills_the_initial_sample_with_negatives() -> None:
    task = Task("simple", "a b")
    examples = initial_state(task, exact(task, LoopConfig()), LoopConfig()).examples
    assert [e.string for e in examples if e.label] == ["ab"] and len(examples) == 8  # type: ignore[union-attr]


def test_a_hypothesis_the_teacher_cannot_judge_gets_random_examples() -> None:
    text = "[ab]*a[ab]{12}"
    config = LoopConfig(teacher=TeacherConfig(state_limit=64), budgets=Budgets(epochs=2))
    task = Task("extended", "a+")
    learner = FixedLearner(parse(text, "extended"), text)
    state = asyncio.run(run(task, learner, exact(task, config), config))
    assert state.outcome == "epochs"
    for record in state.records:
        assert (
            record.verdict is not None
            and record.verdict.has("state_limit")
            and record.source == "random"
        )
        assert len(record.added) == 8


def test_compile_seconds_are_kept_apart_from_the_learners_seconds() -> None:
    task, teacher = exact_setting("a", "simple", LoopConfig())
    ticks = (
        itertools.count()
    )  # the learner's time is the clock's (which stands still while numba compiles)
    start = initial_state(task, teacher, LoopConfig())
    state = asyncio.run(
        step(start, CompilingLearner(), teacher, LoopConfig(), clock=lambda: float(next(ticks)))
    )
    assert state.cost.compile_seconds >= 0.05  # the learner's 0.05 s compiling, counted apart
    assert state.cost.learner.seconds == 1.0
    assert state.records[-1].totals.compile_seconds == state.cost.compile_seconds


@pytest.mark.parametrize("draft", [True, False])
def test_an_accepted_draft_is_recorded_readably_and_any_other_answer_as_given(draft: bool) -> None:
    target = "[A-Za-z0-9#]*dog[A-Za-z0-9#]*"
    task = Task("extended", target)
    eliminated = "[A-Za-ce-z0-9#]*d((o|([A-Za-ce-np-z0-9#]|o[A-Za-cefh-z0-9#])[A-Za-ce-z0-9#]*)?d)*og[A-Za-z0-9#]*"
    learner = FixedLearner(parse(eliminated, "extended", task.universe), eliminated, draft=draft)
    ticks = itertools.count()
    state = asyncio.run(
        run(
            task, learner, exact(task, LoopConfig()), LoopConfig(), clock=lambda: float(next(ticks))
        )
    )
    assert state.outcome == "equivalent" and state.epoch == 1
    # a draft is the learner's quick print: the accepted one is printed readably, and that is the
    # learner's time; any other answer (a model's) is recorded exactly as given
    assert state.records[-1].proposal_text == state.hypothesis == (target if draft else eliminated)
    assert state.proposal is not None and state.proposal.regex == parse(
        state.hypothesis, "extended", task.universe
    )
    assert state.cost.learner.seconds == (2.0 if draft else 1.0)


def test_the_last_draft_of_a_run_that_spends_its_budget_is_recorded_readably() -> None:
    task = Task("extended", "[A-Za-z0-9#]*dog[A-Za-z0-9#]*")
    cat = from_text("[A-Za-z0-9#]*cat[A-Za-z0-9#]*", "extended")
    eliminated = unparse(draft(cat), "extended", task.universe)
    learner = FixedLearner(parse(eliminated, "extended", task.universe), eliminated, draft=True)
    config = LoopConfig(budgets=Budgets(epochs=2))
    state = asyncio.run(run(task, learner, exact(task, config), config))
    assert state.outcome == "epochs"
    assert [r.proposal_text for r in state.records] == [eliminated, "[A-Za-z0-9#]*cat[A-Za-z0-9#]*"]
