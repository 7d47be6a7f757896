"""``learn --learner llm`` with a server that breaks once the run has started: a 401 on the chat
call (while ``/v1/models`` answers) or a transport failure is the server's error, exit 2, never the
model's "not learned" (exit 1); the server is checked before the run with a call log too."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from tests.cegis.llm.scripted_server import Rule, ScriptedServer
from tests.experiments.runner_support import synchronous
from tests.experiments.test_runner_servers import WRONG_KEY, Unauthorized
from tests.llm.fake_server import Status, openai_error

FAILURES = {
    "401 on the chat call": (Status(401, WRONG_KEY), "auth: Incorrect API key provided"),
    "429 asking to wait an hour": (
        Status(429, openai_error("slow down"), {"Retry-After": "3600"}),
        "rate_limited: slow down",
    ),
}


async def _learn(*args: str) -> tuple[int, str]:
    result = await asyncio.to_thread(
        CliRunner().invoke, main, ["learn", "--target", "ab*", "--learner", "llm", *args]
    )
    assert not isinstance(result.exception, Exception) or isinstance(
        result.exception, SystemExit
    ), result.exception
    return result.exit_code, result.output


@pytest.mark.parametrize("name", list(FAILURES))
@synchronous
async def test_a_server_failing_mid_run_is_its_error_with_exit_2(name: str) -> None:
    failure, says = FAILURES[name]
    async with ScriptedServer((Rule("", (failure,)),)) as server:
        code, output = await _learn("--base-url", server.base_url, "--setting", "single")
    assert code == 2 and says in output and "failed mid-run" in output, output
    assert "not learned" not in output and server.chat_calls >= 1


@synchronous
async def test_the_server_is_checked_before_a_run_with_a_call_log(tmp_path: Path) -> None:
    async with Unauthorized() as server:
        code, output = await _learn(
            "--base-url", server.base_url, "--call-log", str(tmp_path / "calls.sqlite3")
        )
    assert code == 2 and "auth: Incorrect API key provided" in output, output
    assert server.chat_calls == 0  # refused before any unit: the preflight ran
