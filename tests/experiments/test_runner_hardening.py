"""A-CEGIS's full run in an experiment: hardening after hidden-set success is run by the runner,
written as a ``hardening`` record, resumed from the call log, and read by the report."""

from __future__ import annotations

import io
import json
from pathlib import Path

from experiments.plan import plan_from_data
from experiments.progress import Progress
from experiments.report import write_report
from experiments.runner import run_experiment
from oracle.testsuite import SuiteConfig, SuiteOracle
from regexlang import universe
from tests.cegis.llm.scripted_server import Reply, Rule, ScriptedServer
from tests.experiments.runner_support import synchronous

DESCRIPTION = "lines containing the string dog"
GOLD = ".*(dog).*"
SLACK = ".*dog.*|x"  # passes the hidden tests, fails the probe "x"
RULES = (
    Rule("which it must reject", (Reply.answer(".*dog.*"),)),  # the hardening repair's feedback
    Rule(DESCRIPTION, (Reply.answer(SLACK),)),
)


def _plan(folder: Path, base_url: str) -> dict[str, object]:
    data = folder / "nl-rx"
    data.mkdir()
    (data / "src.txt").write_text(
        DESCRIPTION, encoding="utf-8"
    )  # no final newline: the loader reads one as an empty task
    (data / "targ.txt").write_text(GOLD, encoding="utf-8")
    return {
        "name": "harden",
        "datasets": [{"kind": "nl-rx-turk", "path": str(data), "size": 1}],
        "arms": [{"name": "full", "learner": "llm", "setting": "acegis-full"}],
        "servers": [{"base_url": base_url, "concurrency": 1}],
    }


def _records(run_dir: Path) -> Path:
    (path,) = (run_dir / "records").rglob("*.jsonl")
    return path


@synchronous
async def test_hardening_runs_after_success_and_is_recorded_resumed_and_reported(
    tmp_path: Path,
) -> None:
    suite = SuiteOracle.from_gold(
        GOLD,
        dialect="python",
        universe=universe("python"),
        description=DESCRIPTION,
        config=SuiteConfig(),
    )
    slack = suite.evaluate(SLACK, probe=True)
    assert slack.passed and not slack.robust  # the premise: only hardening can find the slack
    run_dir = tmp_path / "run"
    async with ScriptedServer(RULES) as server:
        plan = plan_from_data(_plan(tmp_path, server.base_url))
        summary = await run_experiment(plan, run_dir, progress=Progress(1, out=io.StringIO()))
        assert (summary.ran, summary.errors, summary.succeeded) == (1, 0, 1)
        assert server.chat_calls == 2
        lines = [
            json.loads(line) for line in _records(run_dir).read_text(encoding="utf-8").splitlines()
        ]
        assert [r["type"] for r in lines] == ["unit", "epoch", "run", "hardening"]
        hardening = lines[-1]
        assert (
            hardening["hypothesis"] == SLACK
            and hardening["passed"]
            and not hardening["robust_before"]
        )
        (cycle,) = hardening["cycles"]
        assert (
            cycle["probed"] == SLACK
            and "x, 0" in cycle["failed"]
            and cycle["repaired"] == ".*dog.*"
        )
        assert hardening["robust"] == suite.evaluate(".*dog.*", probe=True).robust is True
        assert hardening["tokens"]["calls"] == 1

        # killed after the run line, before the hardening line: hardening reruns from the call log
        whole = _records(run_dir).read_text(encoding="utf-8")
        _records(run_dir).write_text(
            whole[: whole.rindex('{"type": "hardening"')], encoding="utf-8"
        )
        again = await run_experiment(plan, run_dir, progress=Progress(1, out=io.StringIO()))
        assert (again.already_done, again.ran) == (0, 1) and server.chat_calls == 2
        assert (
            json.loads(_records(run_dir).read_text(encoding="utf-8").splitlines()[-1])["cycles"]
            == hardening["cycles"]
        )
        done = await run_experiment(plan, run_dir, progress=Progress(1, out=io.StringIO()))
        assert (done.already_done, done.ran) == (1, 0)

    report = write_report(run_dir).read_text(encoding="utf-8")
    acegis = report[report.index("## A-CEGIS trajectory metrics") :]
    # Pass@1, Pass@final, MRR 1; robust is the hardened final hypothesis's (the unhardened one's is 0)
    row = next(line for line in acegis.splitlines() if line.startswith("| full |"))
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    assert cells[:5] == ["full", "1", "1.000", "1.000", "1.000"] and cells[-1] == "1.000"
    assert "| full | 120.0 |" not in report
    assert (
        "| ↳ paper 001 (acegis-full) | 30 | 0.167 | 1.000 | 0.477 | 2.610 | — | 0.767 |" in acegis
    )  # tokens per run count the hardening call too
