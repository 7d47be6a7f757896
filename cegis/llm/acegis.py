"""A-CEGIS on the loop: the feedback strategies, and hardening after hidden-set success.

A-CEGIS asks for a Python regex from a natural-language description; a test-suite oracle
(:class:`oracle.SuiteOracle`) judges each attempt on hidden tests, and the next prompt carries
feedback on the previous attempt, in one of four strengths:

* ``zero_shot``: none; every turn is a fresh attempt;
* ``generic``: only that the attempt was wrong;
* ``error_only``: how many hidden tests it failed (counted on the suite itself);
* ``diagnostic``: directional witnesses: strings it wrongly matches (false positives) and wrongly
  rejects (false negatives), at most ``witnesses`` per direction (the suite's
  :attr:`~oracle.testsuite.SuiteConfig.witnesses`, 3). Under the test-suite teacher every witness
  is a hidden test the attempt fails: the loop adds no random strings for it
  (:class:`cegis.llm.setup.TestsOnly`), so the examples a run holds are the tests shown so far.
  The verdict's new failures come first; when the model repeats a mistake and the teacher has
  nothing new to show, earlier witnesses the attempt still fails are shown again. With the exact
  teacher (``acegis-exact``, the paper's future work) the witnesses are exact counterexamples.

An attempt that did not parse has no language and fails no particular test: its feedback names
the syntax error and nothing else. The turn budget is the loop's
epoch budget (4 for the strategy ablation, 7 for the full run).

*Hardening* follows hidden-set success in the full run: the suite probes the passing hypothesis
near the description, its literals and the tests (:mod:`oracle.probes`); the probes it gets wrong
become the counterexamples of one more repair turn (at most ``witnesses`` per direction, like a
normal turn), judged again on the hidden tests; at most ``cycles`` such cycles, each recorded as
a :class:`HardeningCycle`. Robust success is passing the hidden tests and every probe.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

import attrs

from cegis.config import LoopConfig
from cegis.learner import Learner, Proposal
from cegis.llm.prompts import (
    DiagnosticFeedback,
    ErrorCountFeedback,
    Feedback,
    GenericFeedback,
    NoFeedback,
)
from cegis.llm.settings import FeedbackStrategy
from cegis.loop import step
from cegis.state import EpochState
from oracle.clustered import misclassified
from oracle.compiling import compile_subject
from oracle.examples import Counterexample, Example, identity
from oracle.protocol import Teacher, Verdict
from oracle.testsuite import SuiteConfig, SuiteReport
from regexlang.ast import Regex
from regexlang.charset import CharSet
from regexlang.dialects import Dialect

_E = TypeVar("_E", bound=Counterexample)

#: Witnesses per direction a diagnostic turn shows without a suite to say otherwise.
DEFAULT_WITNESSES = SuiteConfig().witnesses


class SuiteReporter(Protocol):
    """What error-only feedback and hardening need of :class:`oracle.SuiteOracle`."""

    @property
    def tests(self) -> tuple[Example, ...]:
        """The hidden tests."""
        ...

    @property
    def config(self) -> SuiteConfig:
        """How the suite was drawn, and how many witnesses per direction a turn shows."""
        ...

    def evaluate(self, hypothesis: str | Regex, *, probe: bool = True) -> SuiteReport:
        """The hypothesis judged on the hidden tests (and probed when it passes and ``probe``)."""
        ...


def feedback(
    strategy: FeedbackStrategy,
    previous: Proposal,
    verdict: Verdict | None,
    suite: SuiteReporter | None,
    still_wrong: Sequence[Counterexample] = (),
    witnesses: int = DEFAULT_WITNESSES,
) -> Feedback:
    """The feedback ``strategy`` gives on the ``previous`` attempt, judged by ``verdict``;
    ``still_wrong`` are earlier examples the attempt gets wrong, shown again (diagnostic) when the
    verdict has fewer than ``witnesses`` new ones in a direction."""
    syntax = None if previous.failure is None else str(previous.failure)
    if strategy == "generic":
        return GenericFeedback(previous.text)
    if strategy == "error_only":
        if suite is None:
            raise ValueError("error-only feedback needs the test-suite oracle")
        total = len(suite.tests)
        report = None if previous.regex is None else suite.evaluate(previous.regex, probe=False)
        failed = total if report is None or not report.valid else report.outcomes.count(False)
        return ErrorCountFeedback(previous.text, failed, total, syntax)
    if strategy == "diagnostic":
        fresh = () if verdict is None else verdict.counterexamples
        shown = {label: _capped(fresh, still_wrong, label, witnesses) for label in (False, True)}
        return DiagnosticFeedback(previous.text, shown[False], shown[True], syntax)
    return NoFeedback()


def _capped(
    fresh: Sequence[Counterexample], again: Sequence[Counterexample], label: bool, n: int
) -> tuple[str, ...]:
    """Up to ``n`` witnesses labeled ``label``: the new ones first, then repeats."""
    spelled: list[str] = []
    for example in (*fresh, *again):
        text = _spelled(example)
        if example.label == label and text not in spelled and len(spelled) < n:
            spelled.append(text)
    return tuple(spelled)


def still_wrong(
    previous: Proposal,
    examples: Sequence[Counterexample],
    *,
    dialect: Dialect,
    universe: CharSet,
    state_limit: int,
) -> tuple[Counterexample, ...]:
    """The ``examples`` the previous attempt's regex gets wrong (none when it had no regex)."""
    if previous.regex is None:
        return ()
    compiled = compile_subject(
        previous.regex, "hypothesis", dialect=dialect, universe=universe, state_limit=state_limit
    )
    return () if compiled.dfa is None else misclassified(compiled.dfa, examples)


def cap_per_direction(examples: Sequence[_E], n: int) -> tuple[_E, ...]:
    """At most ``n`` examples of each label, in their order."""
    kept: list[_E] = []
    for example in examples:
        if sum(e.label == example.label for e in kept) < n:
            kept.append(example)
    return tuple(kept)


def _spelled(example: Counterexample) -> str:
    return example.string if isinstance(example, Example) else example.pattern()


@attrs.frozen
class HardeningCycle:
    """One hardening cycle: the hypothesis probed, the probes it failed, and the repaired one."""

    cycle: int
    probed: str
    probes: int
    failed: tuple[Example, ...]
    repaired: str | None
    passed: bool
    robust: bool


async def harden(
    state: EpochState,
    learner: Learner,
    suite: SuiteReporter,
    teacher: Teacher,
    config: LoopConfig,
    *,
    cycles: int,
) -> tuple[EpochState, tuple[HardeningCycle, ...]]:
    """Up to ``cycles`` hardening cycles after the run ending in ``state``; the final state and the
    cycles. Each failed probe not yet among the examples becomes a counterexample of one repair
    epoch (the loop's :func:`~cegis.loop.step`, judged by ``teacher``); it stops once the
    hypothesis is robust, fails the hidden tests again, or no new failing probe is left."""
    done: list[HardeningCycle] = []
    for cycle in range(1, cycles + 1):
        proposal = state.proposal
        if proposal is None or proposal.regex is None or not state.accepted:
            break
        report = suite.evaluate(proposal.regex, probe=True)
        probes = report.probes
        given = {identity(e) for e in state.examples}
        failed = (
            () if probes is None else tuple(e for e in probes.failures if e.string not in given)
        )
        failed = cap_per_direction(
            failed, suite.config.witnesses
        )  # a turn's worth, not every failed probe
        if report.robust or not failed:
            break
        probe_verdict = Verdict(False, failed, "probes", exact=False)
        before = attrs.evolve(
            state, examples=state.examples + failed, verdict=probe_verdict, outcome=None
        )
        state = await step(before, learner, teacher, config)
        repaired = state.proposal.regex if state.proposal is not None else None
        after = None if repaired is None else suite.evaluate(repaired, probe=True)
        done.append(
            HardeningCycle(
                cycle,
                proposal.text,
                0 if probes is None else len(probes.probes),
                failed,
                None if repaired is None or state.proposal is None else state.proposal.text,
                after is not None and after.passed,
                after is not None and after.robust,
            )
        )
        if after is None or not after.passed:
            break
    return state, tuple(done)
