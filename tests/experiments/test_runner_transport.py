"""A server that breaks mid-run in any way but a wrong key is the infrastructure's failure too: 5xx
until the call's deadline, a reply nested over 64 levels (a reply over 32 MiB fails with the same
reason, ``malformed_response``, and takes seconds to send), a 429 asking to wait an hour. The unit
stays unfinished and listed, out of every rate, and ``experiment`` exits 2 naming the server's
error (each case ended as the model's 0 % with exit 0 before)."""

from __future__ import annotations

import asyncio
import functools
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import experiments.servers
from cli.main import main
from llm.servers import ServerPool
from tests.cegis.llm.scripted_server import Reply, Rule, ScriptedServer
from tests.experiments.runner_support import plan_data, synchronous, toml_text
from tests.llm.fake_server import Status, openai_error

BUSY = openai_error("The server is overloaded", type_="server_error")


def _nested(depth: int) -> dict[str, Any]:
    body: dict[str, Any] = {}
    for _ in range(depth):
        body = {"a": body}
    return body


FAILURES = {
    "5xx until the deadline": (Status(503, BUSY), "server_error"),
    "429 asking to wait an hour": (Status(429, BUSY, {"Retry-After": "3600"}), "rate_limited"),
    "JSON nested 100 levels": (Status(200, _nested(100)), "malformed_response"),
}


@pytest.mark.parametrize("name", list(FAILURES))
@synchronous
async def test_a_transport_failure_mid_run_leaves_the_unit_unfinished_and_exits_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    monkeypatch.setattr(
        experiments.servers, "ServerPool", functools.partial(ServerPool, cooldown=0.0)
    )  # no 30 s wait
    failure, says = FAILURES[name]
    # the first answer does not parse, so the unit (the deepest target, started first) asks again
    rules = (Rule("TRAINING DATA", (Reply.answer("a (b"), failure)),)
    async with ScriptedServer(rules) as server:
        data = plan_data(tmp_path, (server.base_url,))
        data["servers"][0]["call_timeout"] = 1.0  # a 5xx is retried until this deadline
        path = tmp_path / "plan.toml"
        path.write_text(toml_text(data), encoding="utf-8")
        args = ["experiment", str(path), "--out", str(tmp_path / "run")]
        result = await asyncio.to_thread(CliRunner().invoke, main, args)
    assert result.exit_code == 2, result.output
    assert says in result.output and "unfinished: single/" in result.output, result.output
    report = (tmp_path / "run" / "report.md").read_text(encoding="utf-8")
    row = next(line for line in report.splitlines() if line.startswith("| single |"))
    assert "%" not in row  # no success rate from a unit the server never let finish
    assert not (tmp_path / "run" / "errors.jsonl").exists()
