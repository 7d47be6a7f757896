"""Issue 21's end-to-end check: ``python -m cli experiment`` on the Table 1 (Simple) and the
multi-candidate plans against a loopback server that answers like a model served by vLLM.

The server (:class:`ModelLike`) refuses ``n > 1`` at temperature 0 with vLLM's 400, puts a hidden
chain of thought in ``message.reasoning`` of every reply, reports usage without details, serves
``/tokenize`` and a context length. As a model it is poor but well defined: Standard's prompts (no
clustered examples, no reflection) get prose without an answer; a prompt asking for several
candidates gets ten ``<ans>`` blocks holding a wrong regex and every target of the plan's first
tasks (so the right one is among them); any other prompt gets the wrong answer ``a``, which keeps
Agentic repairing until its budget is spent.

Run it as a script for the numbers (``python -m tests.cegis.llm.vllm_e2e``), or through the slow
test in ``test_vllm_e2e.py``. It needs the shared data (``$REGEX_CEGIS_DATA``, else ``../shared/data``).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

import attrs

from experiments.data_dir import DEFAULT_DATA_DIR
from experiments.plan import load_plan
from experiments.units import dataset_tasks
from tests.cegis.llm.scripted_server import Action, Reply, ScriptedServer

ROOT = Path(__file__).resolve().parents[3]
PLANS = ROOT / "experiments" / "plans"
HIDDEN = "HIDDEN-CHAIN-OF-THOUGHT"
LIMIT = 2  # tasks per dataset (--dataset-limit)
CONTEXT = 65_536  # the paper's context window (Appendix D)


class ModelLike(ScriptedServer):
    """The vLLM-like loopback model described in the module doc."""

    def __init__(self, targets: tuple[str, ...]) -> None:
        super().__init__((), models=("openai/gpt-oss-120b",), vllm=True, max_model_len=CONTEXT)
        self.targets = targets

    def _action(self, body: dict[str, Any]) -> Action:
        system = str(body["messages"][0]["content"])
        user = str(body["messages"][-1]["content"])
        hidden = f"{HIDDEN} #{self.chat_calls}: the target is probably one of the list."
        if "SEVERAL CANDIDATES" in user:
            answers = "".join(f"<ans>{regex}</ans>" for regex in ("a", *self.targets)[:10])
            return Reply((f"<reasoning>ten guesses</reasoning>{answers}",), hidden=hidden)
        if "character classes in square brackets" not in system and "REFLECTION" not in user:
            return Reply(("The strings seem to follow some pattern of a and b.",), hidden=hidden)  # no <ans>
        return Reply(("<ans>a</ans>",), hidden=hidden)


def _targets(plan_path: Path, data: Path) -> tuple[str, ...]:
    plan = load_plan(plan_path)
    found: list[str] = []
    for spec in plan.datasets:
        spec = attrs.evolve(spec, path=data / "cegml" / "regex_list.json", limit=LIMIT)
        found += [task.target for task in dataset_tasks(spec)]
    return tuple(found)


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _records(run_dir: Path) -> dict[str, list[list[dict[str, Any]]]]:
    """Each arm's runs, each a list of its records."""
    by_arm: dict[str, list[list[dict[str, Any]]]] = {}
    for unit in _lines(run_dir / "units.jsonl"):
        path = run_dir / unit["records"]
        by_arm.setdefault(unit["arm"], []).append(_lines(path) if path.exists() else [])
    return by_arm


async def _experiment(plan: Path, url: str, out: Path, data: Path) -> None:
    env = {**os.environ, "REGEX_CEGIS_DATA": str(data), "OPENAI_API_KEY": "EMPTY"}
    args = ["-m", "cli", "experiment", str(plan), "--base-url", url, "--seeds", "1", "--dataset-limit", str(LIMIT)]
    process = await asyncio.create_subprocess_exec(
        sys.executable, *args, "--out", str(out), "--concurrency", "1", cwd=ROOT, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )  # fmt: skip
    output, _ = await process.communicate()
    if process.returncode != 0:
        raise RuntimeError(f"python -m cli experiment {plan.name} exited {process.returncode}:\n{output.decode()[-3000:]}")


def summarize(by_arm: dict[str, list[list[dict[str, Any]]]]) -> dict[str, Any]:
    """The numbers the issue asks for, per arm."""
    summary: dict[str, Any] = {}
    for arm, runs in by_arm.items():
        epochs = [r for run in runs for r in run if r["type"] == "epoch"]
        closing = [r for run in runs for r in run if r["type"] == "run"]
        summary[arm] = {
            "runs": len(runs),
            "succeeded": sum(r["outcome"] == "equivalent" for r in closing),
            "calls_per_epoch": sorted({e["cost"]["calls"] for e in epochs}),
            "epochs": len(epochs),
            "final_examples": [r["examples"] for r in closing],
            "accepted_candidates": [e["accepted_candidate"] for e in epochs if e.get("accepted_candidate") is not None],
        }
    return summary


async def run_e2e(work: Path, data: Path = DEFAULT_DATA_DIR) -> dict[str, Any]:
    """Both plans against one :class:`ModelLike` server; their summaries and the server's view."""
    multi_plan, table1_plan = PLANS / "multi-candidate.toml", PLANS / "table1-simple.toml"
    async with ModelLike(_targets(multi_plan, data)) as server:
        await _experiment(table1_plan, server.base_url, work / "table1-simple", data)
        await _experiment(multi_plan, server.base_url, work / "multi-candidate", data)
        bodies = [json.dumps(body) for body in server.requests]
        view = {
            "chat_calls": server.chat_calls,
            "tokenize_calls": server.tokenize_calls,
            "requests_with_hidden_reasoning": sum(HIDDEN in body for body in bodies),
            "requests_with_n": sum('"n":' in body for body in bodies),
            "requests_without_seed": sum('"seed":' not in body for body in bodies),
        }
    return {
        "server": view,
        "table1-simple": summarize(_records(work / "table1-simple")),
        "multi-candidate": summarize(_records(work / "multi-candidate")),
        "report": (work / "table1-simple" / "report.md").read_text(encoding="utf-8"),
    }


def main() -> None:
    """Run the check in a temporary folder and print its numbers."""
    with tempfile.TemporaryDirectory() as work:
        result = asyncio.run(run_e2e(Path(work)))
    report = result.pop("report")
    print(json.dumps(result, indent=2))
    start = report.find("## Guarded learner")
    print(report[start:] if start >= 0 else report[-3000:])


if __name__ == "__main__":
    main()
