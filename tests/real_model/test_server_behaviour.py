"""What llama-cpp-python's server does that no scripted server did, against the real thing.

It ignores ``max_completion_tokens`` (and honours ``max_tokens``), ignores ``n`` (one choice,
status 200), and keeps its tokenizer at ``/extras/tokenize`` (text in, tokens out, no chat
template). Each test fails against a client that sends the budget under one name, takes one
choice for the sample asked, or estimates the prompt's length from characters.
"""

from __future__ import annotations

import asyncio

import pytest

from llm.chat import Message, SamplingParams
from llm.client import LLMClient
from llm.config import ClientConfig
from llm.results import Completion, Failed, Result, Truncated
from tests.real_model.conftest import N_CTX

pytestmark = pytest.mark.real_model

COUNTING = (
    Message("system", "You are a helpful assistant."),
    Message("user", "Count from one to one hundred in words, separated by commas."),
)
# a prompt shaped like the learner's: an instruction and a few hundred labelled strings
EXAMPLES = "\n".join(f"{'ab' * (i % 7)}{'c' * (i % 3)}, {i % 2}" for i in range(160))
LABELLED = (
    Message(
        "system", "You infer a regular expression from labelled strings. Answer inside <ans></ans>."
    ),
    Message("user", f"Training data (string, label):\n{EXAMPLES}\nThe regex, in one line:"),
)


def complete(
    base_url: str, *calls: tuple[tuple[Message, ...], SamplingParams, int]
) -> list[Result]:
    # a floor below the default 1,024 tokens: the long prompt leaves about 800 of the 2,048
    config = ClientConfig(base_url=base_url, min_completion_budget=64)

    async def scenario() -> list[Result]:
        async with LLMClient(config) as client:
            return [
                await client.complete(chat, params, sample_index=index)
                for chat, params, index in calls
            ]

    return asyncio.run(scenario())


def test_the_output_budget_is_applied(base_url: str) -> None:
    (result,) = complete(base_url, (COUNTING, SamplingParams(max_completion_tokens=5), 0))
    # sent as max_completion_tokens alone, the server writes on to a hundred tokens or more
    assert isinstance(result, Truncated), result
    assert result.usage.completion_tokens is not None and result.usage.completion_tokens <= 5
    assert result.deviations == ()


def test_fewer_choices_than_asked_are_detected_and_recorded(base_url: str) -> None:
    (result,) = complete(
        base_url,
        (COUNTING, SamplingParams(max_completion_tokens=8, temperature=1.0, seed=3, n=3), 0),
    )
    assert not isinstance(result, Failed)
    assert len(result.choices) == 1  # the server ignores n
    assert result.deviations == ("1 of 3 choices returned: the server ignores n",)


def test_the_prompt_count_for_the_context_budget_is_within_two_percent_of_the_servers(
    base_url: str,
) -> None:
    # a budget of the whole context is cut to what the prompt leaves: the cut shows the count used;
    # the stop at the first line break keeps the reply short
    params = SamplingParams(max_completion_tokens=N_CTX, stop=("\n",))
    results = complete(
        base_url, (LABELLED, params, 0), (LABELLED, params, 1), (COUNTING, params, 0)
    )
    for result in results:
        assert isinstance(result, Completion | Truncated), result
        assert result.max_completion_tokens is not None and result.usage.prompt_tokens is not None
        counted = N_CTX - result.max_completion_tokens
        assert abs(counted - result.usage.prompt_tokens) <= 0.02 * result.usage.prompt_tokens, (
            counted,
            result.usage,
        )
        assert counted == result.prompt_count
        assert (
            result.prompt_counter is not None
            and "llama-cpp-python /extras/tokenize" in result.prompt_counter
        )
