"""Issues 21 and 35 end to end (slow): ``python -m cli experiment`` on the Table 1 (Simple), the
multi-candidate and the A-CEGIS diagnostic plans against the vLLM-like loopback model of
:mod:`tests.cegis.llm.vllm_e2e`."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from experiments.data_dir import DEFAULT_DATA_DIR
from tests.cegis.llm.vllm_e2e import run_e2e


@pytest.mark.slow
def test_table1_and_multi_candidate_against_a_vllm_like_server(tmp_path: Path) -> None:
    if not (DEFAULT_DATA_DIR / "cegml" / "regex_list.json").exists():
        pytest.skip(f"shared data folder not found at {DEFAULT_DATA_DIR}")
    result = asyncio.run(run_e2e(tmp_path))
    server, table1, multi, acegis = (
        result["server"],
        result["table1-simple"],
        result["multi-candidate"],
        result["acegis"],
    )
    assert server["requests_with_hidden_reasoning"] == 0  # no hidden reasoning in any later prompt
    assert server["requests_with_n"] == 0 and server["requests_without_seed"] == 0
    assert table1["agentic"]["calls_per_epoch"] == [
        3
    ]  # the model never fits: every epoch spends 3 calls
    # every Standard reply is malformed; the schedule still reaches 3000 examples (or every string
    # there is: the first target's alphabet {a} has 33 strings of length at most 32)
    assert max(table1["standard"]["final_examples"]) == 3000
    # the decoy with the best RepairScore comes first, the target second: only the decoy meets the teacher
    assert (
        multi["multi"]["runs"] > 0
        and multi["multi"]["succeeded"] == 0
        and multi["multi"]["calls_per_epoch"] == [1]
    )
    assert multi["multi"]["selected"] == [0] and multi["multi"]["accepted_candidates"] == []
    assert (
        multi["multi"]["decoy_hypotheses"] == multi["multi"]["epochs"]
    )  # the model knew the target every time
    # A-CEGIS under the test suite: 7 wrong turns, no random string, every witness a hidden test
    assert acegis["diagnostic-hardened"]["turns"] == [7, 7] and acegis["diagnostic-hardened"][
        "initial_examples"
    ] == [0, 0]
    assert acegis["diagnostic-hardened"]["random_epochs"] == 0
    assert acegis["witnesses_shown"] > 0 and acegis["witnesses_not_tests"] == 0
    for column in (
        "fallback trigger rate (runs)",
        "success without fallback runs",
        "conformance over K draws",
    ):
        assert column in result["report"]
