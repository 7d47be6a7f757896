"""The memo's type is a parameter of the learner protocol, so mypy checks a user's learner: it
must read back the memo it proposes, and a restartable learner must encode and decode that memo.
Each snippet is a user's module checked with ``mypy --strict``, as CI checks ours."""

from __future__ import annotations

from pathlib import Path

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


def test_mypy_rejects_a_learner_whose_memo_types_do_not_match(tmp_path: Path) -> None:
    snippets = {"good": GOOD, "proposes": PROPOSES_ANOTHER_MEMO, "decodes": DECODES_ANOTHER_MEMO}
    assert DECODES_ANOTHER_MEMO != GOOD
    for name, text in snippets.items():
        (tmp_path / f"{name}.py").write_text(text)
    files = [str(tmp_path / f"{name}.py") for name in snippets]
    out, err, _ = mypy_api.run(
        ["--strict", "--python-version", "3.11", "--cache-dir", str(tmp_path / "cache"), *files]
    )
    errors = [line for line in out.splitlines() if ": error:" in line]
    assert not [e for e in errors if "good.py" in e], out + err
    assert any("proposes.py" in e and 'of "run"' in e for e in errors), out + err
    assert any("decodes.py" in e and "decode_memo" in e for e in errors), out + err
