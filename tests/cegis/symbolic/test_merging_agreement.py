"""Agreements: what a shortest counterexample implies (below its length the hypothesis was right),
derived only from a shortest-mode verdict, carried in the memo through a resume with the examples
they implied, and kept by the symbolic learner's next hypothesis (checked by enumerating every
short string with ``re``)."""

from __future__ import annotations

import asyncio
import itertools
import json
import re
from pathlib import Path

import pytest

from automata import compile_regex
from cegis.config import Budgets, LoopConfig
from cegis.learner import LearnerContext, Proposal
from cegis.records import run_recorded
from cegis.symbolic.merging import symbolic
from cegis.symbolic.merging.agreement import Agreement, Agreements, Memory, agreements, decode, encode, remembered
from cegis.state import Task
from oracle import ClusteredExample, Example, ExactTeacher, TeacherConfig, Verdict
from regexlang import CharSet, parse
from tests.cegis.test_records import check_resumes

SIGMA = CharSet.of("ab")


def context(mode: str, counterexamples: tuple[Example | ClusteredExample, ...], memo: object = None) -> LearnerContext:
    previous = Proposal(parse("a*", "python", SIGMA), "a*", memo=memo)
    verdict = Verdict(False, counterexamples, mode, exact=True)
    return LearnerContext("python", SIGMA, counterexamples, epoch=1, previous=previous, verdict=verdict)


def test_a_shortest_verdict_adds_an_agreement_below_its_shortest_counterexample() -> None:
    answer = (Example("bab", True), ClusteredExample((SIGMA, SIGMA), False, SIGMA))
    assert agreements(context("shortest+clustered", answer)) == (Agreement("a*", 2),)
    earlier = Memory((Agreement("b", 1),))
    assert agreements(context("shortest", answer[:1], memo=earlier)) == (Agreement("a*", 3),)  # it implies "b"'s
    longer = Memory((Agreement("b", 4),))
    assert agreements(context("shortest", answer[:1], memo=longer)) == longer.agreements
    assert agreements(context("shortest", answer[:1], memo=Memory((Agreement("b", 3),)))) == (Agreement("a*", 3),)


def test_the_implied_examples_are_remembered_whatever_the_verdict() -> None:
    memo = Memory((Agreement("b", 4),), (Example("bb", False), Example("", True)))
    assert remembered(context("shortest", (Example("bab", True),), memo=memo)) == memo
    assert remembered(context("paths", (Example("a", True),), memo=memo)) == memo
    assert remembered(context("shortest", (Example("a", True),))) == Memory((Agreement("a*", 1),))


@pytest.mark.parametrize("mode", ["paths", "uniform+clustered", "shortest@cegml"])
def test_other_teachers_imply_nothing(mode: str) -> None:
    assert agreements(context(mode, (Example("bab", True),))) == ()


def test_an_empty_counterexample_implies_nothing() -> None:
    assert agreements(context("shortest", (Example("", True),))) == ()


def test_the_memory_survives_json() -> None:
    memo = Memory((Agreement("a*", 2), Agreement("(a|b)b", 5)), (Example("ab", True), Example("", False)))
    assert decode(json.loads(json.dumps(encode(memo)))) == memo
    assert decode([["a*", 2]]) == Memory((Agreement("a*", 2),))  # records written before the implied examples


def test_the_implied_example_is_the_shortest_disagreement_labeled_by_the_earlier_hypothesis() -> None:
    two = Agreements.compile([Agreement("a*", 3), Agreement("b", 1)], "python", SIGMA, 1000)
    assert two.implied(compile_regex(parse("a|b", "python", SIGMA), SIGMA)) == [Example("", True)]
    candidate = compile_regex(parse("a*|bb", "python", SIGMA), SIGMA)
    assert Agreements.compile([Agreement("a*", 3)], "python", SIGMA, 1000).implied(candidate) == [Example("bb", False)]
    assert Agreements.compile([Agreement("a*", 2)], "python", SIGMA, 1000).implied(candidate) == []


@pytest.mark.parametrize(("earlier", "below"), [("(ab)*", 5), ("a(a|b)*", 4), ("a(a|b)*b", 5)])
def test_the_learned_hypothesis_keeps_every_agreement(earlier: str, below: int) -> None:
    examples = (Example("ab", True), Example("b", False), Example("abab", True))  # all true of `earlier`
    proposal = symbolic().learn(examples, "python", SIGMA, Memory((Agreement(earlier, below),)))
    assert proposal.ok, proposal.failure
    assert isinstance(proposal.memo, Memory) and proposal.memo.agreements == (Agreement(earlier, below),)
    for fact in proposal.memo.implied:  # what the agreement implied is true of the earlier hypothesis
        assert len(fact.string) < below and bool(re.fullmatch(earlier, fact.string)) == fact.label
    for n in range(below):
        for word in map("".join, itertools.product("ab", repeat=n)):
            assert bool(re.fullmatch(proposal.text, word)) == bool(re.fullmatch(earlier, word)), word


def test_a_run_with_shortest_counterexamples_resumes_with_its_agreements(tmp_path: Path) -> None:
    config = LoopConfig(TeacherConfig(batch=1, mode="shortest", clustered=True), Budgets(epochs=30), seed=3, evaluate=False)
    task = Task("simple", "(a b)* c + a a")
    records = tmp_path / "run.jsonl"
    teacher = ExactTeacher.from_regex(task.target or "", task.dialect, config=config.teacher_config)
    state = asyncio.run(run_recorded(task, symbolic(), teacher, config, records))
    assert state.outcome == "equivalent"
    assert any(r.memo for r in state.records)  # agreements were carried
    resumed = tmp_path / "resume"
    resumed.mkdir()
    assert check_resumes(resumed, task, symbolic(), config) == len(state.records) + 1


ABC = CharSet.of("abc")


@pytest.mark.parametrize(
    ("target", "below", "examples"),
    [
        (  # the tie of the negative's classes is a guess the tree must test: witnesses, then agreements
            "a[bc]*a",
            5,
            (
                ClusteredExample((CharSet.of("a"), CharSet.of("bc"), CharSet.of("a")), True, ABC),
                ClusteredExample((CharSet.of("a"), CharSet.of("bc"), CharSet.of("bc"), CharSet.of("bc")), False, ABC),
                ClusteredExample((CharSet.of("bc"), CharSet.of("abc")), False, ABC),
            ),
        ),
        (
            "(ab|c)*",
            6,
            (
                ClusteredExample((CharSet.of("c"), CharSet.of("a"), CharSet.of("b")), True, ABC),
                ClusteredExample((CharSet.of("a"), CharSet.of("ac")), False, ABC),
                ClusteredExample((CharSet.of("ab"), CharSet.of("ab"), CharSet.of("ab")), False, ABC),
            ),
        ),
    ],
)
def test_clustered_examples_and_an_agreement_are_all_kept(target: str, below: int, examples: tuple[ClusteredExample, ...]) -> None:
    for example in examples:  # the examples are true of the target
        assert all(bool(re.fullmatch(target, "".join(s))) == example.label for s in itertools.product(*map(sorted, example.positions)))
    proposal = symbolic().learn(examples, "python", ABC, Memory((Agreement(target, below),)))
    assert proposal.ok, proposal.failure
    for example in examples:
        for string in map("".join, itertools.product(*map(sorted, example.positions))):
            assert bool(re.fullmatch(proposal.text, string)) == example.label, string
    for n in range(below):
        for word in map("".join, itertools.product("abc", repeat=n)):
            assert bool(re.fullmatch(proposal.text, word)) == bool(re.fullmatch(target, word)), word
