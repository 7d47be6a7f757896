"""A tiny experiment for the runner tests: two Simple Regex targets of a hand-written paper list,
a symbolic arm and a Single LLM arm whose scripted model always answers ``a b*``.

The model's answer is the target of one task (solved at epoch 1, one call) and wrong for the
other (three epochs, three calls), so an uninterrupted run pays exactly
``CALLS_PER_SEED`` calls per seed.
"""

from __future__ import annotations

import asyncio
import functools
import json
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from cegis.records import without_wall_clock
from tests.cegis.llm.scripted_server import Reply, Rule

RULES = (Rule("TRAINING DATA", (Reply.answer("a b*"),)),)
#: For Agentic: every first draw of an epoch is a syntax error, so each epoch pays a repair call
#: after a first call that only the call log remembers until the epoch ends.
REPAIR_RULES = (
    Rule("REPAIR OF THE PREVIOUS ATTEMPT", (Reply.answer("a b*"),)),
    Rule("TRAINING DATA", (Reply.answer("a (b"),)),
)
CALLS_PER_SEED = 1 + 3
TARGETS = {0: "(a b)", 1: "(a (b)*)"}  # StarDepth → target; "a b*" is the second


def write_regex_list(folder: Path) -> Path:
    """A ``regex_list.json`` with one 2-state target at StarDepth 0 and one at StarDepth 1."""
    cells = [{"Stardepth": depth, "regex_list": [target]} for depth, target in TARGETS.items()]
    path = folder / "regex_list.json"
    path.write_text(
        json.dumps({"simplyrx": [{"#States": 2, "regex_list": cells}]}), encoding="utf-8"
    )
    return path


def plan_data(
    folder: Path, base_urls: tuple[str, ...], *, seeds: int = 1, setting: str = "single"
) -> dict[str, Any]:
    """The experiment as TOML data: the list above, a symbolic arm and an LLM arm of ``setting``
    (Single by default) with 3 epochs."""
    return {
        "name": "tiny",
        "seeds": seeds,
        "concurrency": 1,
        "datasets": [
            {"kind": "paper-list", "list": "simplyrx", "path": str(write_regex_list(folder))}
        ],
        "arms": [
            {"name": "symbolic", "learner": "symbolic"},
            {"name": setting, "learner": "llm", "setting": setting, "epochs": 3},
        ],
        "servers": [{"base_url": url, "concurrency": 1} for url in base_urls],
    }


def toml_text(data: dict[str, Any]) -> str:
    """``data`` (the shape :func:`plan_data` returns) written as TOML."""

    def value(v: Any) -> str:
        return json.dumps(v)  # strings, integers and lists of them read the same in TOML

    lines = [
        f"{k} = {value(v)}"
        for k, v in data.items()
        if not isinstance(v, list) or not v or not isinstance(v[0], dict)
    ]
    for key in ("datasets", "arms", "servers"):
        for table in data.get(key, []):
            lines += ["", f"[[{key}]]", *(f"{k} = {value(v)}" for k, v in table.items())]
    return "\n".join(lines) + "\n"


def synchronous(test: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """An async test run to completion on a fresh event loop (the project has no asyncio plugin)."""

    @functools.wraps(test)
    def run(*args: Any, **kwargs: Any) -> None:
        asyncio.run(test(*args, **kwargs))

    return run


def run_records(run_dir: Path) -> dict[str, list[Any]]:
    """Every unit file of ``run_dir``, its records without their wall-clock keys: what two runs of
    one plan must agree on."""
    return {
        str(path.relative_to(run_dir)): [
            without_wall_clock(json.loads(line)) for line in path.read_text().splitlines()
        ]
        for path in sorted((run_dir / "records").rglob("*.jsonl"))
    }
