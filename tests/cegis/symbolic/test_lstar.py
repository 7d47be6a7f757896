"""L*: learns random small DFAs exactly, every benchmark target, and resumes from its records."""

from __future__ import annotations

import asyncio
import itertools
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from automata.building.compile import compile_regex
from automata.core.alphabet import partition
from automata.core.dfa import DFA
from automata.core.minimize import minimize
from cegis.config import Budgets, LoopConfig
from cegis.hypothesis import read_hypothesis
from cegis.learner import LearnerContext, Proposal
from cegis.loop import run
from cegis.records import run_recorded
from cegis.state import Task
from cegis.symbolic.lstar import LStarLearner
from oracle import (
    ClusteredExample,
    CountedMembership,
    Counterexample,
    ExactTeacher,
    Example,
    MembershipOracle,
    TeacherConfig,
    satisfies,
)
from oracle.compiling import Compiled
from regexlang import CharSet
from tests.cegis.support import lines
from tests.cegis.test_records import check_resumes

LETTERS = "ab"
UNIVERSE = CharSet.of(LETTERS)


@st.composite
def tables(draw: st.DrawFn) -> tuple[list[list[int]], list[bool]]:
    """A random complete DFA over ``ab`` as plain lists: state 0 starts."""
    n = draw(st.integers(1, 5))
    moves = [[draw(st.integers(0, n - 1)) for _ in LETTERS] for _ in range(n)]
    return moves, [draw(st.booleans()) for _ in range(n)]


def walk(moves: list[list[int]], accepting: list[bool], string: str) -> bool:
    state = 0
    for char in string:
        state = moves[state][LETTERS.index(char)]
    return accepting[state]


def teacher_of(
    moves: list[list[int]], accepting: list[bool], config: TeacherConfig
) -> ExactTeacher:
    alphabet = partition(UNIVERSE, [CharSet.of(c) for c in LETTERS])
    columns = [alphabet.class_of(c) for c in LETTERS]
    table = np.zeros((len(moves), len(alphabet)), dtype=np.int32)
    for state, row in enumerate(moves):
        table[state, columns] = row
    target = minimize(DFA(table, np.array(accepting, dtype=np.bool_), 0, alphabet))
    return ExactTeacher(Compiled(None, target), "simple", UNIVERSE, config)


@settings(max_examples=40)
@given(tables(), st.integers(1, 4), st.sampled_from(["paths", "shortest", "uniform"]))
def test_lstar_learns_random_small_dfas_exactly(
    table: tuple[list[list[int]], list[bool]], batch: int, mode: str
) -> None:
    moves, accepting = table
    config = LoopConfig(
        teacher=TeacherConfig(batch=batch, mode=mode, max_len=12),  # type: ignore[arg-type]
        budgets=Budgets(epochs=50),
    )
    teacher = teacher_of(moves, accepting, config.teacher_config)
    state = asyncio.run(run(Task("simple", universe=UNIVERSE), LStarLearner(), teacher, config))
    assert state.outcome == "equivalent" and state.hypothesis is not None
    learned = compile_regex(read_hypothesis(state.hypothesis, "simple", UNIVERSE), UNIVERSE)
    for n in range(8):
        for chars in itertools.product(LETTERS, repeat=n):
            string = "".join(chars)
            assert learned.accepts(string) == walk(moves, accepting, string), string
    assert learned.n_states <= len(moves)  # L* hypotheses are minimal
    assert state.cost.learner.membership_queries == sum(
        r.cost.membership_queries for r in state.records
    )


def benchmark(shared_data: Path, key: str) -> list[str]:
    cells = json.loads((shared_data / "cegml" / "regex_list.json").read_text())[key]
    return [
        regex for cell in cells for depth in cell["regex_list"] for regex in depth["regex_list"]
    ]


BENCHMARKS = [("simplyrx", "simple", False), ("extrx", "extended", True)]


@pytest.mark.parametrize(("key", "dialect", "clustered"), BENCHMARKS)
def test_lstar_learns_a_sample_of_the_benchmark_targets(
    shared_data: Path, key: str, dialect: str, clustered: bool
) -> None:
    learns_benchmark(shared_data, key, dialect, clustered, per_cell=5)


@pytest.mark.slow
@pytest.mark.parametrize(("key", "dialect", "clustered"), BENCHMARKS)
def test_lstar_learns_every_benchmark_target(
    shared_data: Path, key: str, dialect: str, clustered: bool
) -> None:
    learns_benchmark(shared_data, key, dialect, clustered, per_cell=1)


def learns_benchmark(
    shared_data: Path, key: str, dialect: str, clustered: bool, per_cell: int
) -> None:
    config = LoopConfig(teacher=TeacherConfig(clustered=clustered), evaluate=False)
    for target in benchmark(shared_data, key)[::per_cell]:
        task = Task(dialect, target)  # type: ignore[arg-type]
        teacher = ExactTeacher.from_regex(target, task.dialect, config=config.teacher_config)
        state = asyncio.run(run(task, LStarLearner(), teacher, config))
        assert state.outcome == "equivalent", target
        guess = teacher.compile(state.hypothesis or "").dfa
        assert guess is not None and all(satisfies(guess, e) for e in state.examples)


def test_lstar_over_a_large_universe_learns_over_the_classes_the_examples_reveal() -> None:
    config = LoopConfig(teacher=TeacherConfig(clustered=True), budgets=Budgets(epochs=30))
    task = Task("python", "[0-9]+x")
    teacher = ExactTeacher.from_regex(task.target or "", "python", config=config.teacher_config)
    state = asyncio.run(run(task, LStarLearner(), teacher, config))
    assert state.outcome == "equivalent"


def test_the_membership_budget_stops_lstar() -> None:
    config = LoopConfig(
        teacher=TeacherConfig(batch=1, mode="shortest"), budgets=Budgets(membership_queries=5)
    )
    task = Task("simple", "((a b)* c (a+b))*")
    teacher = ExactTeacher.from_regex(task.target or "", "simple", config=config.teacher_config)
    state = asyncio.run(run(task, LStarLearner(), teacher, config))
    assert state.outcome == "membership_queries" and state.cost.learner.membership_queries >= 5


def test_a_resumed_lstar_run_keeps_its_table(tmp_path: Path) -> None:
    config = LoopConfig(teacher=TeacherConfig(batch=1, mode="shortest"), seed=2, initial_size=0)
    assert check_resumes(tmp_path, Task("simple", "((a b)* c (a+b))*"), LStarLearner(), config) > 3


KILLED_RUN = """
import asyncio, os, sys
from pathlib import Path
import attrs
from cegis.config import LoopConfig
from cegis.learner import LearnerContext, Proposal
from cegis.records import run_recorded
from cegis.symbolic.lstar import LStarLearner
from cegis.state import Task
from oracle import ExactTeacher, TeacherConfig

class KilledAt(LStarLearner):
    async def propose(self, context: LearnerContext) -> Proposal:
        if context.epoch == int(sys.argv[2]):
            os._exit(9)  # the process dies mid-run, with no chance to clean up
        return await super().propose(context)

config = LoopConfig(teacher=TeacherConfig(batch=1, mode="shortest"), seed=2, initial_size=0)
task = Task("simple", "((a b)* c (a+b))*")
teacher = ExactTeacher.from_regex(task.target, "simple", config=config.teacher_config)
asyncio.run(run_recorded(task, KilledAt(), teacher, config, Path(sys.argv[1])))
"""


def test_a_killed_process_resumes_to_the_records_of_an_uninterrupted_run(tmp_path: Path) -> None:
    config = LoopConfig(teacher=TeacherConfig(batch=1, mode="shortest"), seed=2, initial_size=0)
    task = Task("simple", "((a b)* c (a+b))*")
    teacher = ExactTeacher.from_regex(task.target or "", "simple", config=config.teacher_config)
    whole = tmp_path / "whole.jsonl"
    asyncio.run(run_recorded(task, LStarLearner(), teacher, config, whole))
    killed = tmp_path / "killed.jsonl"
    died = subprocess.run([sys.executable, "-c", KILLED_RUN, str(killed), "2"], check=False)
    assert died.returncode == 9 and len(killed.read_text().splitlines()) == 2
    asyncio.run(run_recorded(task, LStarLearner(), teacher, config, killed))
    assert lines(killed) == lines(whole)


def propose(
    learner: LStarLearner, examples: tuple[Counterexample, ...], membership: MembershipOracle | None
) -> Proposal:
    context = LearnerContext("simple", UNIVERSE, examples, membership=membership)
    return asyncio.run(learner.propose(context))


class Always:
    def __init__(self, answer: bool) -> None:
        self.answer = answer

    def label(self, string: str) -> bool:
        return self.answer


def test_lstar_failures_are_typed() -> None:
    contradictory = (Example("a", True), ClusteredExample((CharSet.of("ab"),), False, UNIVERSE))
    failure = propose(LStarLearner(), contradictory, Always(False)).failure
    assert failure is not None and failure.kind == "inconsistent"
    three_states = (Example("ab", True), Example("a", False), Example("", False))
    failure = propose(LStarLearner(max_states=2), three_states, Always(False)).failure
    assert failure is not None and failure.kind == "budget"
    failure = propose(LStarLearner(), three_states, None).failure
    assert failure is not None and failure.kind == "budget"


def test_examples_answer_the_queries_they_cover() -> None:
    counted = CountedMembership(Always(False))
    covering = (ClusteredExample((CharSet.of("ab"),) * 3, True, UNIVERSE), Example("", False))
    proposal = propose(LStarLearner(), covering, counted)
    assert proposal.ok and proposal.cost.membership_queries == counted.queries
    learned = compile_regex(read_hypothesis(proposal.text, "simple", UNIVERSE), UNIVERSE)
    assert all(learned.accepts("".join(s)) for s in itertools.product("ab", repeat=3))
    assert not any(learned.accepts(s) for s in ("", "a", "ab", "abab"))
