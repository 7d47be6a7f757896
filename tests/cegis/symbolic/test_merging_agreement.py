"""Agreements: what a shortest counterexample implies (below its length the hypothesis was right),
derived only from a verdict that promises shortest counterexamples (``Verdict.shortest``, which any
teacher may set), carried in the memo through a resume with the examples
they implied, and kept by the symbolic learner's next hypothesis (checked by enumerating every
short string with ``re``)."""

from __future__ import annotations

import asyncio
import itertools
import json
import re
from collections.abc import Collection, Sequence
from pathlib import Path

import pytest

from automata import compile_regex
from cegis.config import Budgets, LoopConfig
from cegis.learner import LearnerContext, Proposal
from cegis.loop import run
from cegis.records import run_recorded
from cegis.state import Task
from cegis.symbolic.merging import symbolic
from cegis.symbolic.merging.core.run_cache import RunCache
from cegis.symbolic.merging.rounds.agreement import (
    Agreement,
    Agreements,
    Memory,
    agreements,
    decode,
    encode,
    remembered,
)
from cegis.symbolic.merging.rounds.witnesses import Consistent, consistent
from oracle import (
    ClusteredExample,
    Counterexample,
    ExactTeacher,
    Example,
    TeacherConfig,
    Verdict,
    matcher,
)
from regexlang import CharSet, parse
from regexlang.ast import Regex
from tests.cegis.test_records import check_resumes

SIGMA = CharSet.of("ab")


def context(
    shortest: bool, counterexamples: tuple[Example | ClusteredExample, ...], memo: object = None
) -> LearnerContext:
    previous = Proposal(parse("a*", "python", SIGMA), "a*", memo=memo)
    verdict = Verdict(False, counterexamples, "any", exact=True, shortest=shortest)
    return LearnerContext(
        "python", SIGMA, counterexamples, epoch=1, previous=previous, verdict=verdict
    )


def test_a_shortest_verdict_adds_an_agreement_below_its_shortest_counterexample() -> None:
    answer = (Example("bab", True), ClusteredExample((SIGMA, SIGMA), False, SIGMA))
    assert agreements(Memory(), context(True, answer)) == (Agreement("a*", 2),)
    earlier = Memory((Agreement("b", 1),))
    assert agreements(earlier, context(True, answer[:1])) == (
        Agreement("a*", 3),
    )  # it implies "b"'s
    longer = Memory((Agreement("b", 4),))
    assert agreements(longer, context(True, answer[:1])) == longer.agreements
    assert agreements(Memory((Agreement("b", 3),)), context(True, answer[:1])) == (
        Agreement("a*", 3),
    )


def test_the_implied_examples_are_remembered_whatever_the_verdict() -> None:
    memo = Memory((Agreement("b", 4),), (Example("bb", False), Example("", True)))
    assert remembered(memo, context(True, (Example("bab", True),))) == memo
    assert remembered(memo, context(False, (Example("a", True),))) == memo
    assert remembered(Memory(), context(True, (Example("a", True),))) == Memory(
        (Agreement("a*", 1),)
    )


def test_a_verdict_without_the_promise_implies_nothing() -> None:
    assert agreements(Memory(), context(False, (Example("bab", True),))) == ()


@pytest.mark.parametrize(
    ("config", "promise"),
    [
        (TeacherConfig(mode="shortest"), True),
        (TeacherConfig(mode="shortest", clustered=True), True),
        (TeacherConfig(mode="paths", clustered=True), False),
        (TeacherConfig(mode="uniform"), False),
        (TeacherConfig.cegml(mode="shortest"), False),  # the reference code's draw promises nothing
    ],
)
def test_the_exact_teacher_promises_shortest_counterexamples_only_in_shortest_mode(
    config: TeacherConfig, promise: bool
) -> None:
    verdict = ExactTeacher.from_regex("(ab)*", "python", universe=SIGMA, config=config).check(
        parse("a*", "python", SIGMA)
    )
    assert verdict.counterexamples and verdict.shortest == promise


def test_an_empty_counterexample_implies_nothing() -> None:
    assert agreements(Memory(), context(True, (Example("", True),))) == ()


def test_the_memory_survives_json() -> None:
    memo = Memory(
        (Agreement("a*", 2), Agreement("(a|b)b", 5)), (Example("ab", True), Example("", False))
    )
    assert decode(json.loads(json.dumps(encode(memo)))) == memo
    assert decode([["a*", 2]]) == Memory(
        (Agreement("a*", 2),)
    )  # records written before the implied examples


def test_the_implied_example_is_the_shortest_disagreement_labeled_by_the_earlier_hypothesis() -> (
    None
):
    two = Agreements.compile(
        [Agreement("a*", 3), Agreement("b", 1)], "python", SIGMA, 1000, RunCache()
    )
    assert two.implied(compile_regex(parse("a|b", "python", SIGMA), SIGMA)) == [Example("", True)]
    candidate = compile_regex(parse("a*|bb", "python", SIGMA), SIGMA)
    assert Agreements.compile([Agreement("a*", 3)], "python", SIGMA, 1000, RunCache()).implied(
        candidate
    ) == [Example("bb", False)]
    assert (
        Agreements.compile([Agreement("a*", 2)], "python", SIGMA, 1000, RunCache()).implied(
            candidate
        )
        == []
    )


@pytest.mark.parametrize(("earlier", "below"), [("(ab)*", 5), ("a(a|b)*", 4), ("a(a|b)*b", 5)])
def test_the_learned_hypothesis_keeps_every_agreement(earlier: str, below: int) -> None:
    examples = (
        Example("ab", True),
        Example("b", False),
        Example("abab", True),
    )  # all true of `earlier`
    proposal = symbolic().learn(examples, "python", SIGMA, Memory((Agreement(earlier, below),)))
    assert proposal.ok, proposal.failure
    assert proposal.memo is not None and proposal.memo.memory.agreements == (
        Agreement(earlier, below),
    )
    for fact in (
        proposal.memo.memory.implied
    ):  # what the agreement implied is true of the earlier hypothesis
        assert len(fact.string) < below and bool(re.fullmatch(earlier, fact.string)) == fact.label
    for n in range(below):
        for word in map("".join, itertools.product("ab", repeat=n)):
            assert bool(re.fullmatch(proposal.text, word)) == bool(re.fullmatch(earlier, word)), (
                word
            )


def test_a_run_with_shortest_counterexamples_resumes_with_its_agreements(tmp_path: Path) -> None:
    config = LoopConfig(
        TeacherConfig(batch=1, mode="shortest", clustered=True),
        Budgets(epochs=30),
        seed=3,
        evaluate=False,
    )
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
                ClusteredExample(
                    (CharSet.of("a"), CharSet.of("bc"), CharSet.of("bc"), CharSet.of("bc")),
                    False,
                    ABC,
                ),
                ClusteredExample((CharSet.of("bc"), CharSet.of("abc")), False, ABC),
            ),
        ),
        (
            "(ab|c)*",
            6,
            (
                ClusteredExample((CharSet.of("c"), CharSet.of("a"), CharSet.of("b")), True, ABC),
                ClusteredExample((CharSet.of("a"), CharSet.of("ac")), False, ABC),
                ClusteredExample(
                    (CharSet.of("ab"), CharSet.of("ab"), CharSet.of("ab")), False, ABC
                ),
            ),
        ),
    ],
)
def test_clustered_examples_and_an_agreement_are_all_kept(
    target: str, below: int, examples: tuple[ClusteredExample, ...]
) -> None:
    for example in examples:  # the examples are true of the target
        assert all(
            bool(re.fullmatch(target, "".join(s))) == example.label
            for s in itertools.product(*map(sorted, example.positions))
        )
    proposal = symbolic().learn(examples, "python", ABC, Memory((Agreement(target, below),)))
    assert proposal.ok, proposal.failure
    for example in examples:
        for string in map("".join, itertools.product(*map(sorted, example.positions))):
            assert bool(re.fullmatch(proposal.text, string)) == example.label, string
    for n in range(below):
        for word in map("".join, itertools.product("abc", repeat=n)):
            assert bool(re.fullmatch(proposal.text, word)) == bool(re.fullmatch(target, word)), word


class ShortlexTeacher:
    """A user's own teacher: it knows the target as a Python regex and answers with the first
    disagreement in shortlex order, so it may promise shortest counterexamples."""

    def __init__(self, target: str, promise: bool) -> None:
        self.target, self.promise = target, promise

    def check(self, hypothesis: Regex, already_given: Collection[Counterexample] = ()) -> Verdict:
        accepts = matcher(hypothesis, SIGMA)
        given = {e.string for e in already_given if isinstance(e, Example)}
        for word in ("".join(t) for n in range(9) for t in itertools.product("ab", repeat=n)):
            label = re.fullmatch(self.target, word) is not None
            if accepts(word) != label and word not in given:
                return Verdict(
                    False, (Example(word, label),), "shortlex", exact=False, shortest=self.promise
                )
        return Verdict(True, (), "shortlex", exact=False, shortest=self.promise)


@pytest.mark.parametrize("promise", [True, False])
def test_a_users_teacher_that_promises_shortest_counterexamples_gives_the_learner_agreements(
    promise: bool,
) -> None:
    task = Task("python", examples=(Example("ab", True), Example("b", False)), universe=SIGMA)
    config = LoopConfig(budgets=Budgets(epochs=12), evaluate=False)
    state = asyncio.run(run(task, symbolic(), ShortlexTeacher("a(ba)*b?", promise), config))
    assert state.outcome == "consistent"
    carried = [r.memo for r in state.records if r.memo]
    assert bool(carried) == promise  # agreements (and what they imply) are kept only on the promise
    memories = [decode(memo) for memo in carried]
    for agreed in (
        a for memory in memories if isinstance(memory, Memory) for a in memory.agreements
    ):
        for word in (
            "".join(t) for n in range(agreed.below) for t in itertools.product("ab", repeat=n)
        ):
            assert (re.fullmatch(agreed.hypothesis, word) is None) == (
                re.fullmatch("a(ba)*b?", word) is None
            ), word  # true below


def test_with_agreements_a_round_stops_at_the_first_reading_that_keeps_them() -> None:
    """Without agreements every reading learns (the first to keep its witnesses does not end the
    round); with an agreement the first reading's candidates keep, the representative reading is
    not learned, and every candidate keeps the agreement (checked against ``re`` on short strings)."""
    sigma = CharSet.of("abc")
    examples: list[Counterexample] = [
        Example("ab", True),
        Example("aab", True),
        Example("b", False),
        ClusteredExample((CharSet.of("bc"), CharSet.of("a")), False, sigma),
        ClusteredExample((CharSet.of("a"), CharSet.of("ac"), CharSet.of("bc")), True, sigma),
    ]
    learner = symbolic()
    assert learner.readings == ("tied", "representative")

    def readings(found: Consistent) -> set[str]:
        return {candidate.how.rpartition(", ")[2] for candidate in found.candidates}

    def view(more: Sequence[Counterexample]) -> list[Counterexample]:
        return [*examples, *more]

    free = consistent(
        view,
        sigma,
        learner,
        Agreements.compile([], "python", sigma, 1000, RunCache()),
        {},
        RunCache(),
    )
    assert readings(free) == {"tied", "representative"}
    earlier = Agreements.compile([Agreement("a+[bc]", 3)], "python", sigma, 1000, RunCache())
    bound = consistent(view, sigma, learner, earlier, {}, RunCache())
    assert readings(bound) == {"tied"}
    short = ["".join(s) for n in range(3) for s in itertools.product("abc", repeat=n)]
    for candidate in bound.candidates:
        assert [candidate.automaton.accepts(s) for s in short] == [
            re.fullmatch("a+[bc]", s) is not None for s in short
        ]
