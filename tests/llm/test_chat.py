"""Sampling parameters: validation, the optional fields on the wire, and what the log key covers."""

from __future__ import annotations

import asyncio
import hashlib
from pathlib import Path
from typing import Any

import pytest

from llm.calllog import CallLog
from llm.chat import Request, SamplingParams, sha256_holding_gil
from llm.errors import ConfigError
from llm.results import Completion
from tests.llm.fake_server import FakeServer
from tests.llm.support import MESSAGES, make_client


@pytest.mark.parametrize(
    "settings",
    [
        {"n": 0},
        {"n": True},
        {"temperature": -0.1},
        {"temperature": float("nan")},
        {"temperature": float("inf")},
        {"max_completion_tokens": 0},
        {"max_completion_tokens": 2.5},
        {"reasoning_effort": "extreme"},
        {"top_p": 0.0},
        {"top_p": 1.5},
        {"extra_body": {"model": "other"}},
        {"extra_body": {"temperature": 1.0}},
        {"extra_body": {"guided_regex": object()}},
    ],
)
def test_invalid_sampling_params_are_config_errors(settings: dict[str, Any]) -> None:
    with pytest.raises(ConfigError):
        SamplingParams(**settings)


def test_top_p_extra_body_and_no_temperature_on_the_wire() -> None:
    extra = {"guided_regex": "<ans>[ab]+</ans>", "chat_template_kwargs": {"enable_thinking": False}}
    params = SamplingParams(temperature=None, top_p=0.9, extra_body=extra, reasoning_effort="none")

    async def scenario() -> None:
        async with FakeServer() as server:
            async with make_client(server.base_url) as client:
                result = await client.complete(MESSAGES, params)
            (body,) = server.requests
        assert isinstance(result, Completion) and result.wire_adaptations == ()
        assert (
            "temperature" not in body
            and body["top_p"] == 0.9
            and body["reasoning_effort"] == "none"
        )
        assert body["guided_regex"] == extra["guided_regex"] and body["chat_template_kwargs"] == {
            "enable_thinking": False
        }

    asyncio.run(scenario())


def test_extra_body_is_copied_and_hashable() -> None:
    extra: dict[str, Any] = {"chat_template_kwargs": {"enable_thinking": False}}
    params = SamplingParams(extra_body=extra)
    extra["chat_template_kwargs"]["enable_thinking"] = True
    assert params.extra_body == {"chat_template_kwargs": {"enable_thinking": False}}
    assert hash(params) == hash(
        SamplingParams(extra_body={"chat_template_kwargs": {"enable_thinking": True}})
    )


@pytest.mark.parametrize(
    "changed",
    [
        {"temperature": 0.7},
        {"temperature": None},
        {"top_p": 0.5},
        {"seed": 1},
        {"n": 2},
        {"max_completion_tokens": 100},
        {"stop": ("</ans>",)},
        {"reasoning_effort": "low"},
        {"extra_body": {"guided_regex": "a+"}},
    ],
)
def test_every_sampling_parameter_is_part_of_the_key(changed: dict[str, Any]) -> None:
    assert Request("m", MESSAGES, SamplingParams(**changed)).key() != Request("m", MESSAGES).key()


def test_the_key_of_a_default_request_is_stable() -> None:
    # recorded logs must keep replaying: the canonical form of the defaults may never change
    assert Request("m", MESSAGES).canonical() == {
        "format": 1,
        "model": "m",
        "messages": [m.to_wire() for m in MESSAGES],
        "max_completion_tokens": 32768,
        "temperature": 0.0,
        "n": 1,
        "sample_index": 0,
    }


def test_record_mode_does_not_answer_a_warmer_request_with_a_greedy_one(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with FakeServer() as server:
            with CallLog(tmp_path / "calls.sqlite") as log:
                async with make_client(server.base_url, log=log, mode="record") as client:
                    await client.complete(MESSAGES, SamplingParams(temperature=0.0))
                    warm = await client.complete(MESSAGES, SamplingParams(temperature=0.7))
            assert [body["temperature"] for body in server.requests] == [0.0, 0.7]
        assert isinstance(warm, Completion) and not warm.from_log

    asyncio.run(scenario())


@pytest.mark.parametrize("size", [0, 1, 2046, 2047, 2048, 4094, 4095, 10_000])
def test_hashing_in_pieces_gives_hashlib_s_digest(size: int) -> None:
    data = bytes(i * 7 % 251 for i in range(size))
    assert sha256_holding_gil(data) == hashlib.sha256(data).hexdigest()
