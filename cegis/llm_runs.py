"""How an LLM setting shapes the run around the learner: the loop config and the teacher.

Some settings of the papers are not about the learner's prompt but about the loop:

* **Standard** learns from random labeled samples only, growing on a log scale from 3 to 3000
  (seed paper, Appendix D), and succeeds at the first size whose proposal is equivalent. The loop
  starts from ``initial_size = 3``; :class:`SampleSchedule` wraps the exact teacher so that a wrong
  hypothesis is answered with fresh random labeled strings up to the next size of the schedule
  instead of counterexamples (recorded with mode ``"sample"``, so no one mistakes them for
  counterexamples). The epoch budget is the number of sizes.
* **Single / Agentic / Multi / Guarded** use the teacher's clustered counterexamples (or plain
  ones) with the paper's budgets, ≤ 12 epochs of ≤ 250.
* **A-CEGIS** runs its turns as epochs (4 or 7) against the test-suite oracle, or against the exact
  teacher on the gold regex in the exact variant; hardening follows (:mod:`cegis.acegis`).
"""

from __future__ import annotations

from collections.abc import Collection

import attrs

from cegis import sampling
from cegis.config import LoopConfig
from cegis.errors import LLMSetupError
from cegis.settings import LLMSetting, log_scale_sizes
from oracle.examples import Counterexample, Example
from oracle.exact import ExactTeacher
from oracle.protocol import Teacher, Verdict
from oracle.testsuite import SuiteConfig, SuiteOracle
from regexlang.ast import Regex
from regexlang.dialects import Dialect

STANDARD_MODE = "sample"


def loop_config(setting: LLMSetting, base: LoopConfig = LoopConfig()) -> LoopConfig:
    """``base`` with the teacher, initial sample and epoch budget that ``setting`` calls for."""
    teacher = attrs.evolve(base.teacher, clustered=setting.clustered)
    if not setting.counterexamples:
        sizes = log_scale_sizes()
        budgets = attrs.evolve(base.budgets, epochs=len(sizes))
        return attrs.evolve(base, teacher=teacher, budgets=budgets, initial_size=sizes[0])
    if setting.prompt == "description":  # A-CEGIS shows a few witnesses per direction, exact ones too
        teacher = attrs.evolve(teacher, batch=2 * SuiteConfig().witnesses)
    if setting.turns is not None:
        return attrs.evolve(base, teacher=teacher, budgets=attrs.evolve(base.budgets, epochs=setting.turns))
    return attrs.evolve(base, teacher=teacher)


@attrs.frozen(eq=False)
class SampleSchedule:
    """Standard's teacher: the exact teacher's equivalence judgement, and on a wrong hypothesis
    random labeled strings from the target up to the next size of ``sizes`` (no counterexamples)."""

    exact: ExactTeacher
    sizes: tuple[int, ...] = attrs.field(factory=log_scale_sizes)
    seed: int = 0

    def label(self, string: str) -> bool:
        """Membership in the target (lets the loop draw its initial sample)."""
        return self.exact.label(string)

    def check(self, hypothesis: Regex | str, already_given: Collection[Counterexample] = ()) -> Verdict:
        """Equivalent, or not with the next batch of the sample schedule as new examples."""
        verdict = self.exact.check(hypothesis, already_given)
        if verdict.equivalent or not verdict.valid or self.exact.target.dfa is None:
            return attrs.evolve(verdict, counterexamples=(), mode=STANDARD_MODE)
        have = len(already_given)
        target = next((size for size in self.sizes if size > have), have)
        exclude = frozenset(e.string for e in already_given if isinstance(e, Example))
        rng = sampling.rng_for(self.seed, have)
        max_len = self.exact.config.max_len
        fresh = sampling.from_target(self.exact.target.dfa, target - have, rng, max_len=max_len, exclude=exclude)
        return attrs.evolve(verdict, counterexamples=fresh, mode=STANDARD_MODE)


def teacher_for(
    setting: LLMSetting,
    target: str,
    config: LoopConfig,
    *,
    dialect: Dialect = "simple",
    suite: SuiteOracle | None = None,
) -> Teacher:
    """The teacher ``setting`` learns from: the exact teacher (clustered as configured), Standard's
    sample schedule, or for A-CEGIS the test-suite oracle (the exact teacher in the exact variant)."""
    exact = ExactTeacher.from_regex(target, dialect, config=config.teacher_config)
    if setting.prompt != "description":
        suite = None
    elif suite is None and setting.counterexamples and not setting.exact:
        suite = SuiteOracle.from_gold(target, dialect=dialect, config=SuiteConfig(seed=config.seed))
    return choose_teacher(setting, exact, config, suite)


def choose_teacher(setting: LLMSetting, teacher: Teacher, config: LoopConfig, suite: SuiteOracle | None) -> Teacher:
    """What ``setting`` learns from, given the run's ``teacher`` and (for A-CEGIS) its hidden-test
    ``suite``: Standard's sample schedule over the exact teacher, the suite unless the variant is
    exact, else ``teacher`` itself."""
    if not setting.counterexamples:
        if not isinstance(teacher, ExactTeacher):
            raise LLMSetupError("the standard setting samples labeled strings from the target; it needs the exact teacher")
        return SampleSchedule(teacher, seed=config.seed)
    if suite is not None and not setting.exact:
        return suite
    return teacher
