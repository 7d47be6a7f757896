"""Constrained answers against the real server: llama-cpp-python reads the answer grammar of every
dialect (an unknown GBNF escape takes its whole server down) and SmolLM2 answers inside it, and a
reply constrained to a small budget closes its answer before the budget ends."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from cegis.llm.answer_grammar import answer_grammar
from cegis.llm.answers import parse_answer
from llm.chat import Message, SamplingParams, StructuredOutput
from llm.client import LLMClient
from llm.config import ClientConfig
from llm.results import Completion, Failed
from regexlang.charset import CharSet
from regexlang.dialects import Dialect, universe

PROMPT = "Write a regex for the strings of a followed by any number of b or c, inside <ans></ans>."


@pytest.mark.real_model
@pytest.mark.parametrize(
    ("dialect", "alphabet"),
    [
        ("simple", CharSet.of("abc")),
        ("extended", universe("extended")),
        ("python", universe("python")),
    ],
)
def test_the_local_server_answers_inside_the_grammar(
    base_url: str, dialect: Dialect, alphabet: CharSet
) -> None:
    grammar = answer_grammar(dialect, alphabet, budget=48)
    params = SamplingParams(
        max_completion_tokens=48,
        temperature=0.0,
        structured=StructuredOutput("grammar", grammar.gbnf()),
    )

    async def ask() -> str:
        async with LLMClient(ClientConfig.resolve(base_url)) as client:
            result = await client.complete((Message("user", PROMPT),), params)
        assert not isinstance(result, Failed), result
        return result.choices[0].content

    reply = asyncio.run(ask())
    assert grammar.accepts(reply), reply
    assert not hasattr(parse_answer(reply, dialect, alphabet), "kind"), reply


#: A Single prompt of the smoke plan (system and user turn) to which SmolLM2, constrained by the
#: grammar without a length bound, answered ``<ans>  (a) cccbbb. ((b)) ***** ***** …`` until 48
#: tokens cut it.
STARS = Path(__file__).with_name("stars_prompt.json")


@pytest.mark.real_model
@pytest.mark.parametrize("budget", [24, 48])
def test_a_constrained_reply_closes_its_answer_within_the_budget(
    base_url: str, budget: int
) -> None:
    alphabet = CharSet.of("abc")
    messages = tuple(Message(m["role"], m["content"]) for m in json.loads(STARS.read_text()))
    grammar = answer_grammar("simple", alphabet, budget=budget)
    params = SamplingParams(
        max_completion_tokens=budget,
        temperature=0.0,
        structured=StructuredOutput("grammar", grammar.gbnf()),
    )

    async def ask() -> object:
        async with LLMClient(ClientConfig.resolve(base_url)) as client:
            return await client.complete(messages, params)

    result = asyncio.run(ask())
    assert isinstance(result, Completion), result  # not cut at the budget
    reply = result.choices[0].content
    assert grammar.accepts(reply) and "**" not in reply.replace(" ", ""), reply
    assert not hasattr(parse_answer(reply, "simple", alphabet), "kind"), reply
