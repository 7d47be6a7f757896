"""The async client for OpenAI-compatible chat servers (vLLM, OpenAI, OpenRouter, ...).

One :class:`LLMClient`, used as ``async with``, owns one aiohttp session whose connection pool is
as large as the configured concurrency, and an ``asyncio.Semaphore`` that keeps at most that many
calls in flight however many tasks call :meth:`LLMClient.complete` at once.

A call goes: pick the model (discovery, once per client) → clamp the completion budget to its
context → build the logical :class:`~llm.chat.Request` → in ``record`` or ``replay`` mode, answer
from the call log if it can → otherwise send, retrying transient trouble per
:class:`~llm.retry.RetryPolicy` and adapting the body to fields the server refuses → in ``record``
mode, log the result. Whatever the server does, the caller gets a :data:`~llm.results.Result`;
exceptions are reserved for caller mistakes (:mod:`llm.errors`).

Model discovery (``GET {base_url}/models``): the configured model if the server lists it, else the
only listed model when no model was configured; anything else is a ``ModelDiscoveryError`` listing
the ids, because silently swapping models would corrupt an experiment. A server without a usable
``/models`` endpoint is trusted to serve the configured model. In replay mode the models recorded
in the log stand in for the server.

Sleeping, both clocks and the jitter source are constructor arguments, so tests drive retries
without waiting.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from types import TracebackType
from typing import Any, Generic, Literal, TypeVar

import aiohttp
import attrs
import numpy as np

from llm.calllog import CallLog
from llm.chat import Message, ModelInfo, Request, SamplingParams, clamp_budget
from llm.config import ClientConfig
from llm.errors import ConfigError, MalformedResponse, ModelDiscoveryError, ReplayMiss
from llm.results import Choice, Completion, Failed, FailureReason, Result, Truncated, Usage
from llm.retry import QUOTA_EXHAUSTED, is_retryable_status, retry_after_seconds
from llm.wire import ServerError, WireOptions, adapt, parse_completion, parse_error, parse_models, request_body

Mode = Literal["live", "record", "replay"]
Sleep = Callable[[float], Awaitable[None]]
_T = TypeVar("_T")
# A model listing that fails this way means the server has no usable /models endpoint, not that
# it is down: the configured model is then taken on trust.
_NO_MODEL_LISTING: frozenset[FailureReason] = frozenset({"not_found", "bad_request", "http_error"})


@attrs.frozen
class _Reply:
    status: int
    body: bytes
    headers: Mapping[str, str]


@attrs.frozen
class _Exchange(Generic[_T]):
    """The outcome of one call with its retries, and the body that was sent last."""

    value: _T | Failed
    body: dict[str, Any] | None
    attempts: int
    latency_s: float


def choose_model(configured: str | None, served: tuple[ModelInfo, ...]) -> ModelInfo:
    """The configured model if served, else the only served model; raises ``ModelDiscoveryError``."""
    ids = tuple(model.id for model in served)
    if configured is not None:
        for model in served:
            if model.id == configured:
                return model
        raise ModelDiscoveryError(f"model {configured!r} is not served", ids)
    if len(served) == 1:
        return served[0]
    raise ModelDiscoveryError("no model configured and the server does not serve exactly one", ids)


class LLMClient:
    """An OpenAI-compatible chat client with retries, a concurrency bound and a call log.

    ``mode`` is ``live`` (server only), ``record`` (log first, then server, logging what it says)
    or ``replay`` (log only; a miss raises ``ReplayMiss``). ``record`` and ``replay`` need ``log``.
    """

    def __init__(
        self,
        config: ClientConfig | None = None,
        *,
        log: CallLog | None = None,
        mode: Mode = "live",
        sleep: Sleep = asyncio.sleep,
        clock: Callable[[], float] = time.monotonic,
        wall_clock: Callable[[], float] = time.time,
        rng: np.random.Generator | None = None,
    ) -> None:
        if mode != "live" and log is None:
            raise ConfigError(f"{mode} mode needs a call log")
        self.config = ClientConfig.resolve() if config is None else config
        self.mode = mode
        self._log = log
        self._sleep = sleep
        self._clock = clock
        self._wall_clock = wall_clock
        self._rng = np.random.default_rng() if rng is None else rng
        self._semaphore = asyncio.Semaphore(self.config.concurrency)
        self._model_lock = asyncio.Lock()
        self._model: ModelInfo | None = None
        self._options = WireOptions()
        self._session: aiohttp.ClientSession | None = None

    async def __aenter__(self) -> LLMClient:
        if self.mode != "replay":
            self._session = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=self.config.concurrency),
                timeout=aiohttp.ClientTimeout(
                    total=self.config.total_timeout, sock_connect=self.config.connect_timeout
                ),
                headers={"Authorization": f"Bearer {self.config.api_key}"},
            )
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    @property
    def wire_options(self) -> WireOptions:
        """The request-shape adaptations learned from this client's server so far."""
        return self._options

    async def model(self) -> ModelInfo:
        """The model calls go to; raises ``ModelDiscoveryError`` when none can be chosen."""
        found = await self._discover()
        if isinstance(found, Failed):
            raise ModelDiscoveryError(f"cannot list models: {found.reason}: {found.message}", ())
        return found

    async def complete(
        self, messages: Sequence[Message], params: SamplingParams = SamplingParams(), *, sample_index: int = 0
    ) -> Result:
        """Send one chat request (or answer it from the log) and return its typed result."""
        model = await self._discover()
        if isinstance(model, Failed):
            return model
        chat = tuple(messages)
        request = Request(model.id, chat, clamp_budget(params, chat, model), sample_index)
        if self._log is not None and self.mode != "live":
            key = request.key()
            logged = self._log.lookup(key, accept_failed=self.mode == "replay")
            if logged is not None:
                return logged
            if self.mode == "replay":
                raise ReplayMiss(key, model.id)
        async with self._semaphore:
            exchange = await self._exchange(
                "POST", "/chat/completions", lambda: request_body(request, self._options), parse_completion
            )
        result = _chat_result(model.id, exchange)
        if self._log is not None and self.mode == "record" and exchange.body is not None:
            self._log.append(request, exchange.body, result, self._wall_clock())
        return result

    async def _discover(self) -> ModelInfo | Failed:
        if self._model is not None:
            return self._model
        async with self._model_lock:
            if self._model is not None:
                return self._model
            configured = self.config.model
            served = await self._served_models()
            if isinstance(served, Failed):
                if configured is None or served.reason not in _NO_MODEL_LISTING:
                    return served  # not cached: the next call tries again
                self._model = ModelInfo(configured)
            elif self.mode == "replay" and not served and configured is not None:
                self._model = ModelInfo(configured)  # recorded by a client that never listed models
            else:
                self._model = choose_model(configured, served)
            return self._model

    async def _served_models(self) -> tuple[ModelInfo, ...] | Failed:
        if self._log is not None and self.mode == "replay":
            return self._log.models()
        exchange = await self._exchange("GET", "/models", lambda: None, parse_models)
        if not isinstance(exchange.value, Failed) and self._log is not None and self.mode == "record":
            self._log.record_models(exchange.value, self._wall_clock())
        return exchange.value

    async def _exchange(
        self,
        method: str,
        path: str,
        make_body: Callable[[], dict[str, Any] | None],
        parse: Callable[[bytes], _T],
    ) -> _Exchange[_T]:
        """One HTTP call with retries: the parsed 2xx body, or the last failure."""
        policy = self.config.retry
        start = self._clock()
        attempts = 0
        while True:
            body = make_body()
            attempts += 1
            reply = await self._send(method, path, body)
            retry_after = None
            retryable = True
            if isinstance(reply, Failed):
                failure = reply
            elif reply.status < 300:
                try:
                    return _Exchange(parse(reply.body), body, attempts, self._clock() - start)
                except MalformedResponse as error:
                    failure = Failed("malformed_response", str(error), status=reply.status)
            else:
                server_error = parse_error(reply.body)
                if reply.status == 400 and body is not None:
                    adapted = adapt(self._options, body, server_error)
                    if adapted is not None:
                        self._options = adapted
                        continue
                failure = self._status_failure(reply.status, server_error)
                retryable = is_retryable_status(reply.status, failure.reason == "quota_exhausted")
                retry_after = retry_after_seconds(reply.headers, self._wall_clock())
            if not retryable or attempts >= policy.max_attempts:
                failed = attrs.evolve(failure, attempts=attempts, latency_s=self._clock() - start)
                return _Exchange(failed, body, attempts, failed.latency_s)
            await self._sleep(policy.delay(attempts, retry_after, self._rng))

    async def _send(self, method: str, path: str, body: dict[str, Any] | None) -> _Reply | Failed:
        if self._session is None:
            raise RuntimeError("use the client as `async with LLMClient(...) as client:`")
        try:
            async with self._session.request(method, self.config.base_url + path, json=body) as response:
                return _Reply(response.status, await response.read(), response.headers)
        except TimeoutError:
            timeouts = f"connect {self.config.connect_timeout:g}s, total {self.config.total_timeout:g}s"
            return Failed("timeout", f"{method} {path} timed out ({timeouts})")
        except (aiohttp.ClientError, OSError) as error:
            return Failed("connection", f"{method} {path}: {type(error).__name__}: {error}")

    def _status_failure(self, status: int, error: ServerError) -> Failed:
        reason: FailureReason
        message = error.message
        if status == 429:
            exhausted = QUOTA_EXHAUSTED in (error.code, error.type)
            reason = "quota_exhausted" if exhausted else "rate_limited"
        elif status in (400, 422):
            reason = "bad_request"
        elif status in (401, 403):
            reason = "auth"
        elif status == 404:
            reason = "not_found"
            message += f" (is {self.config.base_url} the API root? most servers' roots end in /v1)"
        elif status >= 500 or status in (408, 409):
            reason = "server_error"
        else:
            reason = "http_error"
        return Failed(reason, message, status=status, error_code=error.code or error.type)


def _chat_result(model: str, exchange: _Exchange[tuple[tuple[Choice, ...], Usage]]) -> Result:
    if isinstance(exchange.value, Failed):
        return exchange.value
    choices, usage = exchange.value
    truncated = all(choice.finish_reason == "length" for choice in choices)
    kind = Truncated if truncated else Completion
    return kind(model, choices, usage, exchange.latency_s, exchange.attempts)
