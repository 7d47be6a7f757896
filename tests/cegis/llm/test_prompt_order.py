"""Every kind of prompt the learner sends, in the section order of the seed paper's template
(Appendix F: task, input format, syntax, strategy, constraints, the agentic blocks, output format,
training data last), as a loopback server receives it. Run with ``pytest -s`` to read them."""

from __future__ import annotations

import asyncio
from typing import Any

import attrs

from cegis.config import LoopConfig
from cegis.llm.settings import setting_named
from cegis.llm.setup import prepare_llm_run
from cegis.loop import run
from cegis.state import EpochState, Task
from oracle.testsuite import SuiteOracle
from tests.cegis.llm import support
from tests.cegis.llm.scripted_server import Reply, Rule, ScriptedServer
from tests.llm.support import make_client

#: Appendix F's sections, in its order (the reflection, repair and several-candidates blocks are
#: its "agentic updates", placed where its template has ``{agentic_reflection_instr}``).
APPENDIX_F = (
    "TASK",
    "INPUT FORMAT",
    "REGEX SYNTAX",
    "INFERENCE STRATEGY",
    "CONSTRAINTS",
    "REFLECTION ON THE PREVIOUS EPOCH",
    "REPAIR OF THE PREVIOUS ATTEMPT",
    "SEVERAL CANDIDATES",
    "OUTPUT FORMAT",
    "TRAINING DATA",
)
BASE = ("TASK", "INPUT FORMAT", "REGEX SYNTAX", "INFERENCE STRATEGY", "CONSTRAINTS")
END = ("OUTPUT FORMAT", "TRAINING DATA")
#: A-CEGIS has no template in the papers: its system message keeps Appendix F's order (task,
#: syntax, output format), the description takes the place of the data, and turn 2 continues the
#: chat: the model's reply, then the oracle's feedback on it.
ACEGIS_TURN_2 = (
    "TASK",
    "REGEX SYNTAX",
    "OUTPUT FORMAT",
    "DESCRIPTION",
    "(reply)",
    "PREVIOUS ATTEMPT",
)
KNOWN = (*APPENDIX_F, "DESCRIPTION", "PREVIOUS ATTEMPT")


def sections(body: dict[str, Any]) -> list[str]:
    """The section headings of a chat request, in order; a model's reply is ``(reply)``."""
    found = []
    for message in body["messages"]:
        if message["role"] == "assistant":
            found.append("(reply)")
            continue
        for block in message["content"].split("\n\n"):
            heading = block.splitlines()[0]
            known = next((name for name in KNOWN if heading.startswith(name)), None)
            assert known is not None, f"a block without a known heading: {heading!r}"
            found.append(known)
    return found


def _requests(
    rules: tuple[Rule, ...], name: str, epochs: int, **changes: Any
) -> list[dict[str, Any]]:
    caught: list[dict[str, Any]] = []

    def check(server: ScriptedServer, state: EpochState) -> None:
        caught.extend(server.requests)

    support.learn(
        rules, attrs.evolve(setting_named(name), **changes), epochs=epochs, check=check, vllm=True
    )
    return caught


def _acegis_turn_2() -> dict[str, Any]:
    gold, description = "[a-z]+dog", "one or more lowercase letters followed by dog"

    async def scenario() -> dict[str, Any]:
        async with ScriptedServer((Rule("DESCRIPTION", (Reply.answer("dog"),)),)) as server:
            async with make_client(server.base_url) as client:
                suite = SuiteOracle.from_gold(gold, description=description)
                config = LoopConfig(evaluate=False)
                prepared = prepare_llm_run(
                    "acegis-diagnostic",
                    Task("python", gold),
                    config,
                    client,
                    description=description,
                    suite=suite,
                )
                loop = attrs.evolve(
                    prepared.config, budgets=attrs.evolve(prepared.config.budgets, epochs=2)
                )
                await run(prepared.task, prepared.learner, prepared.teacher, loop)
                return server.requests[1]

    return asyncio.run(scenario())


def _printed(kind: str, body: dict[str, Any]) -> None:
    print(f"\n===== {kind} =====")
    for message in body["messages"]:
        print(f"--- {message['role']} ---\n{message['content']}")


def test_every_prompt_kind_follows_appendix_f() -> None:
    wrong = (Rule("REPAIR", (Reply.answer("c"),)), Rule("TRAINING DATA", (Reply.answer("c"),)))
    agentic = _requests(
        wrong, "agentic", epochs=2
    )  # epoch 0: the first call and 2 repairs; epoch 1 reflects
    ten = Reply(
        ("<reasoning>ten</reasoning>" + "".join(f"<ans>{'a ' * k}b</ans>" for k in range(1, 11)),)
    )
    prompts = {
        "initial": (agentic[0], (*BASE, *END)),
        "repair": (agentic[1], (*BASE, "REPAIR OF THE PREVIOUS ATTEMPT", *END)),
        "reflection": (agentic[3], (*BASE, "REFLECTION ON THE PREVIOUS EPOCH", *END)),
        "reflection and repair": (
            agentic[4],
            (*BASE, "REFLECTION ON THE PREVIOUS EPOCH", "REPAIR OF THE PREVIOUS ATTEMPT", *END),
        ),
        "multi": (
            _requests((Rule("TRAINING DATA", (ten,)),), "multi", epochs=1)[0],
            (*BASE, "SEVERAL CANDIDATES", *END),
        ),
        "standard": (
            _requests((Rule("TRAINING DATA", (Reply.answer("c"),)),), "standard", epochs=1)[0],
            (*BASE, *END),
        ),
        "acegis turn 2": (_acegis_turn_2(), ACEGIS_TURN_2),
    }
    for kind, (body, expected) in prompts.items():
        _printed(kind, body)
        found = sections(body)
        assert found == list(expected), kind
        if kind != "acegis turn 2":
            ranks = [APPENDIX_F.index(name) for name in found]
            assert ranks == sorted(ranks), f"{kind}: {found} is not in Appendix F's order"
