"""No key reaches the run directory: after a run against a loopback server that echoes the key in
an error body and inside its completions, no file of the run (plan copy, records, fingerprints,
call log, report, errors) holds it. A key in the base URL itself is refused at load
(``tests/cli/test_url_credentials.py``)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from experiments.plan import plan_from_data
from experiments.progress import Progress
from experiments.report.write import write_report
from experiments.runner import run_experiment
from llm.transport import REDACTED
from tests.cegis.llm.scripted_server import Reply, Rule, ScriptedServer
from tests.experiments.runner_support import plan_data, synchronous
from tests.llm.fake_server import Status

SECRET = "sk-w50sec-0123456789"
ECHOES = (
    Rule(
        "TRAINING DATA",
        (
            Status(400, {"error": {"message": f"unsupported header Bearer {SECRET}"}}),
            Reply.answer("a b*", reasoning=f"the key was {SECRET}"),
        ),
    ),
)


@synchronous
async def test_a_key_echoed_by_the_server_is_written_nowhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("W50SEC_API_KEY", SECRET)
    run_dir = tmp_path / "run"
    async with ScriptedServer(ECHOES) as server:
        data = plan_data(tmp_path, (server.base_url,))
        data["servers"][0]["api_key_env"] = "W50SEC_API_KEY"
        await run_experiment(plan_from_data(data), run_dir, progress=Progress(2, out=io.StringIO()))
    write_report(run_dir)
    assert {headers["Authorization"] for headers in server.headers} == {f"Bearer {SECRET}"}
    files = [path for path in run_dir.rglob("*") if path.is_file()]
    assert any(path.suffix == ".sqlite3" for path in files) and len(files) > 3
    assert [path for path in files if SECRET.encode() in path.read_bytes()] == []
    # the echoes did reach the run, in their redacted form
    assert any(f"key was {REDACTED}".encode() in path.read_bytes() for path in files)
