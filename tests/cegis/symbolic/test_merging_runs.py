"""Long runs of the positives' own language read as repetitions (:mod:`cegis.symbolic.merging.families.runs`),
checked against enumeration of short strings; and the loop where a teacher of loop-free paths left
the learner creeping one bound up an epoch (``X{0,27}`` for ``X*``)."""

from __future__ import annotations

import asyncio
import itertools

from automata.algebra import ops
from automata.building.compile import from_text
from automata.core.dfa import DFA
from automata.core.minimize import minimize
from cegis.config import Budgets, LoopConfig
from cegis.learner import LearnerContext
from cegis.loop import run
from cegis.state import Task
from cegis.symbolic.merging import symbolic
from cegis.symbolic.merging.candidate import automaton_of as automaton
from cegis.symbolic.merging.families.runs import LONGEST_COUNT, looped_runs
from oracle import ExactTeacher, Example, TeacherConfig, Verdict
from oracle.clustered import misclassified
from regexlang import CharSet
from regexlang.dialects import universe as dialect_universe


def strings(dfa: DFA, up_to: int) -> set[str]:
    """The strings over ``X05`` of at most ``up_to`` characters that ``dfa`` accepts."""
    return {
        w
        for n in range(up_to + 1)
        for w in map("".join, itertools.product("X05", repeat=n))
        if ops.accepts(dfa, w)
    }


def test_a_long_run_is_looped_at_its_first_state() -> None:
    listing = minimize(from_text("X{0,12}[0-9]{3}", "extended"))
    ((looped, how),) = looped_runs(listing)
    assert "13 states" in how
    expected = {
        "X" * k + d
        for k in range(7)
        for d in map("".join, itertools.product("05", repeat=3))
        if k + 3 <= 9
    }
    assert strings(looped, 9) == expected  # no more X is bounded, and nothing else changed
    assert ops.equivalent(looped, from_text("X*[0-9]{3}", "extended"))


def test_counts_a_person_writes_are_left_alone() -> None:
    assert (
        looped_runs(minimize(from_text(f"[A-Z]{{2,{LONGEST_COUNT - 1}}}[0-9]", "extended"))) == []
    )
    assert looped_runs(minimize(from_text("ab{2}c", "extended"))) == []


def test_each_run_alone_and_all_at_once() -> None:
    found = looped_runs(minimize(from_text("X{0,8}#Y{0,9}", "extended")))
    expected = ["X*#Y{0,9}", "X{0,8}#Y*", "X*#Y*"]
    assert len(found) == 3
    for (dfa, _), text in zip(found, expected):
        assert ops.equivalent(dfa, from_text(text, "extended"))


def test_with_loop_free_paths_the_learner_learns_the_run_instead_of_creeping_its_bound() -> None:
    # StructuredRegex's "(X{1,})?[0-9]{3,4}" over printable ASCII: the initial examples' negatives are
    # random strings, the teacher's paths add one more X an epoch; the listing crept X{0,27} ... X{0,29}
    # for all 12 epochs before, and no merge order found the loop.
    printable = CharSet.range(" ", "~")
    task = Task("extended", "(X{1,})?[0-9]{3,4}", universe=printable)
    config = LoopConfig(
        TeacherConfig(batch=250, mode="paths", clustered=True),
        Budgets(epochs=12),
        evaluate=False,
        seed=0,
    )
    teacher = ExactTeacher.from_regex(
        task.target or "", task.dialect, universe=printable, config=config.teacher_config
    )
    state = asyncio.run(run(task, symbolic(), teacher, config))
    assert state.outcome == "equivalent" and state.epoch <= 3, (state.epoch, state.hypothesis)


def test_a_unit_of_several_characters_repeated_is_looped() -> None:
    unrolled = minimize(from_text("Q7r|" + "xy(" * 15 + "xy" + ")?" * 15, "extended"))
    ((looped, _),) = looped_runs(unrolled)
    assert ops.equivalent(looped, from_text("Q7r|(xy)+", "extended"))
    ((even, _),) = looped_runs(minimize(from_text("(aa){1,12}", "extended")))
    assert ops.equivalent(
        even, from_text("(aa)+", "extended")
    )  # a period of its own: the counts stay even
    assert (
        looped_runs(minimize(from_text("(ab){1,2}|c", "extended"))) == []
    )  # too few units to read a loop


def test_a_chain_two_branches_share_is_looped_for_both_at_its_last_unit() -> None:
    # Minimization shares the tail: a enters b's chain of Y halfway, so looping it at its first
    # state leaves aY{0,8} bounded; looping its last unit loops both.
    found = looped_runs(minimize(from_text("aY{0,8}|bY{0,16}", "extended")))
    assert [how for _, how in found] == [
        "runs of 17 states looped",
        "runs of 17 states looped at their last unit",
    ]
    assert ops.equivalent(found[0][0], from_text("aY{0,8}|bY*", "extended"))
    assert ops.equivalent(found[1][0], from_text("aY*|bY*", "extended"))


def test_a_rejected_hypothesis_is_not_proposed_again_when_nothing_new_is_shown() -> None:
    positives = [Example("xy" * k, True) for k in range(1, 17)] + [Example("Q7r", True)]
    examples = (
        *positives,
        Example("JZMJ6tzevD1", False),
        Example("Hn0", False),
        Example("x", False),
    )
    universe = dialect_universe("extended")
    first = asyncio.run(symbolic().propose(LearnerContext("extended", universe, examples)))
    assert first.regex is not None and ops.equivalent(
        automaton(first.regex, universe), from_text("Q7r|(xy)+", "extended")
    )
    rejected = Verdict(False, exact=False)  # a teacher that says "wrong" and shows nothing new
    again = asyncio.run(
        symbolic().propose(LearnerContext("extended", universe, examples, 1, first, rejected))
    )
    assert again.regex is not None and not ops.equivalent(
        automaton(again.regex, universe), automaton(first.regex, universe)
    )
    assert not misclassified(automaton(again.regex, universe), examples)
