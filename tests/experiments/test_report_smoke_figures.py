"""A smoke-sized run's report (eight LLM arms, runs of 22 labeled examples): the efficiency
figures end their axis where the runs end (before: at ≤3000), say what Diff Ratio is, and an arm
that never succeeds is not Pareto-optimal in the table or the figure (before: "yes")."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ElementTree
from pathlib import Path

from experiments.report import write_report

TOKENS = {"standard": 3053, "single": 6105, "multi": 6100, "agentic": 9000}


def _write(run: Path) -> None:
    manifest = []
    for arm, tokens in TOKENS.items():
        records = f"records/{arm}/simple/t0__s0.jsonl"
        manifest.append(
            {"unit": records[8:-6], "dataset": "simple", "task": "t0", "dialect": "simple",
             "target": "a b*", "description": None, "states": 2, "star_depth": 1,
             "listed_states": 2, "listed_star_depth": 1, "arm": arm, "learner": "llm",
             "setting": "single", "protocol": "paper", "seed": 0, "records": records}
        )  # fmt: skip
        initial = [{"string": f"s{i}", "label": i % 2 == 0} for i in range(6)]
        added = [{"string": f"t{i}", "label": True} for i in range(16)]
        lines = [
            {"type": "epoch", "run": "r", "epoch": 1, "hypothesis": "a", "failure": None,
             "initial": initial, "added": added, "accuracy": 0.5, "diff_ratio": 0.4},
            {"type": "run", "run": "r", "outcome": "equivalent" if arm == "agentic" else "budget",
             "hypothesis": "a b*", "epochs": 1, "examples": 22,
             "totals": {"prompt_tokens": tokens - 500, "completion_tokens": 500, "seconds": 1.0,
                        "teacher_seconds": 0.5}},
        ]  # fmt: skip
        path = run / records
        path.parent.mkdir(parents=True)
        path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    (run / "units.jsonl").write_text("".join(json.dumps(m) + "\n" for m in manifest))
    (run / "plan.json").write_text(json.dumps({"name": "smoke", "seeds": [0]}))


def _texts(path: Path) -> list[str]:
    return [t.text or "" for t in ElementTree.parse(path).iter("{http://www.w3.org/2000/svg}text")]


def test_a_smoke_report_fits_its_figures_to_its_runs(tmp_path: Path) -> None:
    _write(tmp_path)
    report = write_report(tmp_path).read_text(encoding="utf-8")
    for name in ("accuracy", "diff-ratio"):
        ticks = [t for t in _texts(tmp_path / "figures" / f"efficiency-simple-{name}.svg")]
        assert [t for t in ticks if t.startswith("≤")] == ["≤8", "≤16", "≤32"]
    diff = " ".join(_texts(tmp_path / "figures" / "efficiency-simple-diff-ratio.svg"))
    assert "Diff Ratio: strings up to length k" in diff and "lower is better" in diff
    assert "| standard | 3,053 | 0.0% |  |" in report  # the fewest tokens, but no success
    assert "| agentic | 9,000 | 100.0% | yes |" in report
    assert "≤3000" in report  # the table keeps the paper's budgets
