"""The LLM learner compiles every answer to check it against the examples, and its proposal hands
that DFA on (``Proposal.automaton``) so the teacher does not compile the hypothesis again; the DFA
is the language of the answer, checked against Python's ``re`` on every short string."""

from __future__ import annotations

import asyncio
import itertools
import re

from cegis.config import LoopConfig
from cegis.learner import LearnerContext, Proposal
from cegis.llm.memo import LLMMemo
from cegis.llm.settings import setting_named
from cegis.llm.setup import prepare_llm_run
from cegis.state import Task
from cegis.symbolic.union import UnionLearner
from oracle.examples import Example
from regexlang.dialects import universe
from tests.cegis.llm.scripted_server import Reply, Rule, ScriptedServer
from tests.llm.support import fast_retries, make_client

ANSWER = "a (b + c)*"
EXAMPLES = (Example("abc", True), Example("ac", True), Example("b", False), Example("", False))


def _proposal(setting: str) -> Proposal[LLMMemo]:
    async def scenario() -> Proposal[LLMMemo]:
        async with ScriptedServer((Rule("", (Reply.answer(ANSWER),)),)) as scripted:
            async with make_client(scripted.base_url, retry=fast_retries(2)) as client:
                prepared = prepare_llm_run(
                    setting_named(setting),
                    Task("simple", ANSWER),
                    LoopConfig(),
                    client,
                    fallbacks=(UnionLearner(),),
                )
                context = LearnerContext[LLMMemo]("simple", universe("simple"), EXAMPLES)
                return await prepared.learner.propose(context)

    return asyncio.run(scenario())


def test_an_llm_proposal_carries_the_automaton_of_its_answer() -> None:
    for setting in ("single", "agentic"):
        proposal = _proposal(setting)
        assert proposal.ok and proposal.text == ANSWER and proposal.automaton is not None
        reference = re.compile(ANSWER.replace(" ", "").replace("+", "|"))
        for n in range(6):
            for letters in itertools.product("abc", repeat=n):
                string = "".join(letters)
                expected = reference.fullmatch(string) is not None
                assert proposal.automaton.accepts(string) == expected, (setting, string)
