"""The LLM settings record the ReDoS verdict of every proposal in its epoch record's memo."""

from __future__ import annotations

import json

from cegis.llm.memo import LLMMemo, decoded, encoded
from cegis.llm.settings import setting_named
from cegis.records import epoch_json
from cegis.state import EpochState
from tests.cegis.llm.scripted_server import Reply, Rule, ScriptedServer
from tests.cegis.llm.support import learn

NESTED = "(a a*)* b"  # exactly a a* b in the simple dialect; Python's re backtracks exponentially


def test_a_proposal_records_the_verdict_of_its_python_print() -> None:
    def check(_: ScriptedServer, state: EpochState) -> None:
        (record,) = state.records
        line = json.loads(json.dumps(epoch_json(record, "run")))
        redos = line["memo"]["redos"]
        assert (redos["verdict"], redos["match"], redos["flavor"]) == (
            "exponential",
            "fullmatch",
            "python",
        )
        memo = decoded(line["memo"])
        assert memo is not None and memo.redos == redos  # a resumed run reads it back

    learn(
        (Rule("TRAINING DATA", (Reply.answer(NESTED),)),),
        setting_named("single"),
        target=NESTED,
        check=check,
    )


def test_a_memo_without_a_verdict_encodes_as_before() -> None:
    memo = LLMMemo(seen=3)
    assert "redos" not in encoded(memo)
    assert decoded(encoded(memo)) == memo
    with_verdict = LLMMemo(seen=3, redos={"verdict": "linear"})
    assert decoded(json.loads(json.dumps(encoded(with_verdict)))) == with_verdict
