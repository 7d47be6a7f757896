"""The ``--learner llm`` options and run: settings, call-log modes, setup errors without the key."""

from __future__ import annotations

import asyncio
from pathlib import Path

import attrs
import click
import pytest
from click.testing import CliRunner

from cegis.config import LoopConfig
from cegis.state import EpochState, Task
from cli.errors import BadInput
from cli.learn_llm import run_llm
from cli.llm_options import LLMOptions, llm_options, options_from
from oracle.exact import ExactTeacher
from tests.cegis.llm.scripted_server import Reply, Rule, ScriptedServer

TARGET = "a (b + c)*"
SECRET = "sk-very-secret-key"


@click.command()
@llm_options
def echo(**options: object) -> None:
    click.echo(repr(options_from(**options)))  # type: ignore[arg-type]


def test_options_parse_into_one_value() -> None:
    args = [
        "--setting",
        "guarded",
        "--base-url",
        "http://h:1/v1",
        "--call-log",
        "x.sqlite",
        "--call-log-mode",
        "replay",
        "--temperature",
        "0.5",
        "--reasoning-effort",
        "low",
    ]
    result = CliRunner().invoke(echo, args)
    assert result.exit_code == 0, result.output
    expected = LLMOptions(
        "guarded", "http://h:1/v1", None, Path("x.sqlite"), "replay", 0.5, None, "low", ""
    )
    assert result.output.strip() == repr(expected)
    assert CliRunner().invoke(echo, ["--setting", "nonsense"]).exit_code == 2


async def _run(options: LLMOptions) -> EpochState:
    teacher = ExactTeacher.from_regex(TARGET, "simple")
    return await run_llm(Task("simple", TARGET), teacher, LoopConfig(evaluate=False), options)


def test_a_recorded_run_replays_without_a_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    log = tmp_path / "calls.sqlite"

    async def scenario() -> None:
        async with ScriptedServer((Rule("TRAINING DATA", (Reply.answer(TARGET),)),)) as server:
            state = await _run(LLMOptions("single", server.base_url, call_log=log))
            assert (
                state.hypothesis == TARGET
                and server.headers[0]["Authorization"] == f"Bearer {SECRET}"
            )
        replayed = await _run(
            LLMOptions("single", "http://127.0.0.1:9/v1", call_log=log, call_log_mode="replay")
        )
        assert replayed.hypothesis == TARGET and replayed.outcome == "equivalent"

    asyncio.run(scenario())
    assert SECRET.encode() not in log.read_bytes()


def test_setup_failures_are_one_line_bad_input_without_the_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)

    async def failure(options: LLMOptions, models: tuple[str, ...] = ("scripted-model",)) -> str:
        async with ScriptedServer((), models=models) as server:
            options = attrs.evolve(options, base_url=options.base_url or server.base_url)
            with pytest.raises(BadInput) as caught:
                await _run(options)
            return caught.value.message

    empty_log = tmp_path / "empty.sqlite"
    messages = [
        asyncio.run(failure(LLMOptions("single", call_log_mode="replay"))),
        asyncio.run(failure(LLMOptions("acegis-diagnostic"))),
        asyncio.run(failure(LLMOptions("single"), models=("m1", "m2"))),
        asyncio.run(
            failure(
                LLMOptions("single", "http://127.0.0.1:9/v1", "scripted-model", empty_log, "replay")
            )
        ),
        asyncio.run(failure(LLMOptions("guarded-stateless", temperature=0.0))),
    ]
    assert "needs --call-log" in messages[0] and "--description" in messages[1]
    assert "m1, m2" in messages[2] and "no logged call" in messages[3]
    assert "sampling.temperature > 0" in messages[4]
    assert all(SECRET not in m and "\n" not in m for m in messages)


def test_the_guarded_setting_falls_back_to_the_registered_symbolic_learner() -> None:
    async def scenario() -> EpochState:
        async with ScriptedServer((Rule("TRAINING DATA", (Reply.answer("(("),)),)) as server:
            return await _run(LLMOptions("guarded", server.base_url))

    state = asyncio.run(scenario())
    record = state.records[0]
    # every draw fails to parse; the symbolic fallback answers within the whole contract, its length
    # bound (60) included (a fallback past the bound is a recorded violation: test_paper_protocol)
    assert record.memo["draws"] == 5 and record.memo["fallback"] == "symbolic"
    assert (
        record.failure is None
        and len(record.proposal_text) <= 60
        and record.memo.get("violation") is None
    )


def test_the_full_acegis_setting_hardens_its_answer_after_the_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tests.cegis.llm.test_acegis import DESCRIPTION, GOLD, RULES

    monkeypatch.setenv("OPENAI_API_KEY", SECRET)

    async def scenario() -> EpochState:
        async with ScriptedServer(RULES) as server:
            teacher = ExactTeacher.from_regex(GOLD, "python")
            options = LLMOptions("acegis-full", server.base_url, description=DESCRIPTION)
            return await run_llm(Task("python", GOLD), teacher, LoopConfig(evaluate=False), options)

    state = asyncio.run(scenario())
    # the loop accepts "[a-z]*dog" on the hidden tests; hardening's probe "dog" repairs it to the gold
    assert [r.proposal_text for r in state.records] == ["dog", "[a-z]*dog", GOLD]


def test_learn_without_a_regex_says_why_the_last_proposal_failed() -> None:
    from cli.learn import learn
    from tests.cegis.llm.threaded import serving

    prose = Reply(("This is a regex that matches the pattern a *b",))
    with serving(ScriptedServer((Rule("TRAINING DATA", (prose,)),))) as server:
        args = ["--target", TARGET, "--dialect", "simple", "--learner", "llm"]
        args += ["--setting", "single", "--base-url", server.base_url, "--max-epochs", "2"]
        result = CliRunner().invoke(learn, args)
    assert result.exit_code == 1, result.output
    assert "regex:    (none)" in result.output
    assert "why:      the last proposal failed: no regex: the reply has no <ans>" in result.output
