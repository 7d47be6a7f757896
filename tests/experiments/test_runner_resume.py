"""Resume: an experiment killed with SIGKILL mid-run and started again reruns no finished unit and
pays no model call twice (the scripted server's count and the call log agree with a whole run).

The LLM arm is Agentic, whose first draw of every epoch is a syntax error: the kill lands while
the repair call is pending, after the first call was paid but before the epoch's record exists,
so only the call log can spare paying that call again."""

from __future__ import annotations

import asyncio
import io
import os
import signal
import sys
from pathlib import Path

from aiohttp import web

from experiments.plan import load_plan, plan_from_data
from experiments.progress import Progress
from experiments.runner import CALL_LOG, run_experiment
from experiments.units import MANIFEST
from llm.calllog import CallLog
from tests.cegis.llm.scripted_server import Rule, ScriptedServer
from tests.experiments.runner_support import REPAIR_RULES, plan_data, synchronous, toml_text

REPOSITORY = Path(__file__).resolve().parents[2]
SEEDS = 2


class HoldingServer(ScriptedServer):
    """Answers the first ``answered`` requests; later ones wait, unanswered and unpaid, until
    :meth:`release` (the test kills the client meanwhile)."""

    def __init__(self, rules: tuple[Rule, ...], answered: int) -> None:
        super().__init__(rules)
        self.answered = answered
        self.holding = asyncio.Event()
        self.released = asyncio.Event()

    def release(self) -> None:
        self.answered = sys.maxsize
        self.released.set()

    async def _chat(self, request: web.Request) -> web.StreamResponse:
        if self.chat_calls >= self.answered:
            self.holding.set()
            await self.released.wait()
            return web.json_response({"error": "the caller is gone"}, status=503)
        return await super()._chat(request)


async def _whole_run(folder: Path) -> int:
    """The calls an uninterrupted run of the experiment pays."""
    async with ScriptedServer(REPAIR_RULES) as server:
        plan = plan_from_data(plan_data(folder, (server.base_url,), seeds=SEEDS, setting="agentic"))
        await run_experiment(plan, folder / "run", progress=Progress(4 * SEEDS, out=io.StringIO()))
    return server.chat_calls


@synchronous
async def test_a_killed_experiment_resumes_without_rerunning_or_paying_twice(
    tmp_path: Path,
) -> None:
    (tmp_path / "whole").mkdir()
    whole = await _whole_run(tmp_path / "whole")
    run_dir = tmp_path / "run"
    server = HoldingServer(REPAIR_RULES, answered=1)
    async with server:
        plan_file = tmp_path / "tiny.toml"
        data = plan_data(tmp_path, (server.base_url,), seeds=SEEDS, setting="agentic")
        plan_file.write_text(toml_text(data), encoding="utf-8")
        child = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "cli", "experiment", str(plan_file), "--out", str(run_dir),
            cwd=REPOSITORY, env=os.environ | {"PYTHONPATH": str(REPOSITORY)},
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
        )  # fmt: skip
        await asyncio.wait_for(server.holding.wait(), timeout=300)
        child.send_signal(signal.SIGKILL)
        await child.wait()
        server.release()
        assert server.chat_calls == 1  # the repair call was sent but never answered

        records = sorted((run_dir / "records").rglob("*.jsonl"))
        before = {path: path.read_bytes() for path in records}
        symbolic = [p for p in records if p.parts[-3] == "symbolic"]
        assert len(symbolic) == 2 * SEEDS and all(b'"type": "run"' in before[p] for p in symbolic)
        half_done = [p for p in records if p.parts[-3] == "agentic"]
        assert (
            half_done == [] or b'"type": "epoch"' not in before[half_done[0]]
        )  # epoch 1 unrecorded
        with CallLog(run_dir / CALL_LOG) as log:
            assert len(log) == 1

        summary = await run_experiment(
            load_plan(plan_file), run_dir, progress=Progress(4 * SEEDS, out=io.StringIO())
        )

    assert summary.already_done == 2 * SEEDS and summary.ran == 2 * SEEDS and summary.errors == 0
    assert all(
        (path.read_bytes() == content) for path, content in before.items() if path not in half_done
    )
    assert whole > 2 * SEEDS and server.chat_calls == whole  # what an uninterrupted run pays
    with CallLog(run_dir / CALL_LOG) as log:
        assert len(log) == whole
    manifest = (run_dir / MANIFEST).read_text(encoding="utf-8").splitlines()
    for line in manifest:
        unit_file = run_dir / line.split('"records": "')[1].split('"')[0]
        assert unit_file.read_text(encoding="utf-8").count('"type": "run"') == 1
