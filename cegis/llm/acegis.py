"""A-CEGIS on the loop: the feedback strategies, and hardening after hidden-set success.

A-CEGIS asks for a Python regex from a natural-language description; a test-suite oracle
(:class:`oracle.SuiteOracle`) judges each attempt on hidden tests, and the next prompt carries
feedback on the previous attempt, in one of four strengths:

* ``zero_shot``: none; every turn is a fresh attempt;
* ``generic``: only that the attempt was wrong;
* ``error_only``: how many hidden tests it failed (counted on the suite itself);
* ``diagnostic``: directional witnesses from the verdict: strings it wrongly matches (false
  positives) and wrongly rejects (false negatives). With the exact teacher (the paper's future
  work) the witnesses are exact counterexamples.

An attempt that did not parse is reported with its syntax error. The turn budget is the loop's
epoch budget (4 for the strategy ablation, 7 for the full run).

*Hardening* follows hidden-set success in the full run: the suite probes the passing hypothesis
near the description, its literals and the tests (:mod:`oracle.probes`); the probes it gets wrong
become the counterexamples of one more repair turn, judged again on the hidden tests; at most
``cycles`` such cycles, each recorded as a :class:`HardeningCycle`. Robust success is passing the
hidden tests and every probe.
"""

from __future__ import annotations

from typing import Protocol

import attrs

from cegis.config import LoopConfig
from cegis.learner import Learner, Proposal
from cegis.loop import step
from cegis.llm.settings import FeedbackStrategy
from cegis.state import EpochState
from cegis.llm.prompts import DiagnosticFeedback, ErrorCountFeedback, Feedback, GenericFeedback, NoFeedback
from oracle.examples import Counterexample, Example, identity
from oracle.protocol import Teacher, Verdict
from oracle.testsuite import SuiteReport
from regexlang.ast import Regex


class SuiteReporter(Protocol):
    """What error-only feedback and hardening need of :class:`oracle.SuiteOracle`."""

    @property
    def tests(self) -> tuple[Example, ...]:
        """The hidden tests."""
        ...

    def evaluate(self, hypothesis: str | Regex, *, probe: bool = True) -> SuiteReport:
        """The hypothesis judged on the hidden tests (and probed when it passes and ``probe``)."""
        ...


def feedback(
    strategy: FeedbackStrategy, previous: Proposal, verdict: Verdict | None, suite: SuiteReporter | None
) -> Feedback:
    """The feedback ``strategy`` gives on the ``previous`` attempt, judged by ``verdict``."""
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
        shown = () if verdict is None else verdict.counterexamples
        false_positives = tuple(_spelled(e) for e in shown if not e.label)
        false_negatives = tuple(_spelled(e) for e in shown if e.label)
        return DiagnosticFeedback(previous.text, false_positives, false_negatives, syntax)
    return NoFeedback()


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
    state: EpochState, learner: Learner, suite: SuiteReporter, teacher: Teacher, config: LoopConfig, *, cycles: int
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
        failed = () if probes is None else tuple(e for e in probes.failures if e.string not in given)
        if report.robust or not failed:
            break
        probe_verdict = Verdict(False, failed, "probes", exact=False)
        before = attrs.evolve(state, examples=state.examples + failed, verdict=probe_verdict, outcome=None)
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
