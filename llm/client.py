"""The async client for OpenAI-compatible chat servers (vLLM, OpenAI, OpenRouter, ...).

One :class:`LLMClient`, used as ``async with``, owns one HTTP transport (:mod:`llm.transport`)
whose connection pool is as large as the configured concurrency, and an ``asyncio.Semaphore`` that
keeps at most that many calls in flight however many tasks call :meth:`LLMClient.complete` at once.

A call goes: decide which sample it is (:mod:`llm.chat`: at temperature 0 identical calls are one
request and concurrent duplicates share one exchange; above 0 each call is the next ``repeat``)
→ in ``record`` or ``replay`` mode, answer from the call log if it can, using the model the log
recorded, so a resumed run is served without a server → pick the model (discovery, once per
client) → fit the completion budget to its context, or fail as ``context_overflow`` → send, with
retries under one deadline (:mod:`llm.transport`) → in ``record`` mode, log the result.

Fitting needs the prompt's length in tokens, and only when the model's context length is known.
The client asks the server's tokenizer first (vLLM's, llama.cpp's or llama-cpp-python's endpoint,
:mod:`llm.tokenizer`). A server without one is not asked again, and the count is estimated from
the ``usage`` of the earlier replies instead: their prompt tokens per prompt character, applied to
this prompt, with a 10 % margin; before any reply, two characters per token. The result says how
many tokens were counted and how (``prompt_count``, ``prompt_counter``). A budget the fitting cuts
is sent as cut and reported on the result (``max_completion_tokens``), so callers can record every
cut; the call log's key keeps the budget that was asked.

A reply is checked against what was asked, since some servers ignore a field without an error
(llama-cpp-python ignores ``n``): another model than the one asked, fewer or more choices than
``n``, more completion tokens than the budget allows, an unreadable ``finish_reason``, each is
listed in the result's ``deviations`` (and so in the call log; :func:`llm.wire.deviations`). Whatever
the server does, the caller gets a :data:`~llm.results.Result`; exceptions are reserved for caller
mistakes (:mod:`llm.errors`).

Model discovery (``GET {base_url}/models``): the configured model if the server lists it, else the
only listed model when no model was configured; anything else is a ``ModelDiscoveryError`` listing
the ids, because silently swapping models would corrupt an experiment. When the listing fails in
any way (no endpoint, HTML, 5xx, down) a configured model is tried anyway, with the context length
the log recorded for it if any. Concurrent callers share one discovery and its outcome, failure
included; a later call tries again. In replay mode the models recorded in the log stand in for the
server.

Sleeping, both clocks and the jitter source are constructor arguments, so tests drive retries
without waiting.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import Literal

import attrs
import numpy as np

from llm.calllog import CallLog
from llm.chat import (
    CHARS_PER_TOKEN_ESTIMATE,
    Message,
    ModelInfo,
    Request,
    SamplingParams,
    fit_budget,
    prompt_chars,
)
from llm.config import ClientConfig
from llm.errors import ConfigError, ModelDiscoveryError, ReplayMiss
from llm.results import Failed, Result, reply_kind
from llm.tokenizer import TEMPLATE_TOKENS_PER_MESSAGE, TOKENIZERS, PromptCount, TokenizerShape
from llm.transport import Exchange, Sleep, Transport
from llm.wire import (
    Completed,
    WireOptions,
    body_adaptations,
    deviations,
    parse_completion,
    parse_models,
    request_body,
)

Mode = Literal["live", "record", "replay"]
_Identity = tuple[tuple[Message, ...], SamplingParams, int]
ESTIMATE_MARGIN = 1.1


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
        self._log = log if mode != "live" else None
        self._record = log if mode == "record" else None
        self._clock = clock
        self._wall_clock = wall_clock
        rng = np.random.default_rng() if rng is None else rng
        self._transport = Transport(
            self.config, sleep=sleep, clock=clock, wall_clock=wall_clock, rng=rng
        )
        self._semaphore = asyncio.Semaphore(self.config.concurrency)
        self._model: ModelInfo | None = None
        self._discovery: asyncio.Task[ModelInfo | Failed] | None = None
        self._logged_model_read = False
        self._logged: ModelInfo | None = None
        self._answered_from_log_as: str | None = None
        self._in_flight: dict[_Identity, asyncio.Future[Result]] = {}
        self._repeats: dict[str, int] = {}
        # the tokenizer shapes not yet ruled out (one, once found); a root without /v1 has no server root to ask
        self._tokenizers: tuple[TokenizerShape, ...] = (
            TOKENIZERS if self.config.base_url.endswith("/v1") else ()
        )
        self._calibration: tuple[int, int] | None = (
            None  # (prompt characters, prompt tokens) of a reply
        )
        self._template_tokens = float(
            TEMPLATE_TOKENS_PER_MESSAGE
        )  # per message, until a reply shows it

    async def __aenter__(self) -> LLMClient:
        if self.mode != "replay":
            self._transport.open()
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        await self._transport.close()

    @property
    def wire_options(self) -> WireOptions:
        """The request-shape adaptations learned from this client's server so far."""
        return self._transport.options

    async def model(self) -> ModelInfo:
        """The model calls go to; raises ``ModelDiscoveryError`` when none can be chosen."""
        found = await self._discover(self._clock() + self.config.call_deadline)
        if isinstance(found, Failed):
            raise ModelDiscoveryError(f"cannot list models: {found.reason}: {found.message}", ())
        return found

    async def complete(
        self,
        messages: Sequence[Message],
        params: SamplingParams = SamplingParams(),
        *,
        sample_index: int = 0,
    ) -> Result:
        """Send one chat request (or answer it from the log) and return its typed result.

        Which calls are the same sample is one rule in every mode (see :mod:`llm.chat`).
        """
        chat = tuple(messages)
        if not params.greedy:
            unrepeated = Request("", chat, params, sample_index).key()
            repeat = self._repeats.get(unrepeated, 0)
            self._repeats[unrepeated] = repeat + 1
            return await self._call(chat, params, sample_index, repeat)
        if self.mode == "replay":  # duplicates read the same row: sharing would change nothing
            return await self._call(chat, params, sample_index, 0)
        identity = (chat, params, sample_index)
        while (leader := self._in_flight.get(identity)) is not None:
            try:
                return await asyncio.shield(leader)
            except asyncio.CancelledError:
                if not leader.cancelled():
                    raise  # this caller was cancelled; otherwise the leader was, and we take over
        shared: asyncio.Future[Result] = asyncio.get_running_loop().create_future()
        self._in_flight[identity] = shared
        try:
            result = await self._call(chat, params, sample_index, 0)
        except BaseException:
            shared.cancel()  # followers redo the call themselves and meet the same error or not
            raise
        finally:
            del self._in_flight[identity]
        shared.set_result(result)
        return result

    async def _call(
        self, chat: tuple[Message, ...], params: SamplingParams, sample_index: int, repeat: int
    ) -> Result:
        started = self._clock()  # call_deadline counts from here: discovery and tokenizer included
        # the model already discovered, or else the one the log recorded (a resumed run, no server)
        known = self._model if self._model is not None else self._logged_model()
        request = (
            None if known is None else self._request(known, chat, params, sample_index, repeat)
        )
        if (
            known is not None
            and request is not None
            and known is self._model
            and known.max_model_len is None
            and self._record is not None
            and not self._semaphore.locked()
        ):  # a slot is free and the request leaves as it is: one trip looks it up and notes it sent
            async with self._semaphore:
                key, logged, note = await asyncio.to_thread(
                    self._lookup_or_note, self._record, request, self._wall_clock()
                )
                if logged is not None:
                    self._answered_from_log_as = known.id
                    return logged
                model, sent, count = known, request, None
                exchange = await self._exchange(sent, started + self.config.call_deadline)
        else:
            # hashing, SQLite: off the loop; the key is hashed once and serves the log's every
            # statement
            key, logged = await asyncio.to_thread(self._lookup, request)
            if logged is not None:
                self._answered_from_log_as = known.id if known is not None else None
                return logged
            found = await self._discover(started + self.config.call_deadline)
            if isinstance(found, Failed):
                return found
            model = found
            if model is not known or request is None:
                request = self._request(model, chat, params, sample_index, repeat)
                key, logged = await asyncio.to_thread(self._lookup, request)
                if logged is not None:
                    return logged
            if self.mode == "replay":
                raise ReplayMiss(key or request.key(), model.id)
            queued = self._clock()
            async with self._semaphore:  # waiting for a free slot is not the server's time
                deadline = started + self.config.call_deadline + (self._clock() - queued)
                fitted, count = await self._fitted(model, request, deadline)
                if isinstance(fitted, Failed):
                    return fitted
                sent = fitted
                note = (  # before it leaves; SQLite commits run off the event loop
                    None
                    if self._record is None
                    else await asyncio.to_thread(
                        self._record.sending, request, self._wall_clock(), key=key
                    )
                )
                exchange = await self._exchange(sent, deadline)
        result = _chat_result(model.id, sent.params, exchange, count)
        if not isinstance(result, Failed) and result.usage.prompt_tokens:
            self._calibration = (prompt_chars(chat), result.usage.prompt_tokens)
            if count is not None and count.untemplated is not None:
                self._template_tokens = max(
                    0, result.usage.prompt_tokens - count.untemplated
                ) / len(chat)
        if self._record is not None and note is not None:
            if exchange.body_text is None:
                await asyncio.to_thread(self._record.unsent, note)
            else:
                await asyncio.to_thread(
                    self._record.append,
                    request,
                    exchange.body_text,
                    result,
                    self._wall_clock(),
                    sent=note,
                    key=key,
                )
        return result

    async def _exchange(self, sent: Request, deadline: float) -> Exchange[Completed]:
        """``sent`` posted to the server (its retries included) by ``deadline``."""
        return await self._transport.exchange(
            "POST",
            "/chat/completions",
            lambda options: request_body(sent, options),
            parse_completion,
            deadline,
        )

    def _lookup_or_note(
        self, log: CallLog, request: Request, sent_at: float
    ) -> tuple[str | None, Result | None, int | None]:
        """``request``'s key and what ``log`` holds for it in record mode, else the number of its
        :meth:`~llm.calllog.CallLog.sending` note taken at ``sent_at``."""
        key = request.key()
        return key, *log.logged_or_sending(request, sent_at, key=key)

    def _request(
        self,
        model: ModelInfo,
        chat: tuple[Message, ...],
        params: SamplingParams,
        sample_index: int,
        repeat: int,
    ) -> Request:
        return Request(model.id, chat, params, sample_index, repeat)

    async def _fitted(
        self, model: ModelInfo, request: Request, deadline: float
    ) -> tuple[Request, PromptCount | None] | tuple[Failed, None]:
        """``request`` with its completion budget fitted to ``model``'s context and the prompt's
        count, or the ``context_overflow`` failure of a prompt that leaves too little room (not sent)."""
        if model.max_model_len is None:
            return request, None
        params, floor = request.params, self.config.min_completion_budget
        count = await self._prompt_tokens(model, request.messages, deadline)
        fitted = fit_budget(params, count.tokens, model, floor)
        if fitted is None:
            return Failed(
                "context_overflow",
                f"the prompt ({count.tokens} tokens, {count.how}) leaves less than"
                f" {min(floor, params.max_completion_tokens)}"
                f" of {model.id}'s {model.max_model_len} tokens for the completion (min_completion_budget); not sent",
                attempts=0,
                prompt_count=count.tokens,
                prompt_counter=count.how,
            ), None
        return attrs.evolve(request, params=fitted), count

    async def _prompt_tokens(
        self, model: ModelInfo, chat: tuple[Message, ...], deadline: float
    ) -> PromptCount:
        """The prompt's tokens by the server's tokenizer, else estimated; and how they were counted."""
        for shape in self._tokenizers:
            body = shape.body(model.id, chat)
            counted = await self._transport.exchange(
                "POST",
                shape.path,
                lambda _: body,  # noqa: B023 - awaited within this iteration
                shape.parse,
                deadline,
            )
            if isinstance(counted.value, int):
                self._tokenizers = (shape,)  # found: the only one asked from now on
                if shape.templated:
                    return PromptCount(counted.value, f"counted by {shape.name}")
                overhead = math.ceil(self._template_tokens * len(chat))
                how = f"counted by {shape.name}, plus {overhead} for the chat template"
                return PromptCount(counted.value + overhead, how, untemplated=counted.value)
            self._tokenizers = tuple(other for other in self._tokenizers if other is not shape)
        chars = prompt_chars(chat)
        if self._calibration is None:
            tokens = chars // CHARS_PER_TOKEN_ESTIMATE
            return PromptCount(
                tokens, f"estimated at {CHARS_PER_TOKEN_ESTIMATE} characters per token"
            )
        known_chars, known_tokens = self._calibration
        estimate = math.ceil(chars * known_tokens / max(known_chars, 1) * ESTIMATE_MARGIN)
        return PromptCount(estimate, "estimated from the usage of an earlier reply")

    def _lookup(self, request: Request | None) -> tuple[str | None, Result | None]:
        """``request``'s key (None without a log) and its logged result, if any."""
        if self._log is None or request is None:
            return None, None
        key = request.key()
        return key, self._log.lookup(key, accept_failed=self.mode == "replay")

    def _logged_model(self) -> ModelInfo | None:
        """The model the log says this client's calls went to, if it can tell (read once; None without a log)."""
        if not self._logged_model_read and self._log is not None:
            self._logged_model_read = True
            recorded = self._log.models()
            configured = self.config.model
            try:
                self._logged = choose_model(configured, recorded)
            except ModelDiscoveryError:
                self._logged = ModelInfo(configured) if configured is not None else None
        return self._logged

    async def _discover(self, deadline: float) -> ModelInfo | Failed:
        if self._model is not None:
            return self._model
        if self._discovery is None:
            self._discovery = asyncio.ensure_future(self._find_model(deadline))
            self._discovery.add_done_callback(self._forget_failed_discovery)
        return await asyncio.shield(self._discovery)

    def _forget_failed_discovery(self, task: asyncio.Task[ModelInfo | Failed]) -> None:
        """Waiting callers share a failure; the next call after it tries again."""
        if task.cancelled() or task.exception() is not None or isinstance(task.result(), Failed):
            self._discovery = None

    async def _find_model(self, deadline: float) -> ModelInfo | Failed:
        configured = self.config.model
        if self.mode == "replay":
            recorded = self._log.models() if self._log is not None else ()
            model = (
                choose_model(configured, recorded)
                if recorded or configured is None
                else ModelInfo(configured)
            )
        else:
            exchange = await self._transport.exchange(
                "GET", "/models", lambda _: None, parse_models, deadline
            )
            served = exchange.value
            if isinstance(served, Failed):
                if configured is None:
                    return served
                logged = self._logged_model()
                model = (
                    logged
                    if logged is not None and logged.id == configured
                    else ModelInfo(configured)
                )
            else:
                if self._record is not None:
                    self._record.record_models(served, self._wall_clock())
                model = choose_model(configured, served)
        if self._answered_from_log_as not in (None, model.id):
            raise ModelDiscoveryError(
                f"calls were answered from the log as {self._answered_from_log_as!r} but the server now"
                f" gives {model.id!r}; configure the model to mix them on purpose",
                (model.id,),
            )
        self._model = model
        return model


def _chat_result(
    model: str,
    params: SamplingParams,
    exchange: Exchange[Completed],
    count: PromptCount | None,
) -> Result:
    adaptations = () if exchange.body is None else body_adaptations(params, exchange.body)
    budget = params.max_completion_tokens
    tokens, how = (None, None) if count is None else (count.tokens, count.how)
    if isinstance(exchange.value, Failed):
        return attrs.evolve(
            exchange.value,
            wire_adaptations=adaptations,
            max_completion_tokens=budget,
            prompt_count=tokens,
            prompt_counter=how,
        )
    choices, departures = deviations(params, model, exchange.value)
    kind = reply_kind(choices)
    return kind(
        model,
        choices,
        exchange.value.usage,
        exchange.latency_s,
        exchange.attempts,
        wire_adaptations=adaptations,
        max_completion_tokens=budget,
        prompt_count=tokens,
        prompt_counter=how,
        deviations=departures,
    )
