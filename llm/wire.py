"""The OpenAI chat protocol on the wire: request bodies in, completions and errors out.

Pure functions over bytes and JSON data, so every server quirk is testable without a socket:

* The completion budget goes out under both names, ``max_completion_tokens`` and the older
  ``max_tokens``, because some servers honour only one and *ignore the other without an error*
  (llama-cpp-python's server ignores ``max_completion_tokens``: asked for 5 tokens it wrote 394).
  vLLM, llama.cpp and llama-cpp-python accept both. A server that refuses one of them says so,
  and that name is dropped: OpenAI's reasoning models refuse ``max_tokens``, its other models
  refuse the pair (``invalid_parameter_combination``), Azure's older API versions refuse
  ``max_completion_tokens``. Sending both costs at most one refused request per client, never
  a reply that ran past its budget.
* Bodies adapt to what a server accepts (:class:`WireOptions`): besides the budget names, a
  server that does not support ``temperature`` at all gets none. The client flips an option on a
  400 or 422 whose error says that *field* is unsupported (OpenAI's ``unsupported_parameter``
  code with that ``param``, or a message that makes the field the subject of "unsupported
  parameter", "unrecognized request argument", "is not supported" or "extra inputs are not
  permitted"), keeps it for its lifetime, and every result says which adaptations its body
  carried. A complaint about a *value* (OpenAI's ``unsupported_value``:
  "'temperature' does not support 0.7") or about the size of the budget is a failure of that
  call, never an adaptation: silently sampling at the server's default temperature would corrupt
  an experiment. A prompt that overflows the context (``context_length_exceeded``, "maximum
  context length") is a ``context_overflow`` failure.
* Replies read ``choices[].message.content``; the reasoning channel is ``message.reasoning``
  (vLLM ≥ 0.10, OpenRouter) or else ``reasoning_content`` (DeepSeek, older vLLM); ``usage`` and
  its details are optional. A reply is then held against its request (:func:`deviations`): what
  a server did that was not asked (a ``model`` other than the one asked, more or fewer choices
  than ``n``, more completion tokens than the budget, a ``finish_reason`` that is not a string) is
  listed in words, ``what happened: what it means``, since a server that ignores a field says
  nothing. Choices beyond ``n`` are not passed on: the caller gets what it asked for, and the
  call log keeps the body as it came.
* Error bodies come as OpenAI's ``{"error": {...}}``, vLLM's top-level
  ``{"object": "error", "message": ...}``, FastAPI's ``{"detail": ...}`` or plain text.
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal

import attrs

from llm.chat import ModelInfo, Request, SamplingParams
from llm.errors import MalformedResponse
from llm.results import Choice, Usage

MESSAGE_LIMIT = 1000
#: The deepest JSON nesting read; a chat completion nests 5 levels, Python's parser fails near 1,000.
MAX_NESTING = 64
_BRACKETS = re.compile(rb"[\[\]{}]")
_STRINGS = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
BudgetField = Literal["max_completion_tokens", "max_tokens"]
#: The names the completion budget is sent under until the server refuses one (see the module doc).
BUDGET_FIELDS: tuple[BudgetField, ...] = ("max_completion_tokens", "max_tokens")
ADAPTABLE_FIELDS = ("max_completion_tokens", "max_tokens", "temperature")
_UNSUPPORTED_FIELD = {
    field: re.compile(
        rf"unsupported parameter\W*{field}\b|unrecognized request argument supplied\W*{field}\b"
        rf"|\b{field}\W*(is|are) (not supported|unsupported|not allowed|not permitted)"
        rf"|extra inputs are not permitted.*\"{field}\"|\"{field}\".*extra inputs are not permitted",
        re.IGNORECASE | re.DOTALL,
    )
    for field in ADAPTABLE_FIELDS
}
# OpenAI and Volcengine refuse the two budget names together; dropping the older one answers it.
_BOTH_BUDGETS = re.compile(
    r"max_tokens\W*and\W*max_completion_tokens\W*(at the same time|cannot (both )?be set)",
    re.IGNORECASE,
)
_CONTEXT_OVERFLOW = re.compile(
    r"maximum context length|context_length_exceeded|context window", re.IGNORECASE
)


@attrs.frozen
class WireOptions:
    """The request-shape adaptations a client has learned about its server."""

    budget_fields: tuple[BudgetField, ...] = BUDGET_FIELDS
    send_temperature: bool = True


@attrs.frozen
class ServerError:
    """An error body, whatever shape it came in."""

    message: str
    type: str | None = None
    code: str | None = None
    param: str | None = None


def request_body(request: Request, options: WireOptions) -> dict[str, Any]:
    """The JSON body of ``POST /chat/completions`` for ``request``."""
    params = request.params
    body: dict[str, Any] = {
        "model": request.model,
        "messages": [message.to_wire() for message in request.messages],
    }
    for field in options.budget_fields:
        body[field] = params.max_completion_tokens
    if options.send_temperature and params.temperature is not None:
        body["temperature"] = params.temperature
    if params.top_p is not None:
        body["top_p"] = params.top_p
    if params.seed is not None:
        body["seed"] = params.seed
    if params.n != 1:
        body["n"] = params.n
    if params.stop:
        body["stop"] = list(params.stop)
    if params.reasoning_effort is not None:
        body["reasoning_effort"] = params.reasoning_effort
    structured = params.structured
    if structured is not None:
        body["structured_outputs"] = {structured.kind: structured.pattern}  # vLLM
        if structured.kind == "grammar":  # GBNF, as llama.cpp, llama-cpp-python and SGLang take it
            body["grammar"] = body["ebnf"] = structured.pattern
    if params.extra_body:
        body.update(params.extra_body)
    return body


def body_adaptations(params: SamplingParams, body: dict[str, Any]) -> tuple[str, ...]:
    """How ``body`` differs from the logical request with ``params``, in words for the log."""
    changes = []
    if "max_completion_tokens" not in body:
        changes.append("max_completion_tokens sent as max_tokens")
    elif "max_tokens" not in body:
        changes.append("max_tokens not sent")
    if params.temperature is not None and "temperature" not in body:
        changes.append("temperature not sent")
    return tuple(changes)


def unsupported_field(error: ServerError) -> str | None:
    """The adaptable field that ``error`` says the server does not support at all, if any."""
    if error.code == "unsupported_value":
        return None
    if (
        error.code == "invalid_parameter_combination" and error.param == "max_tokens"
    ) or _BOTH_BUDGETS.search(error.message):
        return "max_tokens"
    for field in ADAPTABLE_FIELDS:
        if (error.code == "unsupported_parameter" and error.param == field) or _UNSUPPORTED_FIELD[
            field
        ].search(error.message):
            return field
    return None


def is_context_overflow(error: ServerError) -> bool:
    """Whether ``error`` says the prompt and budget do not fit the model's context."""
    return (
        error.code == "context_length_exceeded"
        or _CONTEXT_OVERFLOW.search(error.message) is not None
    )


def adapt(options: WireOptions, body: dict[str, Any], error: ServerError) -> WireOptions | None:
    """Options without the field ``error`` says is unsupported, or ``None`` if it says no such thing.

    The test is on ``body``, what was sent, not on ``options``: concurrent calls may already
    have flipped the option, and their retries must flip it again rather than give up.
    """
    field = unsupported_field(error)
    if field is None or field not in body:
        return None
    if field in BUDGET_FIELDS:
        kept = tuple(name for name in options.budget_fields if name != field)
        return (
            attrs.evolve(options, budget_fields=kept) if kept else None
        )  # no name left: the call fails
    return attrs.evolve(options, send_temperature=False)


def parse_error(body: bytes) -> ServerError:
    """The error carried by an error response body (never raises)."""
    text = body.decode("utf-8", errors="replace").strip()
    try:
        if _nesting(body) > MAX_NESTING:
            raise ValueError("nested too deeply")
        data = json.loads(text)
    except ValueError:
        return ServerError(message=_clip(text) or "(empty body)")
    if isinstance(data, dict):
        inner = data.get("error")
        if isinstance(inner, dict):
            return _error_fields(inner)
        if isinstance(inner, str):
            return ServerError(message=_clip(inner), code=_text(data.get("code")))
        if "message" in data:
            return _error_fields(data)
        if "detail" in data:
            return ServerError(message=_clip(_text(data["detail"]) or json.dumps(data["detail"])))
    return ServerError(message=_clip(text))


def _error_fields(data: dict[str, Any]) -> ServerError:
    return ServerError(
        message=_clip(_text(data.get("message")) or json.dumps(data)),
        type=_text(data.get("type")),
        code=_text(data.get("code")),
        param=_text(data.get("param")),
    )


@attrs.frozen
class Completed:
    """A chat completion body as read: its choices in ``index`` order, its usage, the model it
    says answered (None when it names none), and the fields it gave in a shape no server should
    send, in words (each read as unknown)."""

    choices: tuple[Choice, ...]
    usage: Usage
    model: str | None = None
    odd_fields: tuple[str, ...] = ()


def parse_completion(body: bytes) -> Completed:
    """The choices, usage and model of a chat completion body; raises ``MalformedResponse``."""
    data = _json_object(body)
    raw_choices = data.get("choices")
    if not isinstance(raw_choices, list) or not raw_choices:
        if "error" in data or data.get("object") == "error":
            raise MalformedResponse(f"error in a success response: {parse_error(body).message}")
        raise MalformedResponse("response has no choices")
    ordered = sorted(raw_choices, key=lambda c: c.get("index", 0) if isinstance(c, dict) else 0)
    model = data.get("model")
    return Completed(
        tuple(_choice(raw) for raw in ordered),
        _usage(data.get("usage")),
        _clip(model) if isinstance(model, str) and model else None,
        _odd_finish_reasons(ordered),
    )


def _odd_finish_reasons(choices: list[Any]) -> tuple[str, ...]:
    """One deviation for the choices whose ``finish_reason`` is neither a string nor null, however
    many there are (a reply of 5,000 choices must not put 5,000 lines into every record)."""
    odd = [
        type(reason).__name__
        for raw in choices
        if (reason := raw.get("finish_reason") if isinstance(raw, dict) else None) is not None
        and not isinstance(reason, str)
    ]
    if not odd:
        return ()
    kinds = " or ".join(sorted(set(odd)))
    return (
        f"{len(odd)} of {len(choices)} choices have a finish_reason of type {kinds}: read as unknown",
    )


def deviations(
    params: SamplingParams, model: str, reply: Completed
) -> tuple[tuple[Choice, ...], tuple[str, ...]]:
    """The choices of ``reply`` a request for ``model`` with ``params`` asked for (the first
    ``n``), and what the reply did that the request did not ask for, in words (module doc)."""
    found = list(reply.odd_fields)
    if reply.model is not None and reply.model != model:
        found.append(
            f"reply from model {reply.model!r}, asked {model!r}: the server answers with another model"
        )
    got, asked = len(reply.choices), params.n
    if got < asked:
        found.append(f"{got} of {asked} choices returned: the server ignores n")
    elif got > asked:
        found.append(f"{got} choices for n = {asked}, the first {asked} kept: the server ignores n")
    allowed = params.max_completion_tokens * max(got, 1)
    completion = reply.usage.completion_tokens
    if completion is not None and completion > allowed:
        found.append(
            f"{completion} completion tokens for a budget of {params.max_completion_tokens} per"
            " choice: the server ignores the budget"
        )
    return reply.choices[:asked], tuple(found)


def parse_models(body: bytes) -> tuple[ModelInfo, ...]:
    """The models listed by a ``GET /models`` body; raises ``MalformedResponse``."""
    entries = _json_object(body).get("data")
    if not isinstance(entries, list):
        raise MalformedResponse("model list has no data array")
    models = []
    for entry in entries:
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), str):
            raise MalformedResponse(f"model entry without an id: {_clip(json.dumps(entry))}")
        models.append(ModelInfo(id=entry["id"], max_model_len=_count(entry.get("max_model_len"))))
    return tuple(models)


def _choice(raw: object) -> Choice:
    if not isinstance(raw, dict) or not isinstance(raw.get("message"), dict):
        raise MalformedResponse("choice without a message")
    message = raw["message"]
    content = _content(message.get("content"))
    # vLLM >= 0.10 and OpenRouter name it ``reasoning``; DeepSeek and older vLLM ``reasoning_content``
    reasoning = _text(message.get("reasoning")) or _text(message.get("reasoning_content"))
    reason = raw.get("finish_reason")  # anything but a string is unknown (a deviation)
    return Choice(
        content=content,
        reasoning=reasoning,
        finish_reason=reason if isinstance(reason, str) else None,
    )


def _content(value: object) -> str:
    """Message content: a string, ``null`` (nothing, e.g. when truncated) or a list of text parts."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "".join(
            part["text"]
            for part in value
            if isinstance(part, dict) and isinstance(part.get("text"), str)
        )
    raise MalformedResponse(f"message content is a {type(value).__name__}")


def _usage(value: object) -> Usage:
    if not isinstance(value, dict):
        return Usage()
    completion = value.get("completion_tokens_details")
    prompt = value.get("prompt_tokens_details")
    return Usage(
        prompt_tokens=_count(value.get("prompt_tokens")),
        completion_tokens=_count(value.get("completion_tokens")),
        reasoning_tokens=_count(completion.get("reasoning_tokens"))
        if isinstance(completion, dict)
        else None,
        cached_tokens=_count(prompt.get("cached_tokens")) if isinstance(prompt, dict) else None,
    )


def _json_object(body: bytes) -> dict[str, Any]:
    if _nesting(body) > MAX_NESTING:
        raise MalformedResponse(f"body nests JSON deeper than {MAX_NESTING} levels")
    try:
        data = json.loads(body)
    except ValueError as error:  # covers UnicodeDecodeError
        raise MalformedResponse(
            f"body is not JSON ({error}): {_clip(body.decode('utf-8', 'replace'))}"
        ) from None
    if not isinstance(data, dict):
        raise MalformedResponse(f"body is a JSON {type(data).__name__}, not an object")
    return data


#: Token counts from here up are no count a server could mean (and no SQLite integer): not reported.
MAX_TOKEN_COUNT = 2**53


def _count(value: object) -> int | None:
    return (
        value
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < MAX_TOKEN_COUNT
        else None
    )


def _text(value: object) -> str | None:
    """A non-empty string, or a number rendered as text (vLLM sends numeric error codes)."""
    if isinstance(value, str):
        return value or None
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    return None


def _clip(text: str) -> str:
    return text if len(text) <= MESSAGE_LIMIT else text[:MESSAGE_LIMIT] + "…"


def _nesting(body: bytes) -> int:
    """The body's JSON nesting depth (brackets inside strings do not count), checked before
    parsing because Python's parser recurses once per level."""
    depth = deepest = 0
    for bracket in _BRACKETS.findall(_STRINGS.sub(b"", body)):
        depth += 1 if bracket in (b"[", b"{") else -1
        deepest = max(deepest, depth)
    return deepest
