"""The learn step end to end against a loopback server: GEPA's reflection writes a strategy under
which the scripted model learns, the command keeps it, and a plan's arm loads it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from experiments.optimize import OptimizeError, score, split_targets
from tests.cegis.llm.scripted_server import Action, Reply, ScriptedServer
from tests.cegis.llm.threaded import serving

pytest.importorskip("gepa")

LEARNED = "INFERENCE STRATEGY\n1) Star the union of the letters after the first a."
TARGETS = ("a (b + c)*", "a (c + b)*", "a (b + c)* ", "(a (b + c)*)")


class Scripted(ScriptedServer):
    """Prose under the seed strategy, the target under the learned one; GEPA's reflection gets
    the learned strategy in a code block."""

    def _action(self, body: dict[str, Any]) -> Action:
        messages = body["messages"]
        if "I provided an assistant with the following instructions" in messages[-1]["content"]:
            return Reply((f"```\n{LEARNED}\n```",))
        if LEARNED in messages[0]["content"]:
            return Reply(("<ans>a (b + c)*</ans>",))
        return Reply(("This is a regex that matches the pattern a *b",))


def test_the_optimize_command_writes_the_strategy_that_learns(tmp_path: Path) -> None:
    out = tmp_path / "strategy.txt"
    with serving(Scripted(())) as server:
        args = [f"--target={t}" for t in TARGETS]
        args += ["--base-url", server.base_url, "--max-metric-calls", "8", "--out", str(out)]
        args += ["--max-epochs", "1"]
        from cli.optimize import optimize

        result = CliRunner().invoke(optimize, args)
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8").strip() == LEARNED
    summary = json.loads(Path(f"{out}.json").read_text(encoding="utf-8"))
    assert (summary["before"], summary["after"]) == (0.0, 1.0)
    assert len(summary["train"]) == len(summary["validation"]) == 2
    assert "validation: 0.000 before, 1.000 after" in result.output

    from experiments.plan import arm_setting, plan_from_data

    arm = {"learner": "llm", "setting": "single", "strategy_file": str(out)}
    data = {"name": "t", "datasets": [{"kind": "generated", "per_cell": 1}], "arms": [arm]}
    setting = arm_setting(plan_from_data(data).arms[0])
    assert setting is not None and setting.strategy_text == LEARNED


def test_the_split_holds_out_every_other_target_and_the_score_ranks_success_first() -> None:
    assert split_targets(["a", "b", "c", "d", "e"], 0.4) == (["a", "c", "e"], ["b", "d"])
    with pytest.raises(OptimizeError, match="at least 2 targets"):
        split_targets(["a"], 0.5)
    assert score(True, 1.0) == 1.0 > score(False, 0.99) == 0.495 > score(False, None) == 0.0
