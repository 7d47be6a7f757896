"""Constrained answers against the real server: llama-cpp-python reads the answer grammar of every
dialect (an unknown GBNF escape takes its whole server down) and SmolLM2 answers inside it."""

from __future__ import annotations

import asyncio

import pytest

from cegis.llm.answer_grammar import answer_grammar
from cegis.llm.answers import parse_answer
from llm.chat import Message, SamplingParams, StructuredOutput
from llm.client import LLMClient
from llm.config import ClientConfig
from llm.results import Failed
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
    grammar = answer_grammar(dialect, alphabet)
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
