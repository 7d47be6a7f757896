"""Everything an LLM run needs besides the model client, from a setting's name and a task: one
assembly path for the command line (``python -m cli learn --learner llm``), the experiment runner
and the tests.

A setting shapes the loop as well as the prompt: :func:`setting_config` gives the teacher's
clustering and the epoch budget (Standard: the paper's sizes 3 → 3000 on a log scale, Appendix D,
or 3 → the setting's ``sample_total``;
A-CEGIS: its 4 or 7 turns), :func:`choose_teacher` what the learner is judged by (the exact
teacher, Standard's :class:`SampleSchedule` of fresh random labeled strings, or A-CEGIS's
test-suite oracle, as :class:`TestsOnly`: the learner sees no string but the tests it fails), and
:func:`prepare_llm_run` puts them together with the learner and the guard's fallbacks. A request
that cannot be served raises :class:`LLMSetupError`.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import ClassVar

import attrs

from cegis import sampling
from cegis.config import LoopConfig
from cegis.errors import LLMSetupError as LLMSetupError  # where callers have imported it from
from cegis.learner import Learner
from cegis.llm.learner import LLMLearner
from cegis.llm.settings import LLMSetting, log_scale_sizes, setting_named
from cegis.registry import build
from cegis.state import Task
from llm.protocol import ChatClient
from oracle.exact import ExactTeacher
from oracle.examples import Counterexample, Example
from oracle.protocol import Teacher, Verdict
from oracle.testsuite import SuiteOracle
from regexlang.ast import Regex

STANDARD_MODE = "sample"


def setting_config(setting: LLMSetting, base: LoopConfig = LoopConfig()) -> LoopConfig:
    """``base`` with the teacher, initial sample and epoch budget that ``setting`` calls for."""
    teacher = attrs.evolve(base.teacher, clustered=setting.clustered)
    if not setting.counterexamples:
        sizes = setting.sample_sizes()
        budgets = attrs.evolve(base.budgets, epochs=len(sizes))
        return attrs.evolve(base, teacher=teacher, budgets=budgets, initial_size=sizes[0])
    if (
        setting.prompt == "description"
    ):  # A-CEGIS shows a few witnesses per direction, exact ones too
        teacher = attrs.evolve(teacher, batch=2 * setting.suite.witnesses)
    if setting.turns is not None:
        return attrs.evolve(
            base, teacher=teacher, budgets=attrs.evolve(base.budgets, epochs=setting.turns)
        )
    return attrs.evolve(base, teacher=teacher)


@attrs.frozen(eq=False)
class SampleSchedule:
    """Standard's teacher: the exact teacher's equivalence judgement, and on a wrong hypothesis
    random labeled strings from the target up to the next size of ``sizes`` (no counterexamples)."""

    exact: ExactTeacher
    sizes: tuple[int, ...] = attrs.field(factory=log_scale_sizes)
    seed: int = 0
    readable: bool = (
        True  # spell the strings with readable characters (LoopConfig.example_alphabet)
    )

    def label(self, string: str) -> bool:
        """Membership in the target (lets the loop draw its initial sample)."""
        return self.exact.label(string)

    def check(
        self, hypothesis: Regex | str, already_given: Collection[Counterexample] = ()
    ) -> Verdict:
        """Equivalent, or not with the next batch of the sample schedule as new examples."""
        verdict = self.exact.check(hypothesis, already_given)
        if verdict.equivalent or not verdict.valid:
            return attrs.evolve(verdict, counterexamples=(), mode=STANDARD_MODE, shortest=False)
        sample = self.next_examples(already_given)
        return attrs.evolve(verdict, counterexamples=sample, mode=STANDARD_MODE, shortest=False)

    def next_examples(self, already_given: Collection[Counterexample]) -> tuple[Example, ...]:
        """Fresh labeled strings up to the next size of the schedule. The loop asks for them when a
        proposal failed (no regex, malformed reply), so every outcome moves to the next size and a
        run with malformed replies still reaches the last size (the failure is that size's record)."""
        dfa = self.exact.target.dfa
        if dfa is None:
            return ()
        have = len(already_given)
        target = next((size for size in self.sizes if size > have), have)
        exclude = frozenset(e.string for e in already_given if isinstance(e, Example))
        rng = sampling.rng_for(self.seed, have)
        return sampling.from_target(
            dfa,
            target - have,
            rng,
            max_len=self.exact.config.max_len,
            exclude=exclude,
            readable=self.readable,
        )


@attrs.frozen(eq=False)
class TestsOnly:
    """A-CEGIS's test-suite teacher as the loop sees it: the suite's verdicts, and ``tests_only``,
    so the loop gives the learner no random strings (:func:`cegis.loop.tests_only`); every witness
    a turn shows is a hidden test the previous answer fails (A-CEGIS Tables 2 and 3)."""

    suite: SuiteOracle
    tests_only: ClassVar[bool] = True

    def check(
        self, hypothesis: Regex | str, already_given: Collection[Counterexample] = ()
    ) -> Verdict:
        """The suite's verdict: failed hidden tests as directional witnesses."""
        return self.suite.check(hypothesis, already_given)


def choose_teacher(
    setting: LLMSetting, teacher: Teacher, config: LoopConfig, suite: SuiteOracle | None
) -> Teacher:
    """What ``setting`` learns from, given the run's ``teacher`` and (for A-CEGIS) its hidden-test
    ``suite``: Standard's sample schedule over the exact teacher, the suite (tests only) unless
    the variant is exact, else ``teacher`` itself."""
    if not setting.counterexamples:
        if not isinstance(teacher, ExactTeacher):
            raise LLMSetupError(
                "the standard setting samples labeled strings from the target; it needs the exact teacher"
            )
        readable = config.example_alphabet == "readable"
        return SampleSchedule(
            teacher, sizes=setting.sample_sizes(), seed=config.seed, readable=readable
        )
    if suite is not None and not setting.exact:
        return TestsOnly(suite)
    return teacher


@attrs.frozen(eq=False)
class PreparedRun:
    """The pieces of one LLM run, ready for :func:`cegis.loop.run`."""

    task: Task
    learner: LLMLearner
    teacher: Teacher
    config: LoopConfig


def prepare_llm_run(
    setting: str | LLMSetting,
    task: Task,
    base: LoopConfig,
    client: ChatClient,
    *,
    description: str = "",
    teacher: Teacher | None = None,
    suite: SuiteOracle | None = None,
    fallbacks: Sequence[Learner] | None = None,
    label: str = "",
) -> PreparedRun:
    """The learner, teacher and loop config of ``setting`` on ``task``.

    ``teacher`` defaults to the exact teacher on ``task.target``; a given exact teacher is
    reconfigured to the setting's clustering, and any other teacher is used as it is. ``label``
    (e.g. the model) is appended to the learner's name, so runs of several models sharing one
    records file keep distinct run ids. A description setting's hidden-test ``suite`` defaults to
    one drawn from the gold regex; a guarded setting's ``fallbacks`` default to the learners its
    guard names.
    """
    chosen = setting_named(setting) if isinstance(setting, str) else setting
    config = setting_config(chosen, base)
    suite = (
        _suite(chosen, task, description)
        if suite is None or chosen.prompt != "description"
        else suite
    )
    judge = _teacher(chosen, task, config, teacher, suite)
    if fallbacks is None:
        fallbacks = tuple(build(name) for name in chosen.guard.fallbacks) if chosen.guard else ()
    learner = LLMLearner(chosen, client, tuple(fallbacks), description, suite, label=label)
    return PreparedRun(task, learner, judge, config)


def _suite(setting: LLMSetting, task: Task, description: str) -> SuiteOracle | None:
    if setting.prompt != "description":
        return None
    if not description:
        raise LLMSetupError(
            f"setting {setting.name!r} prompts with a description of the task; none was given"
        )
    if task.target is None:
        raise LLMSetupError(
            f"setting {setting.name!r} needs the gold regex (its hidden tests are drawn from it)"
        )
    return SuiteOracle.from_gold(
        task.target,
        dialect=task.dialect,
        universe=task.universe,
        description=description,
        config=setting.suite,
    )


def _teacher(
    setting: LLMSetting,
    task: Task,
    config: LoopConfig,
    given: Teacher | None,
    suite: SuiteOracle | None,
) -> Teacher:
    teacher = given
    if teacher is None:
        if task.target is None:
            raise LLMSetupError("without a teacher, an LLM run needs the task's target regex")
        teacher = ExactTeacher.from_regex(
            task.target, task.dialect, universe=task.universe, config=config.teacher_config
        )
    elif isinstance(teacher, ExactTeacher):
        teacher = teacher.with_config(clustered=config.teacher.clustered)
    return choose_teacher(setting, teacher, config, suite)
