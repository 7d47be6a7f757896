"""The ``--learner llm`` part of ``python -m cli learn``: options, and one run with a model.

:func:`llm_options` adds the model's options to a ``click`` command; :func:`run_llm` runs the loop
with an :class:`cegis.llm_learner.LLMLearner` for them. The server is ``--base-url`` (default
``OPENAI_BASE_URL``, then a local vLLM at ``http://localhost:8000/v1``) with the key from
``OPENAI_API_KEY`` (never an option, so it stays out of shell histories); without ``--model`` the
server's only model is discovered from ``/models``. ``--call-log FILE`` keeps every call in a
SQLite log: ``record`` answers from the log when it can and logs what the server says, ``replay``
answers from the log only (no server needed), ``live`` ignores it.

The setting decides the rest (:mod:`cegis.llm_runs`): the teacher's clustering and epoch budget,
Standard's random-sample schedule, the test-suite oracle of A-CEGIS (with ``--description``), and
the guard's fallback learners; the full A-CEGIS run hardens its answer after the loop (those
repair epochs are in the returned state, not in the records file, whose run record is already
written). Every failure of the setup (no model served, a replay the log
cannot answer, an unreadable log) is one line and exit code 2; the API key never appears in any of
them, nor in records or the call log (the client sends it only as a header).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import attrs
import click

from cegis.config import LoopConfig
from cegis.acegis import harden
from cegis.learners import build
from cegis.llm_learner import LLMLearner
from cegis.llm_runs import SampleSchedule, loop_config
from cegis.loop import run
from cegis.settings import SETTINGS, setting_named
from cegis.state import EpochState, Task
from cli.errors import BadInput
from llm.calllog import CallLog
from llm.chat import ReasoningEffort
from llm.client import LLMClient, Mode
from llm.config import ClientConfig
from llm.errors import LLMError
from oracle.exact import ExactTeacher
from oracle.protocol import Teacher
from oracle.testsuite import SuiteConfig, SuiteOracle

_F = TypeVar("_F", bound=Callable[..., object])


@attrs.frozen
class LLMOptions:
    """The command-line choices of an LLM run."""

    setting: str = "agentic"
    base_url: str | None = None
    model: str | None = None
    call_log: Path | None = None
    call_log_mode: Mode = "record"
    temperature: float | None = None
    max_completion_tokens: int | None = None
    reasoning_effort: ReasoningEffort | None = None
    description: str = ""


def llm_options(command: _F) -> _F:
    """Add the ``--learner llm`` options to a ``click`` command (they arrive as keyword arguments
    named like :class:`LLMOptions` fields with an ``llm_`` prefix where a name would clash)."""
    decorators = [
        click.option("--setting", "llm_setting", type=click.Choice(list(SETTINGS)), default="agentic",
                     show_default=True, help="The LLM setting (with --learner llm)."),
        click.option("--base-url", metavar="URL", help="OpenAI-compatible API root (default: $OPENAI_BASE_URL)."),
        click.option("--model", metavar="ID", help="Model id (default: the server's only model)."),
        click.option("--call-log", type=click.Path(path_type=Path), metavar="FILE", help="SQLite log of every call."),
        click.option("--call-log-mode", type=click.Choice(["live", "record", "replay"]), default="record",
                     show_default=True, help="How the call log is used."),
        click.option("--temperature", type=click.FloatRange(min=0.0), help="Sampling temperature (default 0)."),
        click.option("--max-completion-tokens", type=click.IntRange(min=1), help="Completion budget (default 32768)."),
        click.option("--reasoning-effort", type=click.Choice(["none", "minimal", "low", "medium", "high"])),
        click.option("--description", default="", help="The task in words (A-CEGIS settings)."),
    ]
    for decorate in reversed(decorators):
        command = decorate(command)
    return command


def options_from(
    llm_setting: str,
    base_url: str | None,
    model: str | None,
    call_log: Path | None,
    call_log_mode: Mode,
    temperature: float | None,
    max_completion_tokens: int | None,
    reasoning_effort: ReasoningEffort | None,
    description: str,
) -> LLMOptions:
    """The :class:`LLMOptions` of the keyword arguments :func:`llm_options` adds."""
    return LLMOptions(
        llm_setting, base_url, model, call_log, call_log_mode, temperature, max_completion_tokens, reasoning_effort,
        description,
    )


async def run_llm(
    task: Task, teacher: Teacher, config: LoopConfig, options: LLMOptions, *, records: Path | None = None
) -> EpochState:
    """Run the loop on ``task`` with the LLM setting of ``options``; setup failures are BadInput."""
    setting = setting_named(options.setting)
    sampling = setting.sampling
    sampling = attrs.evolve(
        sampling,
        temperature=sampling.temperature if options.temperature is None else options.temperature,
        max_completion_tokens=options.max_completion_tokens or sampling.max_completion_tokens,
        reasoning_effort=options.reasoning_effort or sampling.reasoning_effort,
    )
    setting = attrs.evolve(setting, sampling=sampling)
    config = loop_config(setting, config)
    suite = _suite(task, setting.prompt == "description", options)
    judge = _teacher(teacher, setting.counterexamples, suite, setting.exact, config)
    if options.call_log is None and options.call_log_mode == "replay":
        raise BadInput("--call-log-mode replay needs --call-log FILE")
    try:
        log = None if options.call_log is None else CallLog(options.call_log)
    except sqlite3.Error as error:
        raise BadInput(f"--call-log: cannot open {options.call_log}: {error}") from None
    mode: Mode = "live" if log is None else options.call_log_mode
    client_config = ClientConfig.resolve(options.base_url, model=options.model)
    try:
        async with LLMClient(client_config, log=log, mode=mode) as client:
            fallbacks = tuple(build(name) for name in setting.guard.fallbacks) if setting.guard else ()
            label = options.model or ""
            learner = LLMLearner(setting, client, fallbacks, options.description, suite, label=label)
            state = await run(task, learner, judge, config, records=records)
            if suite is None or not setting.hardening_cycles:
                return state
            hardened, _ = await harden(state, learner, suite, judge, config, cycles=setting.hardening_cycles)
            return hardened
    except (LLMError, ValueError) as error:
        raise BadInput(f"--learner llm: {error}") from None
    finally:
        if log is not None:
            log.close()


def _suite(task: Task, describes: bool, options: LLMOptions) -> SuiteOracle | None:
    if not describes:
        return None
    if not options.description:
        raise BadInput("the A-CEGIS settings need --description TEXT")
    if task.target is None:
        raise BadInput("the A-CEGIS settings need --target (the gold regex the hidden tests come from)")
    return SuiteOracle.from_gold(task.target, dialect=task.dialect, description=options.description, config=SuiteConfig())


def _teacher(
    teacher: Teacher, counterexamples: bool, suite: SuiteOracle | None, exact_variant: bool, config: LoopConfig
) -> Teacher:
    """The teacher the setting learns from; the exact teacher clusters as the setting says."""
    if isinstance(teacher, ExactTeacher):
        teacher = teacher.with_config(clustered=config.teacher.clustered)
    if not counterexamples:
        if not isinstance(teacher, ExactTeacher):
            raise BadInput("the standard setting needs --target (it samples labeled strings from it)")
        return SampleSchedule(teacher, seed=config.seed)
    if suite is not None and not exact_variant:
        return suite
    return teacher
