"""The ``--learner llm`` run of ``python -m cli learn``: one run with a model.

:func:`run_llm` runs the loop with an :class:`cegis.llm.learner.LLMLearner` for the options
:mod:`cli.llm_options` collects. The server is ``--base-url`` (default
``OPENAI_BASE_URL``, then a local vLLM at ``http://localhost:8000/v1``) with the key from
``OPENAI_API_KEY`` (never an option, so it stays out of shell histories); without ``--model`` the
server's only model is discovered from ``/models``. ``--call-log FILE`` keeps every call in a
SQLite log: ``record`` answers from the log when it can and logs what the server says, ``replay``
answers from the log only (no server needed), ``live`` ignores it. The server is checked before
the run in every mode but ``replay``.

The setting decides the rest (:mod:`cegis.llm.setup`): the teacher's clustering and epoch budget,
Standard's random-sample schedule, the test-suite oracle of A-CEGIS (with ``--description``), and
the guard's fallback learners; the full A-CEGIS run hardens its answer after the loop (those
repair epochs are in the returned state, not in the records file, whose run record is already
written). Every failure of the setup (no model served, a replay the log
cannot answer, an unreadable log) is one line and exit code 2, and so is a server that fails
during the run (an error status, a timeout, a reply too large or too deep, a long rate limit:
:data:`experiments.servers.INFRASTRUCTURE`), with the server's message: a broken server is not
the model's "not learned"; the API key never appears in any of
them, nor in records or the call log (the client sends it only as a header).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import attrs

from cegis.config import LoopConfig
from cegis.llm.acegis import harden
from cegis.llm.settings import setting_named
from cegis.llm.setup import LLMSetupError, prepare_llm_run
from cegis.records import run_recorded
from cegis.state import EpochState, Task
from cli.errors import BadInput
from cli.llm_options import LLMOptions
from experiments.errors import ServerFailed, ServerUnusable
from experiments.servers import Watched, check_server
from experiments.strategy_file import StrategyFileError, read_strategy
from llm.calllog import CallLog
from llm.client import LLMClient, Mode
from llm.config import ClientConfig
from llm.errors import LLMError
from oracle.protocol import Teacher


async def run_llm(
    task: Task,
    teacher: Teacher,
    config: LoopConfig,
    options: LLMOptions,
    *,
    records: Path | None = None,
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
    try:
        setting = attrs.evolve(
            setting, sampling=sampling, constrained=options.constrained or setting.constrained
        )
        if options.strategy_file is not None:
            setting = attrs.evolve(setting, strategy_text=read_strategy(options.strategy_file))
    except StrategyFileError as error:
        raise BadInput(f"--strategy-file: {error}") from None
    except ValueError as error:  # e.g. a setting that samples, asked for temperature 0
        raise BadInput(str(error)) from None
    if options.call_log is None and options.call_log_mode == "replay":
        raise BadInput("--call-log-mode replay needs --call-log FILE")
    try:
        log = None if options.call_log is None else CallLog(options.call_log)
    except (sqlite3.Error, LLMError) as error:
        raise BadInput(f"--call-log: {error}") from None
    mode: Mode = "live" if log is None else options.call_log_mode
    try:
        client_config = ClientConfig.resolve(options.base_url, model=options.model)
        if mode != "replay":  # only a replay is answered without the server
            await check_server(client_config)
        async with LLMClient(client_config, log=log, mode=mode) as client:
            prepared = prepare_llm_run(
                setting, task, config, Watched(client), description=options.description, teacher=teacher,
                label=options.model or "",
            )  # fmt: skip
            state = await run_recorded(
                prepared.task, prepared.learner, prepared.teacher, prepared.config, records
            )
            suite = prepared.learner.suite
            if suite is None or not setting.hardening_cycles:
                return state
            hardened, _ = await harden(
                state,
                prepared.learner,
                suite,
                prepared.teacher,
                prepared.config,
                cycles=setting.hardening_cycles,
            )
            return hardened
    except ServerUnusable as error:
        raise BadInput(f"--learner llm: {error}") from None
    except ServerFailed as error:
        raise BadInput(
            f"--learner llm: the server {client_config.base_url} failed mid-run: {error}"
        ) from None
    except LLMSetupError as error:
        raise BadInput(
            f"--learner llm: {error} (pass --description TEXT and --target REGEX as the setting needs)"
        ) from None
    except (LLMError, ValueError) as error:
        raise BadInput(f"--learner llm: {error}") from None
    finally:
        if log is not None:
            log.close()
