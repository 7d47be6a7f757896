"""Issues 21 and 35's end-to-end check: ``python -m cli experiment`` on the Table 1 (Simple), the
multi-candidate and the A-CEGIS diagnostic plans against a loopback server that answers like a
model served by vLLM.

The server (:class:`ModelLike`) refuses ``n > 1`` at temperature 0 with vLLM's 400, puts a hidden
chain of thought in ``message.reasoning`` of every reply, reports usage without details, serves
``/tokenize`` and a context length. As a model it is poor but well defined: Standard's prompts (no
clustered examples, no reflection) get prose without an answer; a prompt asking for several
candidates gets ten ``<ans>`` blocks: first a decoy with the best RepairScore (the task's target
united with one word of 40 letters it rejects, longer than any example, so it classifies every
example as the target does), the target second, then wrong ones; a description prompt (A-CEGIS)
gets a wrong answer in turn (too broad, unparsable, too narrow); any other prompt gets the wrong
answer ``a``, which keeps Agentic repairing until its budget is spent. The A-CEGIS plan runs its
diagnostic arm alone, and every witness its prompts show is checked against the task's tests.

Run it as a script for the numbers (``python -m tests.cegis.llm.vllm_e2e``), or through the slow
test in ``test_vllm_e2e.py``. It needs the shared data (``$REGEX_CEGIS_DATA``, else ``../shared/data``).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

import attrs

from automata.algebra.ops import accepts
from cegis.llm.settings import setting_named
from experiments.data_dir import DEFAULT_DATA_DIR
from experiments.datasets.task import Task
from experiments.plan import load_plan
from experiments.units import dataset_tasks
from oracle.compiling import compile_subject
from oracle.examples import Example
from oracle.testsuite import SuiteOracle
from tests.cegis.llm.scripted_server import Action, Reply, ScriptedServer

ROOT = Path(__file__).resolve().parents[3]
PLANS = ROOT / "experiments" / "plans"
HIDDEN = "HIDDEN-CHAIN-OF-THOUGHT"
LIMIT = 2  # tasks per dataset (--dataset-limit)
CONTEXT = 65_536  # the paper's context window (Appendix D)


DECOY = re.compile(r"\) \+ (\w)( \1){39}$")  # the target united with a 40-letter word
ACEGIS_WRONG = (".*", "(", "zq")  # too broad, unparsable, too narrow: wrong for every task
WITNESS_HEADS = ("It matches these strings", "It rejects these strings")


class ModelLike(ScriptedServer):
    """The vLLM-like loopback model described in the module doc."""

    def __init__(self, tasks: tuple[Task, ...]) -> None:
        super().__init__((), models=("openai/gpt-oss-120b",), vllm=True, max_model_len=CONTEXT)
        self.tasks = tasks

    def _action(self, body: dict[str, Any]) -> Action:
        system = str(body["messages"][0]["content"])
        user = str(body["messages"][-1]["content"])
        hidden = f"{HIDDEN} #{self.chat_calls}: the target is probably one of the list."
        if str(body["messages"][1]["content"]).startswith("DESCRIPTION"):
            wrong = ACEGIS_WRONG[(len(body["messages"]) // 2 - 1) % len(ACEGIS_WRONG)]  # by turn
            return Reply((f"<ans>{wrong}</ans>",), hidden=hidden)
        if "SEVERAL CANDIDATES" in user:
            target = next((t for t in self.tasks if _fits(t, user)), None)
            ranked = (
                ("a", "b")
                if target is None
                else (f"({target.target}) + {_rejected_word(target)}", target.target)
            )
            answers = "".join(
                f"<ans>{regex}</ans>" for regex in (*ranked, *(f"c{' c' * k}" for k in range(8)))
            )
            return Reply((f"<reasoning>ten guesses</reasoning>{answers}",), hidden=hidden)
        if "character classes in square brackets" not in system and "REFLECTION" not in user:
            return Reply(
                ("The strings seem to follow some pattern of a and b.",), hidden=hidden
            )  # no <ans>
        return Reply(("<ans>a</ans>",), hidden=hidden)


def _dfa(task: Task) -> Any:
    return compile_subject(
        task.target, "target", dialect=task.dialect, universe=task.alphabet, state_limit=10_000
    ).dfa


def _fits(task: Task, prompt: str) -> bool:
    """Whether the literal example lines of ``prompt`` are labeled as ``task``'s target labels them."""
    lines = prompt.split("TRAINING DATA", 1)[1].splitlines()[1:]
    literal = [
        Example.from_text(line) for line in lines if "[" not in line and not line.startswith("(")
    ]
    dfa = _dfa(task)
    return all(
        set(e.string) <= set(task.alphabet) and accepts(dfa, e.string) == e.label for e in literal
    )


def _rejected_word(task: Task) -> str:
    """A word of 40 letters (longer than any example) that the target rejects, spelled in its dialect."""
    dfa = _dfa(task)
    letters = [chr(c) for lo, hi in task.alphabet.intervals for c in range(lo, hi + 1)]
    word = next((w for w in (c * 40 for c in letters) if not accepts(dfa, w)), None)
    if word is None:
        raise RuntimeError(
            f"no decoy word for {task.target!r}: it accepts every letter repeated 40 times"
        )
    return " ".join(word)


def _tasks(plan_path: Path, data: Path) -> tuple[Task, ...]:
    plan = load_plan(plan_path)
    found: list[Task] = []
    for spec in plan.datasets:
        path = data / "cegml" / "regex_list.json" if spec.kind == "paper-list" else spec.path
        found += dataset_tasks(attrs.evolve(spec, path=path, limit=LIMIT))
    return tuple(found)


def _lines(path: Path) -> list[dict[str, Any]]:
    return [
        json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()
    ]


def _records(run_dir: Path) -> dict[str, list[list[dict[str, Any]]]]:
    """Each arm's runs, each a list of its records."""
    by_arm: dict[str, list[list[dict[str, Any]]]] = {}
    for unit in _lines(run_dir / "units.jsonl"):
        path = run_dir / unit["records"]
        by_arm.setdefault(unit["arm"], []).append(_lines(path) if path.exists() else [])
    return by_arm


async def _experiment(plan: Path, url: str, out: Path, data: Path) -> None:
    env = {**os.environ, "REGEX_CEGIS_DATA": str(data), "OPENAI_API_KEY": "EMPTY"}
    args = [
        "-m",
        "cli",
        "experiment",
        str(plan),
        "--base-url",
        url,
        "--seeds",
        "1",
        "--dataset-limit",
        str(LIMIT),
    ]
    process = await asyncio.create_subprocess_exec(
        sys.executable, *args, "--out", str(out), "--concurrency", "1", cwd=ROOT, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )  # fmt: skip
    output, _ = await process.communicate()
    if process.returncode != 0:
        raise RuntimeError(
            f"python -m cli experiment {plan.name} exited {process.returncode}:\n{output.decode()[-3000:]}"
        )


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
            "accepted_candidates": [
                e["accepted_candidate"] for e in epochs if e.get("accepted_candidate") is not None
            ],
            "turns": [sum(r["type"] == "epoch" for r in run) for run in runs],
            "initial_examples": [
                len(next((r for r in run if r["type"] == "epoch"), {}).get("initial") or ())
                for run in runs
            ],
            "random_epochs": sum(e.get("source") == "random" for e in epochs),
            "selected": sorted({(e.get("memo") or {}).get("selected") for e in epochs} - {None}),
            "decoy_hypotheses": sum(bool(DECOY.search(e["hypothesis"] or "")) for e in epochs),
        }
    return summary


def _acegis_plan(work: Path) -> Path:
    """The A-CEGIS diagnostic plan (7 turns, then hardening) with its diagnostic arm alone."""
    text = (PLANS / "acegis-full.toml").read_text(encoding="utf-8").split("[[arms]]", 1)[0]
    arm = next(a for a in load_plan(PLANS / "acegis-full.toml").arms if a.setting == "acegis-full")
    path = work / "acegis-diagnostic.toml"
    path.write_text(
        f'{text}[[arms]]\nname = "{arm.name}"\nlearner = "llm"\nsetting = "{arm.setting}"\n',
        encoding="utf-8",
    )
    return path


def witnesses(bodies: list[dict[str, Any]], tasks: tuple[Task, ...]) -> dict[str, Any]:
    """Every witness the A-CEGIS prompts showed, and those that are not a hidden test of their task."""
    tests = {}
    for task in tasks:
        suite = SuiteOracle.from_gold(
            task.target, dialect=task.dialect, universe=task.alphabet, description=task.description or "",
            config=setting_named("acegis-full").suite,
        )  # fmt: skip
        tests[task.description] = {t.string for t in suite.tests}
    shown = outside = 0
    for body in bodies:
        messages = body["messages"]
        if len(messages) < 4 or not str(messages[1]["content"]).startswith("DESCRIPTION"):
            continue
        known = tests[str(messages[1]["content"]).split("\n", 1)[1]]
        listed = False
        for line in str(messages[-1]["content"]).splitlines():
            listed = line.startswith(WITNESS_HEADS) or (listed and line.startswith("- "))
            if listed and line.startswith("- "):
                shown += 1
                outside += json.loads(line[2:]) not in known
    return {"witnesses_shown": shown, "witnesses_not_tests": outside}


async def run_e2e(work: Path, data: Path = DEFAULT_DATA_DIR) -> dict[str, Any]:
    """The three plans against one :class:`ModelLike` server; their summaries and the server's view."""
    multi_plan, table1_plan, acegis_plan = (
        PLANS / "multi-candidate.toml",
        PLANS / "table1-simple.toml",
        _acegis_plan(work),
    )
    acegis_tasks = _tasks(acegis_plan, data)
    async with ModelLike(_tasks(multi_plan, data)) as server:
        await _experiment(table1_plan, server.base_url, work / "table1-simple", data)
        await _experiment(multi_plan, server.base_url, work / "multi-candidate", data)
        await _experiment(acegis_plan, server.base_url, work / "acegis", data)
        bodies = [json.dumps(body) for body in server.requests]
        view = {
            "chat_calls": server.chat_calls,
            "tokenize_calls": server.tokenize_calls,
            "requests_with_hidden_reasoning": sum(HIDDEN in body for body in bodies),
            "requests_with_n": sum('"n":' in body for body in bodies),
            "requests_without_seed": sum('"seed":' not in body for body in bodies),
        }
        shown = witnesses(server.requests, acegis_tasks)
    return {
        "server": view,
        "table1-simple": summarize(_records(work / "table1-simple")),
        "multi-candidate": summarize(_records(work / "multi-candidate")),
        "acegis": {**summarize(_records(work / "acegis")), **shown},
        "report": (work / "table1-simple" / "report.md").read_text(encoding="utf-8"),
    }


def main() -> None:
    """Run the check in a temporary folder and print its numbers."""
    with tempfile.TemporaryDirectory() as work:
        result = asyncio.run(run_e2e(Path(work)))
    report = result.pop("report")
    print(json.dumps(result, indent=2))
    start = report.find("## Guarded learner")
    end = report.find("\n## ", start + 1)
    print(report[start:end] if start >= 0 else report[-3000:])


if __name__ == "__main__":
    main()
