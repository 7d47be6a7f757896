"""A broken model server is the infrastructure's failure, never the model's 0 %: a wrong key, a dead
server or an unknown model stop the experiment (exit 2, the server's message) before any unit, and a
server failing mid-run leaves its units unfinished and listed, out of every success rate."""

from __future__ import annotations

import asyncio
import io
import socket
from pathlib import Path

import pytest
from aiohttp import web
from click.testing import CliRunner

from cli.main import main
from experiments.errors import ServerUnusable
from experiments.plan import ServerSpec, plan_from_data
from experiments.progress import Progress
from experiments.report import write_report
from experiments.runner import run_experiment
from experiments.servers import check_servers
from tests.cegis.llm.scripted_server import Reply, Rule, ScriptedServer
from tests.experiments.runner_support import plan_data, synchronous, toml_text
from tests.llm.fake_server import Status
from tests.loopback import LoopbackServer

WRONG_KEY = {
    "error": {
        "message": "Incorrect API key provided: sk-wr***",
        "type": "invalid_request_error",
        "code": "invalid_api_key",
    }
}


class Unauthorized(LoopbackServer):
    """Every request answered 401, as OpenAI answers a wrong key."""

    def __init__(self) -> None:
        self.chat_calls = 0
        super().__init__()

    async def _models(self, request: web.Request) -> web.StreamResponse:
        return web.json_response(WRONG_KEY, status=401)

    async def _chat(self, request: web.Request) -> web.StreamResponse:
        self.chat_calls += 1
        return web.json_response(WRONG_KEY, status=401)


async def _experiment(tmp_path: Path, data: dict[str, object]) -> tuple[int, str]:
    """``python -m cli experiment`` on ``data`` (in a thread: the test's loop serves the server)."""
    path = tmp_path / "plan.toml"
    path.write_text(toml_text(data), encoding="utf-8")
    args = ["experiment", str(path), "--out", str(tmp_path / "run")]
    result = await asyncio.to_thread(CliRunner().invoke, main, args)
    return result.exit_code, result.output


@synchronous
async def test_a_wrong_key_stops_the_experiment_before_any_unit(tmp_path: Path) -> None:
    async with Unauthorized() as server:
        code, output = await _experiment(tmp_path, plan_data(tmp_path, (server.base_url,)))
    assert code == 2, output
    assert "auth: Incorrect API key provided" in output and server.base_url in output
    assert (
        server.chat_calls == 0 and not (tmp_path / "run" / "records").exists()
    )  # not even the symbolic arm ran


@synchronous
async def test_a_model_the_server_does_not_serve_stops_the_experiment(tmp_path: Path) -> None:
    data = plan_data(tmp_path, ())
    async with ScriptedServer((), models=("served-model",)) as server:
        data["servers"] = [{"base_url": server.base_url, "concurrency": 1}]
        data["arms"][1]["model"] = "asked-model"
        code, output = await _experiment(tmp_path, data)
    assert code == 2 and "model 'asked-model' is not served (served: served-model)" in output, (
        output
    )


@synchronous
async def test_a_dead_server_is_named_with_its_failure() -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{probe.getsockname()[1]}/v1"
    with pytest.raises(ServerUnusable, match=r"cannot be used: .*connection"):
        await check_servers((ServerSpec(url),), [None], seconds=2.0)


@synchronous
async def test_a_refused_connection_is_reported_at_once_without_the_retry_schedule(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{probe.getsockname()[1]}/v1"
    waits: list[float] = []

    async def no_sleep(seconds: float) -> None:
        waits.append(seconds)

    monkeypatch.setattr(
        "experiments.servers.asyncio.sleep", no_sleep
    )  # only the preflight's backoff sleeps here
    with pytest.raises(ServerUnusable, match=r"cannot be used: connection: .*Connect call failed"):
        await check_servers((ServerSpec(url),), [None])
    assert waits == [], "a refused connection was retried"


@synchronous
async def test_a_server_failing_mid_run_leaves_its_units_unfinished_and_unscored(
    tmp_path: Path,
) -> None:
    # the first answer does not parse, so the unit (the deepest target, started first) asks again
    rules = (Rule("TRAINING DATA", (Reply.answer("a (b"), Status(401, WRONG_KEY))),)
    async with ScriptedServer(rules) as server:
        plan = plan_from_data(plan_data(tmp_path, (server.base_url,)))
        summary = await run_experiment(
            plan, tmp_path / "run", progress=Progress(4, out=io.StringIO())
        )
    assert (
        summary.errors == 0
        and len(summary.interrupted) == 1
        and summary.interrupted[0].startswith("single/")
    )
    assert summary.stopped is not None and "Incorrect API key" in summary.stopped
    assert summary.succeeded == 2  # the symbolic arm's; the LLM arm has no outcome at all
    report = write_report(tmp_path / "run").read_text(encoding="utf-8")
    row = next(line for line in report.splitlines() if line.startswith("| single |"))
    assert "%" not in row  # no success rate from units the server never let finish
    assert not (tmp_path / "run" / "errors.jsonl").exists()


@synchronous
async def test_a_resumed_run_is_served_from_its_call_log_when_the_server_is_down(
    tmp_path: Path,
) -> None:
    rules = (Rule("TRAINING DATA", (Reply.answer("a b*"),)),)
    async with ScriptedServer(rules) as server:
        first = await run_experiment(
            plan_from_data(plan_data(tmp_path, (server.base_url,))),
            tmp_path / "run",
            progress=Progress(4, out=io.StringIO()),
        )
    assert first.interrupted == () and first.ran == first.units and first.succeeded > 0
    for records in (tmp_path / "run" / "records" / "single").rglob("*.jsonl"):
        records.unlink()  # as if the runner had been killed before the LLM units wrote anything
    with socket.socket() as probe:  # the server is gone
        probe.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{probe.getsockname()[1]}/v1"
    said = io.StringIO()
    again = await run_experiment(
        plan_from_data(plan_data(tmp_path, (dead,))),
        tmp_path / "run",
        progress=Progress(4, out=said),
    )
    assert "resuming from the call log" in said.getvalue()
    assert (
        again.interrupted == ()
        and again.stopped is None
        and again.ran > 0
        and again.succeeded == first.succeeded
    )  # every call from the log


@synchronous
async def test_without_a_call_log_a_dead_server_stops_the_run_before_any_unit(
    tmp_path: Path,
) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{probe.getsockname()[1]}/v1"
    with pytest.raises(ServerUnusable):
        await run_experiment(
            plan_from_data(plan_data(tmp_path, (dead,))),
            tmp_path / "run",
            progress=Progress(4, out=io.StringIO()),
        )
    assert not (tmp_path / "run" / "records").exists()
