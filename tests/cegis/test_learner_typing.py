"""The memo's type is a parameter of the learner protocol, so mypy checks a user's learner: it
must read back the memo it proposes, and a restartable learner must encode and decode that memo.
Each snippet is a user's module checked with ``mypy --strict``, as CI checks ours."""

from __future__ import annotations

from pathlib import Path

import pytest
from mypy import api as mypy_api

HEADER = """
from __future__ import annotations

import asyncio

import attrs

from cegis import LoopConfig, Task, run
from cegis.learner import LearnerContext, Proposal, RestartableLearner
from oracle import ExactTeacher


@attrs.frozen
class Count:
    seen: int
"""

RUN = """

teacher = ExactTeacher.from_regex("ab*", "python")
state = asyncio.run(run(Task("python", "ab*"), Counting(), teacher, LoopConfig()))
"""

GOOD = (
    HEADER
    + """

class Counting(RestartableLearner[Count]):
    name = "counting"

    async def propose(self, context: LearnerContext[Count]) -> Proposal[Count]:
        seen = 0 if context.previous is None or context.previous.memo is None else context.previous.memo.seen
        return Proposal(None, memo=Count(seen + 1))

    def encode_memo(self, memo: Count) -> object:
        return memo.seen

    def decode_memo(self, data: object) -> Count | None:
        return Count(data) if isinstance(data, int) else None
"""
    + RUN
)

#: The memo proposed is not the memo read back.
PROPOSES_ANOTHER_MEMO = (
    HEADER
    + """

class Counting:
    name = "counting"

    async def propose(self, context: LearnerContext[Count]) -> Proposal[str]:
        return Proposal(None, memo="one more")
"""
    + RUN
)

#: The codec decodes another memo than the learner proposes.
DECODES_ANOTHER_MEMO = GOOD.replace(
    "    def decode_memo(self, data: object) -> Count | None:\n"
    "        return Count(data) if isinstance(data, int) else None",
    "    def decode_memo(self, data: object) -> str | None:\n        return str(data)",
)


#: Each of our learners, where it lives, its own memo type, the protocol it declares, and another
#: learner's memo type to offer it instead.
LEARNERS = {
    "lstar": ("cegis.symbolic.lstar", "LStarLearner", "Table", "RestartableLearner", "LLMMemo"),
    "union": ("cegis.symbolic.union", "UnionLearner", "None", "Learner", "Table"),
    "chain": ("cegis.symbolic.chain", "FirstConsistent", "ChainMemo", "Learner", "Table"),
    "enumerative": (
        "cegis.symbolic.enumerative.learner",
        "EnumerativeLearner",
        "None",
        "Learner",
        "MergingMemo",
    ),
    "llm": ("cegis.llm.learner", "LLMLearner", "LLMMemo", "RestartableLearner", "ChainMemo"),
    "merging": (
        "cegis.symbolic.merging.merger",
        "MergingLearner",
        "MergingMemo",
        "RestartableLearner",
        "Table",
    ),
}

LEARNER_HEADER = """
from __future__ import annotations

from cegis.learner import Learner, LearnerContext, Proposal, RestartableLearner
from cegis.llm.learner import LLMLearner
from cegis.llm.memo import LLMMemo
from cegis.symbolic.chain import ChainMemo, FirstConsistent
from cegis.symbolic.enumerative.learner import EnumerativeLearner
from cegis.symbolic.lstar import LStarLearner, Table
from cegis.symbolic.merging.merger import MergingLearner, MergingMemo
from cegis.symbolic.union import UnionLearner
"""

#: A learner used with its own memo: mypy accepts it.
OWN_MEMO = """

def as_declared(learner: {cls}) -> {protocol}[{memo}]:
    return learner


async def reads_its_own(learner: {cls}, context: LearnerContext[{memo}]) -> Proposal[{memo}]:
    return await learner.propose(context)
"""

#: A learner offered another learner's memo: mypy must reject both uses.
OTHER_MEMO = """

def as_another(learner: {cls}) -> Learner[{other}]:
    return learner  # refused: another memo


async def reads_another(learner: {cls}, context: LearnerContext[{other}]) -> None:
    await learner.propose(context)  # refused: another memo
"""

#: The teachers and membership oracles we ship declare the optional protocols the loop asks for.
PROTOCOLS = """
from __future__ import annotations

from cegis.llm.setup import TestsOnly
from oracle.protocol import CountedMembership, CountsQueries, ShowsOnlyTests


def shows_only_tests(teacher: TestsOnly) -> ShowsOnlyTests:
    return teacher


def counts_queries(oracle: CountedMembership) -> CountsQueries:
    return oracle
"""


@pytest.fixture(scope="module")
def mypy_errors(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, list[str]], str]:
    """Every snippet checked by one ``mypy --strict`` run: the error lines of each, by name."""
    folder = tmp_path_factory.mktemp("snippets")
    snippets = {
        "good": GOOD,
        "proposes": PROPOSES_ANOTHER_MEMO,
        "decodes": DECODES_ANOTHER_MEMO,
        "protocols": PROTOCOLS,
    }
    for name, (_module, cls, memo, protocol, other) in LEARNERS.items():
        fields = {"cls": cls, "memo": memo, "protocol": protocol, "other": other}
        snippets[f"own_{name}"] = LEARNER_HEADER + OWN_MEMO.format(**fields)
        snippets[f"other_{name}"] = LEARNER_HEADER + OTHER_MEMO.format(**fields)
    for name, text in snippets.items():
        (folder / f"{name}.py").write_text(text)
    files = [str(folder / f"{name}.py") for name in snippets]
    out, err, _ = mypy_api.run(
        ["--strict", "--python-version", "3.11", "--cache-dir", str(folder / "cache"), *files]
    )
    errors: dict[str, list[str]] = {name: [] for name in snippets}
    for line in out.splitlines():
        if ": error:" in line:
            errors[Path(line.split(":", 1)[0]).stem].append(line)
    return errors, out + err


def test_mypy_rejects_a_learner_whose_memo_types_do_not_match(
    mypy_errors: tuple[dict[str, list[str]], str],
) -> None:
    errors, output = mypy_errors
    assert DECODES_ANOTHER_MEMO != GOOD
    assert not errors["good"], output
    assert any('of "run"' in e for e in errors["proposes"]), output
    assert any("decode_memo" in e for e in errors["decodes"]), output


@pytest.mark.parametrize("name", LEARNERS)
def test_each_learner_has_its_own_memo_type_and_mypy_rejects_another(
    name: str, mypy_errors: tuple[dict[str, list[str]], str]
) -> None:
    errors, output = mypy_errors
    refused = {
        number
        for number, line in enumerate((LEARNER_HEADER + OTHER_MEMO).splitlines(), 1)
        if line.endswith("# refused: another memo")
    }
    assert not errors[f"own_{name}"], output
    assert {int(e.split(":")[1]) for e in errors[f"other_{name}"]} == refused, output


def test_our_teachers_and_oracles_declare_the_protocols_the_loop_asks_for(
    mypy_errors: tuple[dict[str, list[str]], str],
) -> None:
    errors, output = mypy_errors
    assert not errors["protocols"], output
