"""What real servers do that the protocol does not promise, over real sockets with the fake server:
three tokenizer endpoints, a budget under either name, fewer choices than asked, a reply longer
than its budget. The same behaviours are checked against llama-cpp-python in tests/real_model."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from llm.calllog import CallLog
from llm.chat import Message, SamplingParams
from llm.results import Completion, result_from_data, result_to_data
from tests.llm.fake_server import Answer, Choices, FakeServer, Tokenizer
from tests.llm.support import MESSAGES, make_client

PROMPT = (
    Message("system", "s" * 400),
    Message("user", "x" * 8_000),
)  # 2,100 tokens at four characters each
CONTEXT = 10_000


@pytest.mark.parametrize(
    ("tokenizer", "paths", "first_count", "counter"),
    [
        ("vllm", ["/tokenize"], 2_100, "counted by vLLM /tokenize"),
        # asked the vLLM way first, llama.cpp answers an empty token list: not a count
        (
            "llama.cpp",
            ["/tokenize", "/tokenize"],
            2_100 + 16,
            "counted by llama.cpp /tokenize, plus 16 for the chat template",
        ),
        (
            "llama-cpp-python",
            ["/extras/tokenize"],
            2_100 + 16,
            "counted by llama-cpp-python /extras/tokenize, plus 16 for the chat template",
        ),
    ],
)
def test_the_servers_tokenizer_is_found_and_the_template_overhead_learned_from_usage(
    tokenizer: Tokenizer, paths: list[str], first_count: int, counter: str
) -> None:
    # the server's usage says the template added 10 tokens per message
    usage = {"prompt_tokens": 2_100 + 20, "completion_tokens": 7}

    async def scenario() -> None:
        async with FakeServer(
            max_model_len=CONTEXT, tokenizer=tokenizer, default=Answer(usage=usage)
        ) as server:
            async with make_client(server.base_url) as client:
                first = await client.complete(PROMPT, sample_index=0)
                second = await client.complete(PROMPT, sample_index=1)
        assert [path for path, _ in server.tokenize_requests] == [
            *paths,
            paths[-1],
        ]  # found once, then asked alone
        assert isinstance(first, Completion) and isinstance(second, Completion)
        assert (first.prompt_count, first.prompt_counter) == (first_count, counter)
        assert first.max_completion_tokens == CONTEXT - first_count
        expected = (
            2_100 if tokenizer == "vllm" else 2_100 + 20
        )  # the overhead the first reply showed
        assert (
            second.prompt_count == expected
            and server.requests[1]["max_completion_tokens"] == CONTEXT - expected
        )

    asyncio.run(scenario())


def test_without_any_tokenizer_the_count_is_an_estimate_and_says_so() -> None:
    async def scenario() -> None:
        async with FakeServer(max_model_len=CONTEXT) as server:
            async with make_client(server.base_url) as client:
                result = await client.complete(PROMPT)
        assert isinstance(result, Completion) and result.prompt_count == 8_400 // 2
        assert result.prompt_counter == "estimated at 2 characters per token"

    asyncio.run(scenario())


def test_a_server_refusing_max_tokens_gets_max_completion_tokens_alone() -> None:
    async def scenario() -> None:
        async with FakeServer(reject_fields=frozenset({"max_tokens"})) as server:
            async with make_client(server.base_url) as client:
                first = await client.complete(MESSAGES, SamplingParams(max_completion_tokens=5))
                second = await client.complete(MESSAGES, SamplingParams(max_completion_tokens=6))
        assert [sorted(k for k in body if k.startswith("max_")) for body in server.requests] == [
            ["max_completion_tokens", "max_tokens"],
            ["max_completion_tokens"],
            ["max_completion_tokens"],
        ]
        assert first.wire_adaptations == second.wire_adaptations == ("max_tokens not sent",)

    asyncio.run(scenario())


def test_fewer_choices_than_asked_and_a_reply_past_its_budget_are_deviations_kept_in_the_log(
    tmp_path: Path,
) -> None:
    warm = SamplingParams(temperature=1.0, n=3, max_completion_tokens=50)
    long_reply = Answer(usage={"prompt_tokens": 11, "completion_tokens": 394})

    async def scenario() -> None:
        async with FakeServer() as server:
            server.push(Choices((("<ans>a</ans>", "stop"),)), long_reply, Answer())
            with CallLog(tmp_path / "calls.sqlite") as log:
                async with make_client(server.base_url, log=log, mode="record") as client:
                    short = await client.complete(MESSAGES, warm)
                    over = await client.complete(MESSAGES, SamplingParams(max_completion_tokens=5))
                    fine = await client.complete(MESSAGES, SamplingParams(max_completion_tokens=7))
                async with make_client(server.base_url, log=log, mode="replay") as client:
                    replayed = await client.complete(MESSAGES, warm)
        assert isinstance(short, Completion) and short.deviations == (
            "1 of 3 choices returned: the server ignores n",
        )
        assert isinstance(over, Completion) and over.deviations == (
            "394 completion tokens for a budget of 5 per choice: the server ignores the budget",
        )
        assert (
            isinstance(fine, Completion) and fine.deviations == ()
        )  # exactly the budget is within it
        assert isinstance(replayed, Completion) and replayed.deviations == short.deviations
        assert result_from_data(result_to_data(short), from_log=False) == short

    asyncio.run(scenario())
