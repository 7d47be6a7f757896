"""What a chat call returns: a completion, a truncated completion, or a typed failure.

A run of hundreds of calls must not die because one server reply was odd, so the client never
raises on server behaviour. It returns one of three frozen values:

* :class:`Completion`: at least one choice finished (``finish_reason`` ``stop``,
  ``content_filter``...). Every choice keeps its own ``finish_reason``; ``content`` and
  ``reasoning`` are those of the first *finished* choice, never of a truncated one, and
  ``finished`` lists the finished choices (with ``n > 1`` some may have been cut).
* :class:`Truncated`: every choice hit the token budget (``finish_reason == "length"``), often
  with empty content because a reasoning model spent the budget thinking. Not a crash, not an
  answer: the caller decides whether to retry with a larger budget or count a failure.
* :class:`Failed`: no usable reply after the retries, with a :data:`FailureReason` and the
  server's message.

All three carry the attempts and wall time they cost, ``from_log`` when the call log answered
instead of the server, ``wire_adaptations``: how the body sent differed from the logical
request because the server said it does not support a field (empty when it did not), and
``max_completion_tokens``: the completion budget actually sent, which the client cuts below the
asked one when the prompt leaves less room in the context (None when nothing was sent, or for a
row logged before the field existed). When the client counted the prompt's tokens to fit that
budget, ``prompt_count`` says how many and ``prompt_counter`` how (which tokenizer endpoint, or an
estimate). A reply also lists its ``deviations``: what the server did that the request did not
ask for, which a server that ignores a field does without an error (fewer choices than ``n``,
more completion tokens than the budget); a caller must not take such a reply for what it asked.
Token counts a server did not report stay ``None``; where a count is needed anyway (a token
budget), :func:`counted_in_place_of_usage` counts what the server left out, and says it did.
``result_to_data``/``result_from_data`` convert them to and from JSON data for the call log.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any, Literal, TypeAlias

import attrs

from llm.chat import CHARS_PER_TOKEN_ESTIMATE

FailureReason = Literal[
    "connection",  # refused, reset or dropped before a full reply
    "timeout",  # connect or total timeout
    "malformed_response",  # a 2xx body that is not a chat completion
    "rate_limited",  # 429 until the retries ran out
    "quota_exhausted",  # 429 insufficient_quota: retrying cannot help
    "server_error",  # 5xx, 408 or 409 until the retries ran out
    "bad_request",  # 400 or 422: the request itself is wrong
    "auth",  # 401 or 403
    "not_found",  # 404: wrong base URL or model
    "http_error",  # any other status
    "context_overflow",  # the prompt leaves no room for a useful completion; not sent, or refused
    "deadline",  # the call's overall deadline passed (attempts and waits included)
]
TRUNCATED = "length"


def _strings(values: Iterable[str]) -> tuple[str, ...]:
    """A tuple of strings (the JSON of the call log brings lists)."""
    return tuple(values)


@attrs.frozen
class Usage:
    """Token counts as the server reported them; every field is optional."""

    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    reasoning_tokens: int | None = None
    cached_tokens: int | None = None


@attrs.frozen
class Choice:
    """One sampled answer: the visible content and the reasoning channel, if any."""

    content: str
    reasoning: str | None = None
    finish_reason: str | None = None


@attrs.frozen
class _Reply:
    """The fields shared by replies that carry choices: the model, the choices and the accounting."""

    model: str
    choices: tuple[Choice, ...]
    usage: Usage = Usage()
    latency_s: float = 0.0
    attempts: int = 1
    from_log: bool = False
    wire_adaptations: tuple[str, ...] = attrs.field(default=(), converter=_strings)
    max_completion_tokens: int | None = None
    prompt_count: int | None = None
    prompt_counter: str | None = None
    deviations: tuple[str, ...] = attrs.field(default=(), converter=_strings)

    @property
    def finished(self) -> tuple[Choice, ...]:
        """The choices that did not run out of tokens, in order."""
        return tuple(choice for choice in self.choices if choice.finish_reason != TRUNCATED)

    @property
    def primary(self) -> Choice:
        """The choice ``content`` and ``reasoning`` come from: the first finished one, if any."""
        return next(
            (choice for choice in self.choices if choice.finish_reason != TRUNCATED),
            self.choices[0],
        )

    @property
    def content(self) -> str:
        """The visible content of the first finished choice (of the first choice if none finished)."""
        return self.primary.content

    @property
    def reasoning(self) -> str | None:
        """The reasoning channel of the same choice as ``content``, if any."""
        return self.primary.reasoning


@attrs.frozen
class Completion(_Reply):
    """A reply with at least one finished choice; ``content`` is that of the first finished one."""


@attrs.frozen
class Truncated(_Reply):
    """A reply whose every choice ran out of completion tokens; ``content`` may be cut or empty."""


def reply_kind(choices: tuple[Choice, ...]) -> type[Completion] | type[Truncated]:
    """``Truncated`` when every choice ran out of tokens, else ``Completion``."""
    if all(choice.finish_reason == TRUNCATED for choice in choices):
        return Truncated
    return Completion


@attrs.frozen
class Failed:
    """No usable reply: why, the server's message, and the HTTP status and error code if any."""

    reason: FailureReason
    message: str
    status: int | None = None
    error_code: str | None = None
    attempts: int = 1
    latency_s: float = 0.0
    from_log: bool = False
    wire_adaptations: tuple[str, ...] = attrs.field(default=(), converter=_strings)
    max_completion_tokens: int | None = None
    prompt_count: int | None = None
    prompt_counter: str | None = None


Result: TypeAlias = Completion | Truncated | Failed


def counted_in_place_of_usage(reply: Completion | Truncated, prompt_chars: int) -> int:
    """The tokens of ``reply`` that its ``usage`` left out, as the client counts them: a missing
    prompt count is the one the client made to fit the budget (by the server's tokenizer when it
    has one, ``prompt_count``), else ``prompt_chars`` at the estimate's characters per token; a
    missing completion count is estimated from the characters of every choice. 0 when the server
    reported both, so a budget counts every call, reported or not."""
    counted = 0
    if reply.usage.prompt_tokens is None:
        counted += (
            reply.prompt_count
            if reply.prompt_count is not None
            else prompt_chars // CHARS_PER_TOKEN_ESTIMATE
        )
    if reply.usage.completion_tokens is None:
        chars = sum(len(c.content) + len(c.reasoning or "") for c in reply.choices)
        counted += math.ceil(chars / CHARS_PER_TOKEN_ESTIMATE)
    return counted


ResultKind = Literal["completion", "truncated", "failed"]


def result_kind(result: Result) -> ResultKind:
    """The log's name for the result's type."""
    if isinstance(result, Completion):
        return "completion"
    if isinstance(result, Truncated):
        return "truncated"
    return "failed"


def result_to_data(result: Result) -> dict[str, Any]:
    """``result`` as JSON data; ``from_log`` is left out (it describes a lookup, not the reply), and so
    are the optional fields when empty or unknown (rows stay as they were before the fields existed)."""
    data = attrs.asdict(result, recurse=True, filter=_logged_field)
    data["kind"] = result_kind(result)
    return data


def _logged_field(attribute: attrs.Attribute[Any], value: object) -> bool:
    if attribute.name in (
        "wire_adaptations",
        "max_completion_tokens",
        "prompt_count",
        "prompt_counter",
        "deviations",
    ):
        return value not in ((), None)
    return attribute.name != "from_log"


def result_from_data(data: dict[str, Any], *, from_log: bool = True) -> Result:
    """The inverse of :func:`result_to_data`; raises ``ValueError``, ``KeyError`` or ``TypeError`` on bad data."""
    if not isinstance(data, dict):
        raise ValueError(f"a logged result is a JSON object, not {type(data).__name__}")
    fields = {name: value for name, value in data.items() if name != "kind"}
    kind = data.get("kind")
    if kind == "failed":
        return Failed(**fields, from_log=from_log)
    if kind not in ("completion", "truncated"):
        raise ValueError(f"unknown result kind {kind!r}")
    choices = tuple(Choice(**choice) for choice in fields.pop("choices"))
    usage = Usage(**fields.pop("usage"))
    cls = Completion if kind == "completion" else Truncated
    return cls(choices=choices, usage=usage, from_log=from_log, **fields)
