"""The enumerative learner's budgets and failures are typed values, and it speaks the Learner protocol."""

from __future__ import annotations

import asyncio
import itertools

from automata.algebra.ops import equivalent
from automata.building.compile import compile_many
from cegis.learner import LearnerContext
from cegis.registry import REGISTRY
from cegis.symbolic.enumerative import EnumerativeConfig, EnumerativeLearner, synthesize
from oracle.clustered import misclassified
from oracle.examples import ClusteredExample, Counterexample, Example
from regexlang import CharSet, parse, universe, unparse
from regexlang.dialects import Dialect
from tests.cegis.symbolic.enumerative_reference import consistent

ABC = CharSet.of("abc")

#: Labeled by "an even number of a's and of b's": its smallest regex is far beyond small budgets.
PARITY = [
    Example("".join(s), "".join(s).count("a") % 2 == 0 and "".join(s).count("b") % 2 == 0)
    for n in range(5)
    for s in itertools.product("ab", repeat=n)
]


def test_node_budget() -> None:
    result = synthesize(PARITY, "simple", ABC, EnumerativeConfig(max_candidates=5_000))
    assert result.regex is None and result.failure is not None and result.failure.kind == "budget"
    assert result.stats.computed <= 5_000


def test_time_budget_with_an_injected_clock() -> None:
    ticks = itertools.count()
    result = synthesize(
        PARITY, "simple", ABC, EnumerativeConfig(seconds=3.0), clock=lambda: float(next(ticks))
    )
    assert result.failure is not None and result.failure.kind == "timeout"


def test_size_bound_exhausts_the_search() -> None:
    result = synthesize(PARITY, "simple", ABC, EnumerativeConfig(max_size=4))
    assert result.failure is not None and result.failure.kind == "search_exhausted"


def test_contradictory_examples() -> None:
    examples: list[Counterexample] = [
        Example("ab", True),
        ClusteredExample((CharSet.of("a"), ABC), False),
    ]
    result = synthesize(examples, "simple", ABC)
    assert result.failure is not None and result.failure.kind == "search_exhausted"


def test_strings_beyond_the_bitsets() -> None:
    result = synthesize([Example("a" * 64, True)], "simple", ABC)
    assert result.failure is not None and result.failure.kind == "search_exhausted"


def test_a_full_bank_stops_growing_and_answers_stay_consistent() -> None:
    examples = [
        Example(s, s.endswith("c") and "c" not in s[:-1])
        for n in range(5)
        for s in map("".join, itertools.product("abc", repeat=n))
    ]
    roomy = synthesize(examples, "simple", ABC)
    tight = synthesize(examples, "simple", ABC, EnumerativeConfig(bank_bytes=100_000))
    assert roomy.regex is not None and tight.regex is not None
    assert tight.stats.bank_stopped and not roomy.stats.bank_stopped
    assert tight.size >= roomy.size
    assert consistent(unparse(tight.regex, "python"), examples)


def test_the_learner_protocol() -> None:
    dialect: Dialect = "extended"
    examples: tuple[Counterexample, ...] = (
        Example("x12", True),
        Example("x1", True),
        Example("x", False),
        Example("12", False),
        Example("xx1", False),
    )
    learner = REGISTRY["enumerative"].build()
    assert learner.name == "enumerative"
    proposal = asyncio.run(learner.propose(LearnerContext(dialect, universe(dialect), examples)))
    assert proposal.ok and proposal.regex is not None and proposal.cost.seconds > 0
    printed = parse(proposal.text, dialect)
    assert equivalent(*compile_many([printed, proposal.regex], universe(dialect)))
    assert not misclassified(compile_many([printed], universe(dialect))[0], examples)


def test_the_learner_reports_failures_as_values() -> None:
    learner = EnumerativeLearner(EnumerativeConfig(max_candidates=1_000))
    proposal = asyncio.run(learner.propose(LearnerContext("simple", ABC, tuple(PARITY))))
    assert not proposal.ok and proposal.failure is not None and proposal.failure.kind == "budget"
