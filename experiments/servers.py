"""The runner's model servers: checked before any unit, pooled per model, and watched during the run.

A wrong key, a dead server or a model the server does not serve is the infrastructure's failure,
not the model's, so it must never reach a success rate. :func:`check_servers` asks every server
that an LLM arm will use for its model list before any unit starts and raises
:class:`ServerUnusable` with the server's own message on an authentication failure, no connection,
or a model it does not list (a server without a model list is tried at the first call). During the
run, :class:`Watched` wraps a unit's chat client: a call that fails for one of those reasons, or
for any other reason that blames the transport (5xx, timeouts, a reply too large or too deeply
nested, a rate limit that outlasts the retries; after the pool's retries and failover) raises
:class:`ServerFailed` out of the unit, so the unit stays unfinished (resumable from its records)
instead of ending as a learner failure.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from pathlib import Path

import attrs
import numpy as np

from experiments.errors import ExperimentError, ServerFailed, ServerUnusable
from experiments.plan import ServerSpec
from llm.calllog import CallLog
from llm.chat import Message, SamplingParams
from llm.client import LLMClient, choose_model
from llm.config import ClientConfig
from llm.errors import CallLogError, ConfigError, ModelDiscoveryError
from llm.protocol import ChatClient
from llm.results import Failed, Result
from llm.servers import ServerPool
from llm.transport import Transport
from llm.wire import parse_models

#: Failure reasons that blame the server or the way to it, not the model's answer: no reply, an
#: error status, a reply too large or too deep to read, a wait longer than the client takes. Only a
#: request the server calls wrong (``bad_request``) or too long for its context is the run's own.
INFRASTRUCTURE = frozenset(
    {"auth", "connection", "not_found", "quota_exhausted", "server_error", "timeout", "deadline", "rate_limited",
     "malformed_response", "http_error"}
)  # fmt: skip
#: How long the check before the run may take per server (retries included).
PREFLIGHT_SECONDS = 60.0


@attrs.frozen
class Watched:
    """A chat client whose infrastructure failures raise :class:`ServerFailed`."""

    client: ChatClient
    on_answer: Callable[[], None] | None = (
        None  # told of every answered call (progress counts them)
    )
    on_call: Callable[[], None] | None = None  # told as each call is made, before it leaves

    async def complete(
        self,
        messages: Sequence[Message],
        params: SamplingParams = SamplingParams(),
        *,
        sample_index: int = 0,
    ) -> Result:
        """The client's answer; raises :class:`ServerFailed` when it blames the infrastructure."""
        if self.on_call is not None:
            self.on_call()
        result = await self.client.complete(messages, params, sample_index=sample_index)
        if self.on_answer is not None:
            self.on_answer()
        if isinstance(result, Failed) and result.reason in INFRASTRUCTURE:
            raise ServerFailed(f"{result.reason}: {result.message}")
        return result


def serving(servers: tuple[ServerSpec, ...], model: str | None) -> list[ServerSpec]:
    """The servers that serve ``model`` (those naming no model serve every model)."""
    found = [s for s in servers if model is None or s.model in (None, model)]
    if not found:
        raise ServerUnusable(
            f"no server serves model {model!r}; add a [[servers]] table with model = {model!r}"
        )
    return found


def client_config(spec: ServerSpec, model: str | None, *, alone: bool = True) -> ClientConfig:
    """The client settings for ``spec`` asking ``model`` (the key read from ``spec.api_key_env``,
    which must be set when named, lest another variable's key go to this server); unless the server
    is ``alone`` in its pool, a refused connection is not retried: the pool sends the call to
    another server at once instead of waiting out the backoff on a dead one."""
    key = None if spec.api_key_env is None else os.environ.get(spec.api_key_env)
    if spec.api_key_env is not None and not key:
        raise ServerUnusable(
            f"{spec.base_url}: api_key_env names {spec.api_key_env}, which is not set in the"
            " environment (set it, to EMPTY for a server that needs no key)"
        )
    try:
        config = ClientConfig.resolve(spec.base_url, key, model=model or spec.model)
        return attrs.evolve(
            config,
            retry=config.retry if alone else attrs.evolve(config.retry, retry_refused=False),
            concurrency=spec.concurrency,  # the client's semaphore and connection pool alike
            connect_timeout=spec.connect_timeout,
            read_timeout=spec.read_timeout,
            total_timeout=spec.call_timeout,
            call_deadline=spec.call_timeout,
        )
    except ConfigError as error:
        raise ServerUnusable(f"{spec.base_url}: {error}") from None


async def check_servers(
    servers: tuple[ServerSpec, ...],
    models: Sequence[str | None],
    *,
    seconds: float = PREFLIGHT_SECONDS,
) -> dict[str | None, str | None]:
    """Raise :class:`ServerUnusable` unless every server asked for one of ``models`` lists it (or,
    for a model left unnamed, serves exactly one), each check bounded by ``seconds``. Returns, for
    each of ``models``, the model the servers serve for it (None when no server lists its models);
    servers that serve different models for one unnamed model are refused too."""
    asked = list(dict.fromkeys(models))
    checks = [(spec, model) for model in asked for spec in serving(servers, model)]
    found = await asyncio.gather(*(_check(spec, model, seconds) for spec, model in checks))
    served: dict[str | None, str | None] = {}
    for (spec, model), listed in zip(checks, found):
        known = served.get(model)
        if listed is not None and known is not None and listed != known:
            raise ServerUnusable(
                f"the servers serve different models for {model or 'the unnamed model'}:"
                f" {known!r} and {listed!r} ({spec.base_url})"
            )
        served[model] = known or listed
    return served


async def _check(spec: ServerSpec, model: str | None, seconds: float) -> str | None:
    return await check_server(client_config(spec, model), seconds=seconds)


async def check_server(config: ClientConfig, *, seconds: float = PREFLIGHT_SECONDS) -> str | None:
    """Raise :class:`ServerUnusable` unless the server of ``config`` takes its key and lists its
    model (or, with no model configured, exactly one); returns that model's id, or None for a server
    without a model list (it passes: the configured model is tried at the first call)."""
    no_retry_when_refused = attrs.evolve(
        config.retry, retry_refused=False
    )  # nothing listens: say so at once
    transport = Transport(
        attrs.evolve(config, call_deadline=seconds, retry=no_retry_when_refused),
        sleep=asyncio.sleep,
        clock=time.monotonic,
        wall_clock=time.time,
        rng=np.random.default_rng(),
    )
    transport.open()
    try:
        exchange = await transport.exchange(
            "GET", "/models", lambda _: None, parse_models, time.monotonic() + seconds
        )
    finally:
        await transport.close()
    listed = exchange.value
    if isinstance(listed, Failed):
        if config.model is None or listed.reason not in (
            "not_found",
            "http_error",
            "malformed_response",
            "bad_request",
        ):
            raise ServerUnusable(
                f"server {config.base_url} cannot be used: {listed.reason}: {listed.message}"
            )
        return (
            None  # no model list to check against: the configured model is tried at the first call
        )
    try:
        return choose_model(config.model, listed).id
    except ModelDiscoveryError as error:
        raise ServerUnusable(f"server {config.base_url} cannot be used: {error}") from None


@contextlib.asynccontextmanager
async def server_pools(
    servers: tuple[ServerSpec, ...], log_path: Path
) -> AsyncIterator[Callable[[str | None], Awaitable[Watched]]]:
    """One watched server pool per model named by the arms, built on first use, sharing one call
    log (``log_path``, in ``record`` mode, so a resumed experiment pays for no call twice)."""
    pools: dict[str | None, Watched] = {}
    async with contextlib.AsyncExitStack() as stack:
        try:
            log = CallLog(log_path)
        except CallLogError as error:
            raise ExperimentError(str(error)) from None
        stack.callback(
            log.close
        )  # callbacks run last-in first-out: the log closes after the clients
        building = asyncio.Lock()  # units start together; the first builds each model's pool

        async def pool_for(model: str | None) -> Watched:
            async with building:
                if model not in pools:
                    members = []
                    specs = serving(servers, model)
                    for spec in specs:
                        config = client_config(spec, model, alone=len(specs) == 1)
                        client = await stack.enter_async_context(
                            LLMClient(config, log=log, mode="record")
                        )
                        members.append((spec.base_url, client, spec.concurrency))
                    deadline = max(
                        spec.call_timeout for spec in specs
                    )  # over every server and round
                    pools[model] = Watched(ServerPool(members, deadline=deadline))
                return pools[model]

        yield pool_for
