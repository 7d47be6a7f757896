"""The grammar of an answer block against the dialect parsers: for the simple dialect exactly the
parser's language minus repeated stars, deep nesting and texts longer than the budget allows (on
generated texts, both ways); for every dialect, each sentence drawn from the grammar parses (and,
in the python dialect, compiles with ``re``) and fits the completion budget, and every rule can
end within the bytes it has left; the request of a constrained setting carries it, and a reply
outside it is recorded as the server's deviation."""

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
from cegis.llm.answer_grammar import BLOCK_OVERHEAD, MAX_REGEX_BYTES, answer_grammar, regex_bytes
from cegis.llm.drafts import OUTSIDE_GRAMMAR
from cegis.llm.grammar import Alt, Chars, Expr, Grammar, Lit, Ref, Rep, Seq
from cegis.llm.settings import setting_named
from cegis.llm.setup import prepare_llm_run
from cegis.llm.token_automaton import MAX_DEPTH
from cegis.loop import run
from cegis.state import Task
from regexlang.charset import CharSet
from regexlang.dialects import Dialect, universe
from tests.cegis.llm.scripted_server import Reply, Rule, ScriptedServer
from tests.llm.support import make_client

ABE = CharSet.of("abe")
TOKENS = ["a", "b", "e", "p", "+", "|", ".", "*", "(", ")", "epsilon", "$", "?", "~"]
#: The budget of the exactness test: regexes of at most 24 bytes, so that generated texts fall
#: on both sides of the length bound.
BUDGET = 36
SIMPLE = answer_grammar("simple", ABE, budget=BUDGET)


def _parses(text: str, dialect: Dialect, alphabet: CharSet) -> bool:
    try:
        regexlang.parse(text, dialect, alphabet)
    except regexlang.RegexError:
        return False
    return True


def _nesting(text: str) -> int:
    depth = deepest = 0
    for char in text:
        depth += {"(": 1, ")": -1}.get(char, 0)
        deepest = max(deepest, depth)
    return deepest


def _intended(text: str) -> bool:
    """What the simple grammar is meant to accept (of texts with at most one space between
    tokens): the parser's language minus repeated postfix stars, nested at most MAX_DEPTH deep,
    in at most ``regex_bytes(BUDGET)`` bytes."""
    return (
        _parses(text, "simple", ABE)
        and "**" not in text.replace(" ", "")
        and _nesting(text) <= MAX_DEPTH
        and len(text.encode()) <= regex_bytes(BUDGET)
    )


@settings(max_examples=600, derandomize=True, deadline=None)
@given(
    st.booleans(),
    st.lists(st.tuples(st.sampled_from(TOKENS), st.booleans()), min_size=0, max_size=12),
)
def test_the_simple_grammar_accepts_exactly_the_intended_part_of_the_parsers_language(
    lead: bool, tokens: list[tuple[str, bool]]
) -> None:
    text = " " * lead + "".join(token + (" " if spaced else "") for token, spaced in tokens)
    assert SIMPLE.accepts(f"<ans>{text}</ans>") == _intended(text), text


def test_the_simple_grammar_leaves_out_exactly_repeated_stars_deep_nesting_and_long_texts() -> None:
    longest = regex_bytes(BUDGET)
    for text in ("a*", "(a*)*", "a* b*", "a * b", "((( a )))", "a" * longest, "a* " * 8):
        assert _intended(text) and SIMPLE.accepts(f"<ans>{text}</ans>"), text
    for text in ("a**", "a* *", "(((( a ))))", "a" * (longest + 1), "a*" * 13):
        assert _parses(text, "simple", ABE), text
        assert not SIMPLE.accepts(f"<ans>{text}</ans>"), text


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
@pytest.mark.parametrize(("blocks", "budget"), [(1, 48), (3, 120), (1, None)])
def test_every_sentence_of_the_grammar_parses_and_fits_the_budget(
    dialect: Dialect, alphabet: CharSet, blocks: int, budget: int | None
) -> None:
    grammar = answer_grammar(dialect, alphabet, blocks=blocks, budget=budget)
    rng = random.Random(52)
    for _ in range(80):
        sentence = _sentence(grammar, rng)
        assert grammar.accepts(sentence), sentence
        # the reply and the end-of-sequence token after it fit the completion budget
        assert budget is None or len(sentence.encode()) + 1 <= budget, sentence
        blocks_found = re.findall(r"<ans>(.*?)</ans>", sentence, re.DOTALL)
        assert 1 <= len(blocks_found) <= blocks
        assert "\n".join(f"<ans>{b}</ans>" for b in blocks_found) == sentence
        for block in blocks_found:
            assert _parses(block, dialect, alphabet), block
            if dialect == "python":
                re.compile(block)


def _lengths(grammar: Grammar) -> dict[str, tuple[int, float]]:
    """The shortest and longest sentence (in UTF-8 bytes) of every rule (inf: unbounded)."""
    found: dict[str, tuple[int, float]] = {}

    def of(expr: Expr) -> tuple[int, float]:
        if isinstance(expr, Lit):
            return len(expr.text.encode()), len(expr.text.encode())
        if isinstance(expr, Chars):
            sizes = [len(chr(c).encode()) for pair in expr.chars.intervals for c in pair]
            return min(sizes), max(sizes)
        if isinstance(expr, Ref):
            if expr.name not in found:
                found[expr.name] = of(grammar.rules[expr.name])
            return found[expr.name]
        if isinstance(expr, Seq):
            parts = [of(item) for item in expr.items]
            return sum(p[0] for p in parts), sum(p[1] for p in parts)
        if isinstance(expr, Alt):
            options = [of(option) for option in expr.options]
            return min(o[0] for o in options), max(o[1] for o in options)
        low, high = of(expr.item)
        return low * expr.low, high * expr.high if expr.high is not None else float("inf")

    for name in grammar.rules:
        of(Ref(name))
    return found


@pytest.mark.parametrize("dialect", ["simple", "extended", "python"])
def test_every_rule_of_a_bounded_regex_ends_within_the_bytes_it_has_left(dialect: Dialect) -> None:
    """A decoder that follows the grammar can always close the answer before the budget: each
    rule ``<state><depth>-<left>`` has a sentence, and none longer than ``left`` bytes."""
    grammar = answer_grammar(dialect, universe(dialect), budget=48)
    lengths = _lengths(grammar)
    bounded = [name for name in grammar.rules if re.fullmatch(r"[a-z]\d+-\d+", name)]
    assert len(bounded) > 100
    for name in bounded:
        left = int(name.split("-")[1])
        assert lengths[name][1] <= left, (name, lengths[name])
    assert lengths["root"][1] + 1 <= 48


def test_the_budget_sets_the_length_of_a_regex() -> None:
    assert regex_bytes(48) == 48 - BLOCK_OVERHEAD
    assert regex_bytes(240, blocks=10) == 24 - BLOCK_OVERHEAD
    assert regex_bytes(None) == regex_bytes(10_000) == MAX_REGEX_BYTES
    with pytest.raises(ValueError, match="leaves no room for 10 answer block"):
        answer_grammar("simple", ABE, blocks=10, budget=100)
    short = answer_grammar("simple", ABE, budget=BLOCK_OVERHEAD + 3)
    assert short.accepts("<ans>a*b</ans>") and not short.accepts("<ans>a*bb</ans>")


def test_one_quantifier_and_one_complement_in_the_other_dialects() -> None:
    ext = answer_grammar("extended", universe("extended"))
    py = answer_grammar("python", universe("python"))
    assert ext.accepts("<ans>~(a*)+b{2,3}</ans>") and py.accepts("<ans>a*?b{2,}?(?:c+)*</ans>")
    for reply in ("<ans>a*+</ans>", "<ans>~~a</ans>", "<ans>a{2}*</ans>"):
        assert not ext.accepts(reply), reply
    for reply in ("<ans>a**</ans>", "<ans>a*??</ans>", "<ans>a{2}{3}</ans>"):
        assert not py.accepts(reply), reply


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
    budget = setting.sampling.max_completion_tokens
    expected = answer_grammar("simple", Task("simple", target).universe, budget=budget).gbnf()
    for body in server.requests:
        assert body["grammar"] == body["ebnf"] == body["structured_outputs"]["grammar"] == expected
    records = state.records  # type: ignore[attr-defined]
    assert OUTSIDE_GRAMMAR in records[0].memo["calls"][0]["deviations"]
    assert OUTSIDE_GRAMMAR not in records[1].memo["calls"][0]["deviations"]
    assert state.outcome == "equivalent"  # type: ignore[attr-defined]
