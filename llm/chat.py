"""The values of one chat request, and the key the call log files it under.

A :class:`Request` is the *logical* request: model, messages, sampling parameters, the caller's
``sample_index`` and the client's ``repeat`` count. Its key is the SHA-256 of a canonical JSON
rendering (sorted keys, no spaces, unset optional fields left out so that adding an optional
parameter later keeps old keys valid). What goes on the wire may differ (``max_tokens`` instead of
``max_completion_tokens``) when a server says it does not support a field; the key does not, so a
log recorded against one server replays for a request built the same way against any other.

Which calls are the same sample, one rule in live, record and replay mode:

* At temperature 0 (greedy decoding) identical calls are one request: concurrent duplicates share
  one server call, and record/replay answer later ones from the log.
* At a temperature above 0, or left to the server (``None``), every call is its own sample: the
  k-th identical call of a client gets ``repeat = k``, which is part of the key. A re-run (or a
  resumed run) that makes the same calls in the same order meets the same keys, so record mode
  serves them from the log and replay reproduces them; ``sample_index`` (never sent) lets a caller
  name samples explicitly instead of by order.

The completion budget is fitted so that a prompt plus its completion fits the model's context
(``max_model_len`` from model discovery), given the prompt's token count; the client counts with
the server's tokenizer when it has one and estimates otherwise (:mod:`llm.client`). Below a floor
the call is not sent at all (:func:`fit_budget` says so), since a reply of a handful of tokens is
a truncation paid for. The budget that was *asked* is what the key holds: how many tokens the
prompt has is a fact about the server, so a replay without a server asks for the same keys.
"""

from __future__ import annotations

import hashlib
import json
import math
import types
from collections.abc import Mapping
from typing import Any, Literal, get_args

import attrs

from llm.errors import ConfigError

Role = Literal["system", "user", "assistant"]
ReasoningEffort = Literal["none", "minimal", "low", "medium", "high", "xhigh"]
KEY_FORMAT = 1
CHARS_PER_TOKEN_ESTIMATE = 2
# Fields the client writes itself; ``extra_body`` may not override them, or the log would lie.
RESERVED_FIELDS = frozenset(
    {
        "model",
        "messages",
        "max_tokens",
        "max_completion_tokens",
        "temperature",
        "top_p",
        "seed",
        "n",
        "stop",
        "reasoning_effort",
        "structured_outputs",
        "grammar",
        "ebnf",
        "stream",
    }
)


@attrs.frozen(cache_hash=True)  # a call's identity hashes its messages several times
class Message:
    """One chat message."""

    role: Role
    content: str

    def to_wire(self) -> dict[str, str]:
        """The OpenAI JSON shape of the message."""
        return {"role": self.role, "content": self.content}


@attrs.frozen
class StructuredOutput:
    """A decoding constraint: the reply must match ``pattern``, a regex or a GBNF grammar.

    Sent only when set, in the form each server takes (:func:`llm.wire.request_body`): vLLM's
    ``structured_outputs``, and for a grammar also llama.cpp's and llama-cpp-python's ``grammar``
    and SGLang's ``ebnf`` (XGrammar, which vLLM and SGLang use, reads GBNF). Servers that do not
    know a field ignore it silently, so callers check every answer themselves whether or not a
    constraint was sent.
    """

    kind: Literal["regex", "grammar"]
    pattern: str


def _temperature(value: float | None) -> float | None:
    if value is None:
        return None
    number = float(value)
    if not math.isfinite(number) or number < 0:
        raise ConfigError(
            f"temperature must be a finite number >= 0 (or None for the server's default), got {value}"
        )
    return number


def _top_p(value: float | None) -> float | None:
    if value is None:
        return None
    number = float(value)
    if not 0 < number <= 1:
        raise ConfigError(f"top_p must be in (0, 1], got {value}")
    return number


def _extra_body(value: Mapping[str, Any]) -> Mapping[str, Any]:
    clash = RESERVED_FIELDS.intersection(value)
    if clash:
        raise ConfigError(f"extra_body may not set {sorted(clash)}: use the SamplingParams fields")
    try:  # a deep copy that also proves the value is JSON, so it cannot fail at send time
        copy = json.loads(json.dumps(dict(value)))
    except (TypeError, ValueError) as error:
        raise ConfigError(f"extra_body must be JSON data: {error}") from None
    return types.MappingProxyType(copy)


def _at_least_one(instance: object, attribute: attrs.Attribute[int], value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ConfigError(f"{attribute.name} must be an integer >= 1, got {value!r}")


def _known_effort(instance: object, attribute: attrs.Attribute[Any], value: str | None) -> None:
    if value is not None and value not in get_args(ReasoningEffort):
        raise ConfigError(
            f"reasoning_effort must be one of {get_args(ReasoningEffort)}, got {value!r}"
        )


@attrs.frozen(cache_hash=True)
class SamplingParams:
    """How to sample: the paper's defaults are temperature 0 and 32768 completion tokens.

    Invalid values raise ``ConfigError``. ``temperature=None`` sends none (the server's default,
    for models that accept no other). ``extra_body`` is merged into the request body as is, for
    server-specific fields (vLLM's ``guided_regex`` or ``chat_template_kwargs``); it is part of the
    log key and may not set a field that has its own parameter here.
    """

    max_completion_tokens: int = attrs.field(default=32768, validator=_at_least_one)
    temperature: float | None = attrs.field(default=0.0, converter=_temperature)
    seed: int | None = None
    n: int = attrs.field(default=1, validator=_at_least_one)
    stop: tuple[str, ...] = ()
    reasoning_effort: ReasoningEffort | None = attrs.field(default=None, validator=_known_effort)
    structured: StructuredOutput | None = None
    top_p: float | None = attrs.field(default=None, converter=_top_p)
    extra_body: Mapping[str, Any] = attrs.field(factory=dict, converter=_extra_body, hash=False)

    @property
    def greedy(self) -> bool:
        """Whether identical requests are meant to give one answer (temperature 0)."""
        return self.temperature == 0.0


@attrs.frozen
class ModelInfo:
    """A served model, with its context length when the server reports one."""

    id: str
    max_model_len: int | None = None


@attrs.frozen
class Request:
    """A logical chat request; ``key`` identifies it in the call log (see the module doc)."""

    model: str
    messages: tuple[Message, ...]
    params: SamplingParams = SamplingParams()
    sample_index: int = 0
    repeat: int = 0

    def canonical(self) -> dict[str, Any]:
        """The request as plain JSON data; unset optional parameters are left out."""
        params = self.params
        data: dict[str, Any] = {
            "format": KEY_FORMAT,
            "model": self.model,
            "messages": [message.to_wire() for message in self.messages],
            "max_completion_tokens": params.max_completion_tokens,
            "n": params.n,
            "sample_index": self.sample_index,
        }
        if params.temperature is not None:
            data["temperature"] = params.temperature
        if params.top_p is not None:
            data["top_p"] = params.top_p
        if params.seed is not None:
            data["seed"] = params.seed
        if params.stop:
            data["stop"] = list(params.stop)
        if params.reasoning_effort is not None:
            data["reasoning_effort"] = params.reasoning_effort
        if params.structured is not None:
            data["structured_outputs"] = {params.structured.kind: params.structured.pattern}
        if params.extra_body:
            data["extra_body"] = dict(params.extra_body)
        if self.repeat:
            data["repeat"] = self.repeat
        return data

    def key(self) -> str:
        """SHA-256 hex digest of the canonical JSON."""
        return sha256_holding_gil(canonical_json(self.canonical()).encode("utf-8"))


def canonical_json(data: object) -> str:
    """``data`` as the one JSON text the package writes: keys sorted, no spaces, Unicode kept (a
    request's key hashes it; a request body is sent and logged as it)."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


#: hashlib lets other threads run while it hashes this many bytes or more at once.
_HASH_RELEASES_GIL = 2048


def sha256_holding_gil(data: bytes) -> str:
    """The SHA-256 hex digest of ``data``, fed in pieces too small for hashlib to release the GIL.

    A prompt takes a few microseconds to hash, but a thread that lets the GIL go while a busy
    event loop or another thread waits for it must wait in turn to get it back: in an LLM run at
    256 calls in flight that cost about 0.1 ms of CPU a time, for each call's key."""
    digest, view = hashlib.sha256(), memoryview(data)
    for start in range(0, len(view), _HASH_RELEASES_GIL - 1):
        digest.update(view[start : start + _HASH_RELEASES_GIL - 1])
    return digest.hexdigest()


def prompt_chars(messages: tuple[Message, ...]) -> int:
    """The characters of a chat's contents (what a token estimate scales)."""
    return sum(len(message.content) for message in messages)


def fit_budget(
    params: SamplingParams, prompt_tokens: int, model: ModelInfo, floor: int = 1
) -> SamplingParams | None:
    """``params`` with a completion budget that fits ``model``'s context next to a prompt of
    ``prompt_tokens`` tokens.

    ``None`` when the room left is below ``min(floor, params.max_completion_tokens)``: the call
    would be a truncation, so it should fail as a ``context_overflow`` instead of being sent.
    """
    if model.max_model_len is None:
        return params
    room = model.max_model_len - prompt_tokens
    if params.max_completion_tokens <= room:
        return params
    if room < min(floor, params.max_completion_tokens):
        return None
    return attrs.evolve(params, max_completion_tokens=room)
