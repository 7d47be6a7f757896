"""A server that answers with another model, more choices than ``n`` and a ``finish_reason`` that
is not a string: every departure is in the records and in the report's deviation table."""

from __future__ import annotations

import io
import json
from pathlib import Path

from aiohttp import web

from experiments.plan import plan_from_data
from experiments.progress import Progress
from experiments.report import write_report
from experiments.runner import run_experiment
from tests.cegis.llm.scripted_server import ScriptedServer
from tests.experiments.runner_support import RULES, plan_data, synchronous


class DepartingServer(ScriptedServer):
    """The scripted server whose replies come from another model, three at a time, with an
    object for ``finish_reason``."""

    async def _chat(self, request: web.Request) -> web.StreamResponse:
        response = await super()._chat(request)
        assert isinstance(response, web.Response) and response.text is not None
        data = json.loads(response.text)
        if "choices" in data:
            data["model"] = "impostor-model"
            data["choices"] = [
                data["choices"][0] | {"index": i, "finish_reason": {"kind": "stop"}}
                for i in range(3)
            ]
        return web.json_response(data, status=response.status)


@synchronous
async def test_departures_from_the_request_are_recorded_and_reported(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    async with DepartingServer(RULES) as server:
        plan = plan_from_data(plan_data(tmp_path, (server.base_url,)))
        await run_experiment(plan, run_dir, progress=Progress(4, out=io.StringIO()))
    report = write_report(run_dir).read_text(encoding="utf-8")
    section = report.split("## Server deviations from the request", 1)[1]
    row = next(line for line in section.splitlines() if line.startswith("| single |"))
    assert row == (
        "| single | 4 | 4 | read as unknown (4); the server answers with another model 'impostor-model' (4);"
        " the server ignores n (4) |"
    )
