"""Which 400s change the request body: only a field the server does not support, never a value,
a size or a word in passing; and the log says when a body was adapted."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from llm.calllog import CallLog
from llm.chat import SamplingParams
from llm.results import Completion, Failed
from llm.wire import ServerError, is_context_overflow, parse_error, unsupported_field
from tests.llm.fake_server import FakeServer, Status, openai_error
from tests.llm.support import MESSAGES, make_client

# OpenAI's reply to temperature=0.7 for a model that only samples at its default
BAD_TEMPERATURE_VALUE = {
    "error": {
        "message": "Unsupported value: 'temperature' does not support 0.7 with this model. Only the default (1) value"
        " is supported.",
        "type": "invalid_request_error",
        "param": "temperature",
        "code": "unsupported_value",
    }
}
# vLLM's reply when prompt plus budget exceed the context
VLLM_OVERFLOW_MESSAGE = (
    "'max_tokens' or 'max_completion_tokens' is too large: 32768. This model's maximum context length is"
    " 32768 tokens and your request has 900 input tokens (32768 > 32768 - 900)."
)
VLLM_OVERFLOW = {
    "object": "error",
    "message": VLLM_OVERFLOW_MESSAGE,
    "type": "BadRequestError",
    "param": None,
    "code": 400,
}


def test_a_bad_temperature_value_fails_that_call_and_changes_nothing_else() -> None:
    async def scenario() -> None:
        async with FakeServer() as server:
            server.push(Status(400, BAD_TEMPERATURE_VALUE))
            async with make_client(server.base_url) as client:
                refused = await client.complete(MESSAGES, SamplingParams(temperature=0.7))
                greedy = await client.complete(MESSAGES, SamplingParams(temperature=0.0))
                warm = await client.complete(MESSAGES, SamplingParams(temperature=0.7))
                assert client.wire_options.send_temperature
            assert [body.get("temperature") for body in server.requests] == [0.7, 0.0, 0.7]
        assert (
            isinstance(refused, Failed)
            and refused.reason == "bad_request"
            and refused.attempts == 1
        )
        assert refused.error_code == "unsupported_value"
        assert isinstance(greedy, Completion) and isinstance(warm, Completion)
        assert greedy.wire_adaptations == warm.wire_adaptations == ()

    asyncio.run(scenario())


@pytest.mark.parametrize(
    "body",
    [
        openai_error("temperature and top_p cannot both be set for this deployment"),
        {
            "error": {
                "message": "invalid value",
                "type": "invalid_request_error",
                "param": "temperature",
                "code": None,
            }
        },
        openai_error("max_completion_tokens must be at most 4096"),
    ],
)
def test_a_field_named_in_passing_is_not_an_adaptation(body: dict[str, Any]) -> None:
    async def scenario() -> None:
        async with FakeServer() as server:
            server.push(Status(400, body))
            async with make_client(server.base_url) as client:
                result = await client.complete(MESSAGES)
                assert client.wire_options.send_temperature
                assert client.wire_options.budget_fields == ("max_completion_tokens", "max_tokens")
            assert len(server.requests) == 1
        assert isinstance(result, Failed) and result.reason == "bad_request"

    asyncio.run(scenario())


def test_a_vllm_context_overflow_is_typed_and_keeps_the_budget_field() -> None:
    async def scenario() -> None:
        async with FakeServer() as server:
            server.push(Status(400, VLLM_OVERFLOW))
            async with make_client(server.base_url) as client:
                overflow = await client.complete(MESSAGES)
                after = await client.complete(MESSAGES)
                assert client.wire_options.budget_fields == ("max_completion_tokens", "max_tokens")
            assert [
                ("max_completion_tokens" in body, "max_tokens" in body) for body in server.requests
            ] == [(True, True)] * 2
        assert (
            isinstance(overflow, Failed)
            and overflow.reason == "context_overflow"
            and overflow.attempts == 1
        )
        assert isinstance(after, Completion)

    asyncio.run(scenario())


def test_an_unsupported_field_is_adapted_and_the_log_entry_says_so(tmp_path: Path) -> None:
    path = tmp_path / "calls.sqlite"

    async def scenario() -> None:
        async with FakeServer(reject_fields=frozenset({"temperature"})) as server:
            with CallLog(path) as log:
                async with make_client(server.base_url, log=log, mode="record") as client:
                    result = await client.complete(MESSAGES)
                async with make_client(server.base_url, log=log, mode="replay") as client:
                    replayed = await client.complete(MESSAGES)
        assert isinstance(result, Completion) and result.wire_adaptations == (
            "temperature not sent",
        )
        assert replayed.wire_adaptations == ("temperature not sent",)

    asyncio.run(scenario())
    with sqlite3.connect(path) as raw:
        ((request, result),) = raw.execute("SELECT request, result FROM calls").fetchall()
    assert "temperature" not in json.loads(request)
    assert json.loads(result)["wire_adaptations"] == ["temperature not sent"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        (
            openai_error(
                "Unsupported parameter: 'temperature' is not supported with this model.",
                "unsupported_parameter",
            ),
            "temperature",
        ),
        (
            {
                "error": {
                    "message": "no",
                    "param": "max_completion_tokens",
                    "code": "unsupported_parameter",
                }
            },
            "max_completion_tokens",
        ),
        (
            openai_error("Unrecognized request argument supplied: max_completion_tokens"),
            "max_completion_tokens",
        ),
        (
            {
                "detail": [
                    {
                        "type": "extra_forbidden",
                        "loc": ["body", "max_completion_tokens"],
                        "msg": "Extra inputs are not permitted",
                    }
                ]
            },
            "max_completion_tokens",
        ),
        # OpenAI's reasoning models refuse the older name; max_completion_tokens is named only as the advice
        (
            openai_error(
                "Unsupported parameter: 'max_tokens' is not supported with this model. Use"
                " 'max_completion_tokens' instead.",
                "unsupported_parameter",
            ),
            "max_tokens",
        ),
        # OpenAI's other models, and Volcengine, refuse the two names together
        (
            {
                "error": {
                    "message": "Setting 'max_tokens' and 'max_completion_tokens' at the same time is not supported.",
                    "type": "invalid_request_error",
                    "param": "max_tokens",
                    "code": "invalid_parameter_combination",
                }
            },
            "max_tokens",
        ),
        (
            openai_error(
                "The parameter max_tokens specified in the request are not valid: max_tokens and"
                " max_completion_tokens cannot be set at the same time."
            ),
            "max_tokens",
        ),
        (BAD_TEMPERATURE_VALUE, None),
        (VLLM_OVERFLOW, None),
        (openai_error("temperature is fine but the prompt is not"), None),
    ],
)
def test_which_errors_name_an_unsupported_field(body: dict[str, Any], field: str | None) -> None:
    assert unsupported_field(parse_error(json.dumps(body).encode())) == field


@pytest.mark.parametrize(
    ("error", "overflow"),
    [
        (ServerError(VLLM_OVERFLOW_MESSAGE), True),
        (
            ServerError(
                "This model's maximum context length is 8192 tokens. However, you requested 9000"
            ),
            True,
        ),
        (ServerError("too long", code="context_length_exceeded"), True),
        (ServerError("max_completion_tokens must be at most 4096"), False),
    ],
)
def test_context_overflow_messages(error: ServerError, overflow: bool) -> None:
    assert is_context_overflow(error) == overflow
