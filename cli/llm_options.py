"""The ``--learner llm`` options of ``python -m cli learn``: what a run with a model is told.

:func:`llm_options` adds them to a ``click`` command and :func:`options_from` collects them into
an :class:`LLMOptions`; :func:`cli.learn_llm.run_llm` runs with them. This module imports no model
client, so a command that only offers the options starts without ``aiohttp``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar, get_args

import attrs
import click

from cegis.llm.settings import SETTINGS
from llm.chat import ReasoningEffort

if TYPE_CHECKING:
    from llm.client import Mode

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
    constrained: bool = False
    strategy_file: Path | None = None


def llm_options(command: _F) -> _F:
    """Add the ``--learner llm`` options to a ``click`` command (they arrive as keyword arguments
    named like :class:`LLMOptions` fields with an ``llm_`` prefix where a name would clash)."""
    decorators = [
        click.option(
            "--setting",
            "llm_setting",
            type=click.Choice(list(SETTINGS)),
            default="agentic",
            show_default=True,
            help="The LLM setting (with --learner llm).",
        ),
        click.option(
            "--base-url",
            metavar="URL",
            help="OpenAI-compatible API root (default: $OPENAI_BASE_URL).",
        ),
        click.option("--model", metavar="ID", help="Model id (default: the server's only model)."),
        click.option(
            "--call-log",
            type=click.Path(path_type=Path),
            metavar="FILE",
            help="SQLite log of every call.",
        ),
        click.option(
            "--call-log-mode",
            type=click.Choice(["live", "record", "replay"]),
            default="record",
            show_default=True,
            help="How the call log is used.",
        ),
        click.option(
            "--temperature",
            type=click.FloatRange(min=0.0),
            help="Sampling temperature (default 0).",
        ),
        click.option(
            "--max-completion-tokens",
            type=click.IntRange(min=1),
            help="Completion budget (default 32768).",
        ),
        click.option("--reasoning-effort", type=click.Choice(list(get_args(ReasoningEffort)))),
        click.option("--description", default="", help="The task in words (A-CEGIS settings)."),
        click.option(
            "--constrained",
            is_flag=True,
            help="Constrain every reply to the grammar of the answer block (server-side decoding).",
        ),
        click.option(
            "--strategy-file",
            type=click.Path(path_type=Path),
            metavar="FILE",
            help="The prompt's strategy section, as `python -m cli optimize` wrote it.",
        ),
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
    constrained: bool = False,
    strategy_file: Path | None = None,
) -> LLMOptions:
    """The :class:`LLMOptions` of the keyword arguments :func:`llm_options` adds."""
    return LLMOptions(
        llm_setting,
        base_url,
        model,
        call_log,
        call_log_mode,
        temperature,
        max_completion_tokens,
        reasoning_effort,
        description,
        constrained,
        strategy_file,
    )
