"""Everything an LLM run needs besides the model client, from a setting's name and a task.

The command line (``python -m cli learn --learner llm``) and the experiment runner build LLM runs
the same way, here: the setting's loop config (:func:`cegis.llm_runs.loop_config`), the teacher the
setting learns from (the exact teacher clustered as the setting says, Standard's sample schedule, or
A-CEGIS's test-suite oracle built from the gold regex and the description), and the learner with
the guard's fallback learners. Problems with the request itself (an A-CEGIS setting without a
description, a Standard run without a known target) raise :class:`LLMSetupError`.
"""

from __future__ import annotations

import attrs

from cegis.config import LoopConfig
from cegis.drafts import ChatClient
from cegis.learners import build
from cegis.llm_learner import LLMLearner
from cegis.errors import LLMSetupError as LLMSetupError  # where callers have imported it from
from cegis.llm_runs import choose_teacher, loop_config
from cegis.settings import LLMSetting, setting_named
from cegis.state import Task
from oracle.exact import ExactTeacher
from oracle.protocol import Teacher
from oracle.testsuite import SuiteConfig, SuiteOracle


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
    label: str = "",
) -> PreparedRun:
    """The learner, teacher and loop config of ``setting`` on ``task``.

    ``teacher`` defaults to the exact teacher on ``task.target``; a given exact teacher is
    reconfigured to the setting's clustering, and any other teacher is used as it is. ``label``
    (e.g. the model) is appended to the learner's name, so runs of several models sharing one
    records file keep distinct run ids.
    """
    chosen = setting_named(setting) if isinstance(setting, str) else setting
    config = loop_config(chosen, base)
    suite = _suite(chosen, task, description)
    judge = _teacher(chosen, task, config, teacher, suite)
    fallbacks = tuple(build(name) for name in chosen.guard.fallbacks) if chosen.guard else ()
    learner = LLMLearner(chosen, client, fallbacks, description, suite, label=label)
    return PreparedRun(task, learner, judge, config)


def _suite(setting: LLMSetting, task: Task, description: str) -> SuiteOracle | None:
    if setting.prompt != "description":
        return None
    if not description:
        raise LLMSetupError(f"setting {setting.name!r} prompts with a description of the task; none was given")
    if task.target is None:
        raise LLMSetupError(f"setting {setting.name!r} needs the gold regex (its hidden tests are drawn from it)")
    return SuiteOracle.from_gold(
        task.target, dialect=task.dialect, universe=task.universe, description=description, config=SuiteConfig()
    )


def _teacher(
    setting: LLMSetting, task: Task, config: LoopConfig, given: Teacher | None, suite: SuiteOracle | None
) -> Teacher:
    teacher = given
    if teacher is None:
        if task.target is None:
            raise LLMSetupError("without a teacher, an LLM run needs the task's target regex")
        teacher = ExactTeacher.from_regex(task.target, task.dialect, universe=task.universe, config=config.teacher_config)
    elif isinstance(teacher, ExactTeacher):
        teacher = teacher.with_config(clustered=config.teacher.clustered)
    return choose_teacher(setting, teacher, config, suite)
