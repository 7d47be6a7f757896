"""Shared helpers of the cegis tests: small learners and teachers with known behaviour."""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any

import attrs

from automata.building.compile import compile_regex
from automata.jit import compile_time
from cegis.learner import LearnerContext, LearnerCost, Proposal, ProposalFailure
from cegis.records import without_wall_clock
from oracle import Counterexample, Example, Spend, Verdict
from regexlang import parse
from regexlang.ast import Regex
from regexlang.charset import CharSet


class CompilingLearner:
    """Proposes ``a`` while numba (as far as the clocks can tell) compiles for 0.05 s."""

    name = "compiling"

    async def propose(self, context: LearnerContext) -> Proposal:
        with compile_time.compiling():
            time.sleep(0.05)
        return Proposal(parse("a", "simple"), "a")


@attrs.frozen
class FailingLearner:
    """Always fails with ``kind``, reporting ``tokens`` prompt tokens per call."""

    kind: str = "no_regex"
    tokens: int = 0
    name: str = "failing"

    async def propose(self, context: LearnerContext) -> Proposal:
        return Proposal(
            None,
            "no answer",
            failure=ProposalFailure(self.kind),  # type: ignore[arg-type]
            cost=LearnerCost(calls=1, prompt_tokens=self.tokens),
        )


class ExhaustiveTeacher:
    """A custom oracle: a Python predicate checked on every string up to ``max_len`` (no `label`)."""

    def __init__(self, predicate: Callable[[str], bool], alphabet: str, max_len: int = 5) -> None:
        self.predicate, self.alphabet, self.max_len = predicate, alphabet, max_len

    def check(self, hypothesis: Regex, already_given: Collection[Counterexample] = ()) -> Verdict:
        dfa = compile_regex(hypothesis, CharSet.of(self.alphabet))
        strings = [
            "".join(t)
            for n in range(self.max_len + 1)
            for t in itertools.product(self.alphabet, repeat=n)
        ]
        wrong = [
            Example(s, self.predicate(s)) for s in strings if dfa.accepts(s) != self.predicate(s)
        ]
        old = {e.string for e in already_given if isinstance(e, Example)}
        fresh = tuple(e for e in wrong if e.string not in old)[:3]
        return Verdict(not wrong, fresh, "exhaustive", Spend(0.0, len(strings)), exact=False)


def lines(path: Path) -> list[Any]:
    """The records of a file without their wall-clock fields."""
    return [without_wall_clock(json.loads(line)) for line in path.read_text().splitlines()]


@attrs.frozen
class FixedLearner:
    """Always proposes the same regex (its text a quick print with ``draft``)."""

    regex: Regex
    text: str
    name: str = "fixed"
    draft: bool = False

    async def propose(self, context: LearnerContext) -> Proposal:
        return Proposal(self.regex, self.text, draft=self.draft)


class LabelingTeacher(ExhaustiveTeacher):
    """The exhaustive teacher with a membership oracle, so the loop can draw random examples."""

    def label(self, string: str) -> bool:
        return self.predicate(string)
