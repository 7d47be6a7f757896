"""Wire formats: error body shapes, completion parsing edge cases, field adaptation."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from llm.chat import Message, ModelInfo, Request, SamplingParams
from llm.errors import MalformedResponse
from llm.results import Choice
from llm.wire import (
    ServerError,
    WireOptions,
    adapt,
    deviations,
    parse_completion,
    parse_error,
    parse_models,
    request_body,
)


def _bytes(data: Any) -> bytes:
    return json.dumps(data).encode()


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            _bytes(
                {
                    "error": {
                        "message": "bad",
                        "type": "invalid_request_error",
                        "code": "x",
                        "param": "n",
                    }
                }
            ),
            ServerError("bad", "invalid_request_error", "x", "n"),
        ),
        (
            _bytes(
                {"object": "error", "message": "too long", "type": "BadRequestError", "code": 400}
            ),
            ServerError("too long", "BadRequestError", "400"),
        ),
        (_bytes({"error": "plain string", "code": "c"}), ServerError("plain string", code="c")),
        (_bytes({"detail": "Not Found"}), ServerError("Not Found")),
        (b"<html>502 Bad Gateway</html>", ServerError("<html>502 Bad Gateway</html>")),
        (b"", ServerError("(empty body)")),
        (_bytes([1, 2]), ServerError("[1, 2]")),
    ],
)
def test_error_body_shapes(body: bytes, expected: ServerError) -> None:
    assert parse_error(body) == expected


@given(st.binary(max_size=200))
def test_error_parsing_never_raises(body: bytes) -> None:
    assert isinstance(parse_error(body).message, str)


def test_long_error_messages_are_clipped() -> None:
    assert len(parse_error(b"x" * 5000).message) <= 1001


def test_content_parts_and_choice_order() -> None:
    body = _bytes(
        {
            "choices": [
                {"index": 1, "message": {"content": "second"}, "finish_reason": "stop"},
                {
                    "index": 0,
                    "message": {"content": [{"type": "text", "text": "fi"}, {"text": "rst"}]},
                },
            ]
        }
    )
    choices = parse_completion(body).choices
    assert choices == (Choice("first"), Choice("second", finish_reason="stop"))


def test_empty_reasoning_falls_back_to_reasoning_content() -> None:
    message = {"content": "x", "reasoning": "", "reasoning_content": "why"}
    choices = parse_completion(_bytes({"choices": [{"message": message}]})).choices
    assert choices[0].reasoning == "why"


@pytest.mark.parametrize(
    "body",
    [
        b"not json",
        b"\xff\xfe",
        _bytes([]),
        _bytes({"choices": []}),
        _bytes({"choices": [{"no": "message"}]}),
        _bytes({"choices": [{"message": {"content": 3}}]}),
        _bytes({"error": {"message": "upstream failed"}}),
    ],
)
def test_malformed_completions_raise(body: bytes) -> None:
    with pytest.raises(MalformedResponse):
        parse_completion(body)


def test_garbage_usage_counts_are_dropped() -> None:
    body = _bytes(
        {
            "choices": [{"message": {"content": ""}}],
            "usage": {"prompt_tokens": "12", "completion_tokens": -1},
        }
    )
    usage = parse_completion(body).usage
    assert (usage.prompt_tokens, usage.completion_tokens) == (None, None)


def test_model_listing() -> None:
    body = _bytes({"data": [{"id": "a", "max_model_len": 8192}, {"id": "b"}]})
    assert parse_models(body) == (ModelInfo("a", 8192), ModelInfo("b"))
    with pytest.raises(MalformedResponse):
        parse_models(_bytes({"data": [{"name": "a"}]}))


def test_adaptation_targets_only_fields_that_were_sent() -> None:
    request = Request("m", (Message("user", "hi"),), SamplingParams())
    options = WireOptions()
    body = request_body(request, options)
    assert (
        body["max_completion_tokens"] == body["max_tokens"] == 32768
    )  # both names until one is refused
    budget = ServerError("Unsupported parameter: 'max_completion_tokens'")
    switched = adapt(options, body, budget)
    assert switched == WireOptions(budget_fields=("max_tokens",))
    assert "max_tokens" in request_body(
        request, switched
    ) and "max_completion_tokens" not in request_body(request, switched)
    # the complaint names max_completion_tokens, which was not sent this time: no ping-pong
    assert adapt(switched, request_body(request, switched), budget) is None
    # refusing the last name left is a failure of the call, not an adaptation to a body without a budget
    older = ServerError("x", param="max_tokens", code="unsupported_parameter")
    assert adapt(switched, request_body(request, switched), older) is None
    assert adapt(options, body, older) == WireOptions(budget_fields=("max_completion_tokens",))
    temperature = ServerError("x", param="temperature", code="unsupported_parameter")
    assert adapt(options, body, temperature) == WireOptions(send_temperature=False)
    assert adapt(options, body, ServerError("prompt too long")) is None


def test_reasoning_wins_over_reasoning_content_when_both_are_set() -> None:
    message = {"content": "x", "reasoning": "new field", "reasoning_content": "old field"}
    choices = parse_completion(_bytes({"choices": [{"message": message}]})).choices
    assert choices[0].reasoning == "new field"


def test_optional_fields_are_sent_only_when_set() -> None:
    request = Request("m", (Message("user", "hi"),), SamplingParams(temperature=None))
    assert set(request_body(request, WireOptions())) == {
        "model",
        "messages",
        "max_completion_tokens",
        "max_tokens",
    }


def test_a_reply_is_held_against_its_request() -> None:
    """5,000 choices for ``n = 1`` with an object or a number for ``finish_reason``: one line per
    kind of departure, however many choices (before: one line per choice, so 5,000 in every record
    of the call, and a numeric finish_reason read as the text "7" while called unknown)."""
    raw = {"message": {"content": "x"}, "finish_reason": {"type": "stop"}}
    numbered = {"message": {"content": "x"}, "finish_reason": 7}
    choices = [raw] * 4999 + [numbered]
    reply = parse_completion(_bytes({"model": "other-model", "choices": choices}))
    kept, found = deviations(SamplingParams(n=1), "asked-model", reply)
    assert kept == (Choice("x"),)
    assert reply.choices[-1].finish_reason is None
    assert found == (
        "5000 of 5000 choices have a finish_reason of type dict or int: read as unknown",
        "reply from model 'other-model', asked 'asked-model': the server answers with another model",
        "5000 choices for n = 1, the first 1 kept: the server ignores n",
    )


def test_a_reply_that_does_what_was_asked_has_no_deviations() -> None:
    raw = {"message": {"content": "x"}, "finish_reason": "stop"}
    reply = parse_completion(
        _bytes({"model": "m", "choices": [raw] * 2, "usage": {"completion_tokens": 8}})
    )
    kept, found = deviations(SamplingParams(n=2, max_completion_tokens=4), "m", reply)
    assert (len(kept), found) == (2, ())
