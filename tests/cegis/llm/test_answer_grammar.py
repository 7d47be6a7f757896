"""The grammar of an answer block against the dialect parsers: exact for the simple dialect on
generated texts, and for every dialect, each sentence drawn from the grammar parses (and, in the
python dialect, compiles with ``re``); the request of a constrained setting carries it, and a
reply outside it is recorded as the server's deviation."""

from __future__ import annotations

import asyncio
import random
import re

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import regexlang
from cegis.config import LoopConfig
from cegis.llm.answer_grammar import MAX_ITEMS, MAX_OPTIONS, answer_grammar
from cegis.llm.drafts import OUTSIDE_GRAMMAR
from cegis.llm.grammar import Alt, Chars, Expr, Grammar, Lit, Ref, Rep, Seq
from cegis.llm.settings import setting_named
from cegis.llm.setup import prepare_llm_run
from cegis.loop import run
from cegis.state import Task
from regexlang.charset import CharSet
from regexlang.dialects import Dialect, universe
from tests.cegis.llm.scripted_server import Reply, Rule, ScriptedServer
from tests.llm.support import make_client

ABE = CharSet.of("abe")
TOKENS = ["a", "b", "e", "p", "+", "|", ".", "*", "(", ")", "epsilon", "$", "?", "~"]


def _parses(text: str, dialect: Dialect, alphabet: CharSet) -> bool:
    try:
        regexlang.parse(text, dialect, alphabet)
    except regexlang.RegexError:
        return False
    return True


@settings(max_examples=500, derandomize=True, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(TOKENS), st.booleans()), min_size=0, max_size=8))
def test_the_simple_grammar_accepts_exactly_what_the_parser_accepts(
    tokens: list[tuple[str, bool]],
) -> None:
    """Texts of tokens separated by at most one space (the grammar's spacing); 8 tokens stay
    within the breadth bound (8 items, 4 options)."""
    text = "".join(token + (" " if spaced else "") for token, spaced in tokens)
    grammar = answer_grammar("simple", ABE)
    assert grammar.accepts(f"<ans>{text}</ans>") == _parses(text, "simple", ABE), text


def _sentence(grammar: Grammar, rng: random.Random) -> str:
    """A random sentence of ``grammar``: past a depth, alternatives without rule references."""

    def leafy(expr: Expr) -> bool:
        if isinstance(expr, Ref):
            return False
        if isinstance(expr, (Seq, Alt)):
            parts = expr.items if isinstance(expr, Seq) else expr.options
            return all(leafy(p) for p in parts)
        return not isinstance(expr, Rep) or leafy(expr.item) or expr.low == 0

    def spell(expr: Expr, depth: int) -> str:
        if isinstance(expr, Lit):
            return expr.text
        if isinstance(expr, Chars):
            low, high = rng.choice(expr.chars.intervals)
            return chr(rng.randint(low, min(high, low + 200)))
        if isinstance(expr, Ref):
            return spell(grammar.rules[expr.name], depth + 1)
        if isinstance(expr, Seq):
            return "".join(spell(item, depth) for item in expr.items)
        if isinstance(expr, Alt):
            options = [o for o in expr.options if leafy(o)] if depth > 5 else []
            return spell(rng.choice(options or list(expr.options)), depth)
        high = expr.low + 2 if expr.high is None else min(expr.high, expr.low + 2)
        count = expr.low if depth > 5 else rng.randint(expr.low, high)
        return "".join(spell(expr.item, depth) for _ in range(count))

    return spell(grammar.rules[grammar.root], 0)


@pytest.mark.parametrize(
    ("dialect", "alphabet"),
    [("simple", ABE), ("extended", universe("extended")), ("python", universe("python"))],
)
def test_every_sentence_of_the_grammar_parses(dialect: Dialect, alphabet: CharSet) -> None:
    grammar = answer_grammar(dialect, alphabet, blocks=3)
    rng = random.Random(52)
    for _ in range(200):
        sentence = _sentence(grammar, rng)
        assert grammar.accepts(sentence), sentence
        blocks = re.findall(r"<ans>(.*?)</ans>", sentence, re.DOTALL)
        assert 1 <= len(blocks) <= 3 and "\n".join(f"<ans>{b}</ans>" for b in blocks) == sentence
        for block in blocks:
            assert _parses(block, dialect, alphabet), block
            if dialect == "python":
                re.compile(block)


def test_the_grammar_bounds_the_breadth_of_a_level() -> None:
    grammar = answer_grammar("simple", ABE)
    assert grammar.accepts(f"<ans>{'a' * MAX_ITEMS}</ans>")
    assert not grammar.accepts(f"<ans>{'a' * (MAX_ITEMS + 1)}</ans>")
    assert grammar.accepts(f"<ans>({'a' * MAX_ITEMS}){'b' * (MAX_ITEMS - 1)}</ans>")
    assert grammar.accepts(f"<ans>{'+'.join('a' * MAX_OPTIONS)}</ans>")
    assert not grammar.accepts(f"<ans>{'+'.join('a' * (MAX_OPTIONS + 1))}</ans>")


def test_the_grammar_refuses_what_is_not_one_answer_block() -> None:
    grammar = answer_grammar("python", universe("python"))
    assert grammar.accepts("<ans>[a-z]+dog</ans>")
    for reply in ("prose", "<ans></ans>", "<ans>a**</ans>", "<ans>[z-a]</ans>", "<ans>a</ans>x"):
        assert not grammar.accepts(reply), reply
    assert "[z-a]" not in grammar.gbnf() and grammar.gbnf().startswith("root ::= ")


def test_a_constrained_request_carries_the_grammar_and_a_reply_outside_it_is_recorded() -> None:
    setting = attrs.evolve(setting_named("single"), constrained=True)
    target = "a (b + c)*"
    prose = Reply(("This is a regex that matches the pattern a *b",))

    async def scenario() -> tuple[ScriptedServer, object]:
        async with ScriptedServer(
            (Rule("TRAINING DATA", (prose, Reply((f"<ans>{target}</ans>",)))),)
        ) as server:
            async with make_client(server.base_url) as client:
                prepared = prepare_llm_run(
                    setting, Task("simple", target), LoopConfig(evaluate=False), client
                )
                state = await run(
                    prepared.task, prepared.learner, prepared.teacher, prepared.config
                )
                return server, state

    server, state = asyncio.run(scenario())
    expected = answer_grammar("simple", Task("simple", target).universe).gbnf()
    for body in server.requests:
        assert body["grammar"] == body["ebnf"] == body["structured_outputs"]["grammar"] == expected
    records = state.records  # type: ignore[attr-defined]
    assert OUTSIDE_GRAMMAR in records[0].memo["calls"][0]["deviations"]
    assert OUTSIDE_GRAMMAR not in records[1].memo["calls"][0]["deviations"]
    assert state.outcome == "equivalent"  # type: ignore[attr-defined]
