"""The values of one chat request, and the key the call log files it under.

A :class:`Request` is the *logical* request: model, messages, sampling parameters and a
``sample_index``. Its key is the SHA-256 of a canonical JSON rendering (sorted keys, no spaces,
``None`` fields left out so that adding an optional parameter later keeps old keys valid).
What goes on the wire may differ (``max_tokens`` instead of ``max_completion_tokens``, no
``temperature``) when a server refuses a field; the key does not, so a log recorded against one
server replays for a request built the same way against any other.

``sample_index`` is never sent. It tells apart requests that are identical on purpose: drawing
several samples at a temperature above zero, or re-asking the same prompt to measure variance.
With ``n > 1`` one request already carries all ``n`` choices and needs no index.

The completion budget is clamped so that a prompt plus its completion fits the model's context
(``max_model_len`` from model discovery). Tokens cannot be counted without the model's tokenizer,
so the prompt is estimated generously at one token per two characters; an over-estimate only
shortens a budget that was about to overflow anyway.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Literal

import attrs

Role = Literal["system", "user", "assistant"]
ReasoningEffort = Literal["minimal", "low", "medium", "high"]
KEY_FORMAT = 1
CHARS_PER_TOKEN_ESTIMATE = 2


@attrs.frozen
class Message:
    """One chat message."""

    role: Role
    content: str

    def to_wire(self) -> dict[str, str]:
        """The OpenAI JSON shape of the message."""
        return {"role": self.role, "content": self.content}


@attrs.frozen
class StructuredOutput:
    """A vLLM decoding constraint (``structured_outputs``): the reply must match ``pattern``.

    Sent only when set. Servers that do not know the field ignore it silently, so callers check
    every answer themselves whether or not a constraint was sent.
    """

    kind: Literal["regex", "grammar"]
    pattern: str


@attrs.frozen
class SamplingParams:
    """How to sample: the paper's defaults are temperature 0 and 32768 completion tokens."""

    max_completion_tokens: int = 32768
    temperature: float = attrs.field(default=0.0, converter=float)
    seed: int | None = None
    n: int = 1
    stop: tuple[str, ...] = ()
    reasoning_effort: ReasoningEffort | None = None
    structured: StructuredOutput | None = None


@attrs.frozen
class ModelInfo:
    """A served model, with its context length when the server reports one."""

    id: str
    max_model_len: int | None = None


@attrs.frozen
class Request:
    """A logical chat request; ``key`` identifies it in the call log."""

    model: str
    messages: tuple[Message, ...]
    params: SamplingParams = SamplingParams()
    sample_index: int = 0

    def canonical(self) -> dict[str, Any]:
        """The request as plain JSON data; unset optional parameters are left out."""
        params = self.params
        data: dict[str, Any] = {
            "format": KEY_FORMAT,
            "model": self.model,
            "messages": [message.to_wire() for message in self.messages],
            "max_completion_tokens": params.max_completion_tokens,
            "temperature": params.temperature,
            "n": params.n,
            "sample_index": self.sample_index,
        }
        if params.seed is not None:
            data["seed"] = params.seed
        if params.stop:
            data["stop"] = list(params.stop)
        if params.reasoning_effort is not None:
            data["reasoning_effort"] = params.reasoning_effort
        if params.structured is not None:
            data["structured_outputs"] = {params.structured.kind: params.structured.pattern}
        return data

    def key(self) -> str:
        """SHA-256 hex digest of the canonical JSON."""
        text = json.dumps(self.canonical(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()


def clamp_budget(params: SamplingParams, messages: tuple[Message, ...], model: ModelInfo) -> SamplingParams:
    """``params`` with a completion budget that fits ``model``'s context next to ``messages``."""
    if model.max_model_len is None:
        return params
    prompt_estimate = sum(len(message.content) for message in messages) // CHARS_PER_TOKEN_ESTIMATE
    room = max(model.max_model_len - prompt_estimate, 1)
    if params.max_completion_tokens <= room:
        return params
    return attrs.evolve(params, max_completion_tokens=room)
