"""The model a unit runs with is the one the server says it serves, and it is part of the unit's
fingerprint: a plan that names no model, resumed against a server serving another model, is refused
like an edited plan (before, the unit went on with the other model: epochs from two models in one
unit, the fingerprint's model null, exit 0)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from experiments.errors import ConfigurationChanged
from experiments.plan import plan_from_data
from experiments.progress import Progress
from experiments.runner import run_experiment
from tests.cegis.llm.scripted_server import ScriptedServer
from tests.experiments.runner_support import RULES, plan_data, synchronous

UNSOLVED = (
    "single/simplyrx/simplyrx-s2-d0-0__s0"  # three epochs: the model's answer is wrong for it
)


def _killed_after_one_epoch(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    kinds = [json.loads(line)["type"] for line in lines]
    assert kinds[:2] == ["unit", "epoch"] and kinds[-1] == "run"
    path.write_text("".join(lines[:2]), encoding="utf-8")


async def _run(folder: Path, model: str) -> None:
    async with ScriptedServer(RULES, models=(model,)) as server:
        plan = plan_from_data(plan_data(folder, (server.base_url,)))
        await run_experiment(plan, folder / "run", progress=Progress(4, out=io.StringIO()))


@synchronous
async def test_a_unit_begun_with_one_model_is_not_continued_by_another(tmp_path: Path) -> None:
    await _run(tmp_path, "model-a")
    records = tmp_path / "run" / "records" / f"{UNSOLVED}.jsonl"
    header = json.loads(records.read_text(encoding="utf-8").splitlines()[0])
    assert header["fingerprint"]["served_model"] == "model-a"
    _killed_after_one_epoch(records)
    with pytest.raises(ConfigurationChanged, match='served_model: "model-a" → "model-b"'):
        await _run(tmp_path, "model-b")
    await _run(tmp_path, "model-a")  # the same model resumes it
    assert [json.loads(line)["type"] for line in records.read_text(encoding="utf-8").splitlines()][
        -1
    ] == "run"
