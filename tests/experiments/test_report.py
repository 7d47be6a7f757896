"""The report's numbers, recomputed here from a hand-made run directory's JSON Lines.

The run directory is generated from a seeded random draw of outcomes, example counts, accuracies
and token counts; each expected cell is computed in this file straight from the drawn values
(not from the files the report reads), then looked up in ``report.md``.
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path
from typing import Any

import attrs
import numpy as np
import pytest

from cegis.llm.settings import setting_named
from experiments.errors import DamagedRecords
from experiments.report import write_report
from experiments.report.acegis import _suite_config
from experiments.report.load import UnitResult
from experiments.report.tables import BUDGETS, cost_summary, success_by_star_depth
from oracle.testsuite import SuiteConfig

ARMS = {"alpha": ("symbolic", None), "beta": ("llm", "single"), "gamma": ("llm", "guarded")}
CELLS = [(2, 0), (3, 1), (3, 1), (4, 2), (4, 2), (5, 2)]  # (#States, StarDepth) of the tasks


def _draw(rng: np.random.Generator, arm: str, task: int) -> dict[str, Any]:
    """One unit's drawn facts: epochs (examples shown before and added after each), accuracies,
    outcome, tokens; the last task of gamma stays unfinished."""
    epochs = []
    for number in range(1, int(rng.integers(1, 5)) + 1):
        initial = int(rng.integers(3, 9)) if number == 1 else 0
        queries = (
            int(rng.integers(0, 60)) if arm == "alpha" else 0
        )  # alpha asks membership queries, as L* does
        epochs.append(
            {"initial": initial, "added": int(rng.integers(1, 40)), "accuracy": float(rng.random()),
             "diff": float(rng.random()), "queries": queries}
        )  # fmt: skip
    return {
        "epochs": epochs,
        "success": bool(rng.random() < 0.6),
        "tokens": (int(rng.integers(0, 5000)), int(rng.integers(0, 900)))
        if arm != "alpha"
        else (0, 0),
        "finished": not (arm == "gamma" and task == len(CELLS) - 1),
        "tally": _tally(rng),
    }


def _tally(rng: np.random.Generator) -> list[int]:
    """Guard totals: proposals, draws (at least one per proposal), conforming draws, fallbacks."""
    proposals = int(rng.integers(1, 6))
    draws = proposals + int(rng.integers(0, 6))
    return [proposals, draws, int(rng.integers(0, draws + 1)), int(rng.integers(0, proposals + 1))]


def _example(i: int) -> dict[str, Any]:
    return {"string": f"s{i}", "label": i % 2 == 0}


def _write(run_dir: Path, facts: dict[tuple[str, int], dict[str, Any]]) -> None:
    manifest = []
    for (arm, task), fact in facts.items():
        states, depth = CELLS[task]
        learner, setting = ARMS[arm]
        records = f"records/{arm}/d/t{task}__s0.jsonl"
        manifest.append(
            {"unit": records[8:-6], "dataset": "d", "task": f"t{task}", "dialect": "simple", "target": "a b c",
             "description": None, "states": states + 10, "star_depth": depth + 10, "listed_states": states,
             "listed_star_depth": depth, "arm": arm, "learner": learner, "setting": setting, "protocol": "paper",
             "seed": 0, "records": records}
        )  # fmt: skip
        lines, shown = [], 0
        for number, epoch in enumerate(fact["epochs"], start=1):
            initial = [_example(shown + i) for i in range(epoch["initial"])]
            added = [_example(shown + epoch["initial"] + i) for i in range(epoch["added"])]
            shown += epoch["initial"] + epoch["added"]
            memo = {
                "tally": dict(zip(("proposals", "draws", "conforming", "fallbacks"), fact["tally"]))
            }
            asked = sum(e["queries"] for e in fact["epochs"][:number])
            lines.append(
                {"type": "epoch", "run": "r", "epoch": number, "hypothesis": "a", "failure": None, "initial": initial,
                 "added": added, "accuracy": epoch["accuracy"], "diff_ratio": epoch["diff"], "memo": memo,
                 "totals": {"membership_queries": asked}}
            )  # fmt: skip
        if fact["finished"]:
            prompt, completion = fact["tokens"]
            examples = sum(e["initial"] + e["added"] for e in fact["epochs"])
            lines.append(
                {"type": "run", "run": "r", "outcome": "equivalent" if fact["success"] else "budget",
                 "hypothesis": "a b", "epochs": len(fact["epochs"]), "examples": examples,
                 "totals": {"prompt_tokens": prompt, "completion_tokens": completion, "seconds": 1.0,
                            "teacher_seconds": 0.5, "membership_queries": sum(e["queries"] for e in fact["epochs"])}}
            )  # fmt: skip
        path = run_dir / records
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    (run_dir / "units.jsonl").write_text(
        "".join(json.dumps(m) + "\n" for m in manifest), encoding="utf-8"
    )
    (run_dir / "plan.json").write_text(
        json.dumps({"name": "hand-made", "seeds": [0], "teacher_profile": "cegml"}),
        encoding="utf-8",
    )


def _rate(facts: list[dict[str, Any]]) -> str:
    done = [f for f in facts if f["finished"]]
    wins = sum(f["success"] for f in done)
    pending = len(facts) - len(done)
    return f"{100 * wins / len(done):.1f}% ({wins}/{len(done)}{f', {pending} unfinished' if pending else ''})"


def _at_budget(fact: dict[str, Any], budget: int) -> tuple[float, float] | None:
    """The drawn run's accuracy and Diff Ratio at ``budget`` labeled examples: those shown plus the
    membership queries asked."""
    best, seen = None, 0
    for epoch in fact["epochs"]:
        seen += epoch["initial"] + epoch["queries"]
        if seen > budget:
            break
        best = (epoch["accuracy"], epoch["diff"])
        seen += epoch["added"]
    total = sum(e["initial"] + e["added"] + e["queries"] for e in fact["epochs"])
    if best is not None and fact["success"] and total <= budget:
        return (1.0, 0.0)
    return best


def test_sample_efficiency_runs_to_the_largest_run_so_its_last_point_holds_every_finished_run(
    tmp_path: Path,
) -> None:
    rng = np.random.default_rng(3)
    facts = {("alpha", task): _draw(rng, "alpha", task) for task in range(len(CELLS))}
    long = facts[("alpha", 0)]  # a run that needs more labeled examples than the last fixed budget
    long.update(finished=True, success=True)
    long["epochs"][-1]["queries"] = 5000
    _write(tmp_path, facts)
    report = write_report(tmp_path).read_text(encoding="utf-8")
    most = max(
        sum(e["initial"] + e["added"] + e["queries"] for e in f["epochs"]) for f in facts.values()
    )
    assert most > BUDGETS[-1]
    assert f"| arm | SD | {' | '.join(f'≤{b}' for b in (*BUDGETS, most))} |" in report
    accuracy = next(line for line in report.splitlines() if line.startswith("| alpha | all |"))
    assert (
        accuracy.split(" | ")[-1]
        == f"{statistics.fmean(_at_budget(f, most)[0] for f in facts.values()):.3f} (n={len(facts)}) |"  # type: ignore[index]
    )


def test_every_table_matches_numbers_recomputed_from_the_drawn_facts(tmp_path: Path) -> None:
    rng = np.random.default_rng(7)
    facts = {(arm, task): _draw(rng, arm, task) for arm in ARMS for task in range(len(CELLS))}
    _write(tmp_path, facts)
    report = write_report(tmp_path).read_text(encoding="utf-8")
    lines = report.splitlines()
    assert f"Units: {len(facts)} ({len(facts) - 1} finished, 1 unfinished)" in report

    for arm in ARMS:  # success by StarDepth (the listed StarDepth, not the computed one)
        mine = [facts[(arm, t)] for t in range(len(CELLS))]
        by_depth = [_rate([f for t, f in enumerate(mine) if CELLS[t][1] == d]) for d in (0, 1, 2)]
        assert f"| {arm} | {' | '.join(by_depth)} | {_rate(mine)} |" in lines

    for arm in ARMS:  # heatmap: percent and number of finished (and unfinished) runs per (#States, StarDepth) cell
        section = report[report.index(f"**{arm}**") :]
        for states in sorted({s for s, _ in CELLS}):
            cells = []
            for depth in (0, 1, 2):
                mine = [facts[(arm, t)] for t, c in enumerate(CELLS) if c == (states, depth)]
                done = [f for f in mine if f["finished"]]
                pending = f"{len(mine) - len(done)} unfinished"
                if not mine:
                    cells.append("no targets")
                elif not done:
                    cells.append(
                        f"— ({pending})"
                    )  # gamma's last task: a target, but no finished run
                else:
                    rate = f"{100 * sum(f['success'] for f in done) / len(done):.0f}%"
                    cells.append(
                        f"{rate} (n={len(done)}{f', {pending}' if len(done) < len(mine) else ''})"
                    )
            assert f"| {states} | {' | '.join(cells)} |" in section

    for metric in (
        0,
        1,
    ):  # sample efficiency: mean over finished runs of each arm, by StarDepth and over all
        for arm in ARMS:
            for column in (0, 1, 2, "all"):
                runs = [
                    facts[(arm, t)]
                    for t, c in enumerate(CELLS)
                    if column in (c[1], "all") and facts[(arm, t)]["finished"]
                ]
                row = []
                for budget in BUDGETS:
                    values = [v[metric] for f in runs if (v := _at_budget(f, budget)) is not None]
                    row.append(
                        f"{statistics.fmean(values):.3f} (n={len(values)})" if values else "—"
                    )
                assert f"| {arm} | {column} | {' | '.join(row)} |" in lines

    points = {}
    for arm in ARMS:  # Pareto: mean tokens and success per arm, optimal when nothing dominates it
        done = [facts[(arm, t)] for t in range(len(CELLS)) if facts[(arm, t)]["finished"]]
        points[arm] = (
            statistics.fmean(sum(f["tokens"]) for f in done),
            sum(f["success"] for f in done) / len(done),
        )
    for arm, (tokens, success) in points.items():  # an arm that never succeeds is never optimal
        dominated = success == 0 or any(
            t <= tokens and s >= success and (t, s) != (tokens, success) for t, s in points.values()
        )
        assert (
            f"| {arm} | {tokens:,.0f} | {100 * success:.1f}% | {'' if dominated else 'yes'} |"
            in lines
        )

    for arm in ARMS:  # cost: median examples of the successful runs
        won = [
            facts[(arm, t)]
            for t in range(len(CELLS))
            if facts[(arm, t)]["finished"] and facts[(arm, t)]["success"]
        ]
        examples = [sum(e["initial"] + e["added"] for e in f["epochs"]) for f in won]
        median = f"{statistics.median(examples):.1f}" if examples else "—"
        cost_row = next(line for line in lines if line.startswith(f"| {arm} | {len(CELLS)} | "))
        assert cost_row.split(" | ")[3] == median

    tallies = [
        facts[("gamma", t)]["tally"] for t in range(len(CELLS))
    ]  # guard: unfinished runs count too
    proposals, draws = (sum(t[i] for t in tallies) for i in range(2))
    finished = sum(facts[("gamma", t)]["finished"] for t in range(len(CELLS)))
    guard = f"| gamma | {finished} | {proposals} | {draws} | until one conforms (K = 5) | — |"  # guarded stops early
    assert any(line.startswith(guard) for line in lines)
    assert not any(line.startswith("| beta |") and "fallback" in line for line in lines)


def test_the_acegis_report_rebuilds_the_suite_the_run_recorded() -> None:
    custom = attrs.evolve(
        setting_named("acegis-diagnostic"), suite=SuiteConfig(positives=5, negatives=7, seed=3)
    )
    recorded = {f"llm_setting.suite.{k}": v for k, v in attrs.asdict(custom.suite).items()}
    result = UnitResult({"unit": "u"}, None, (), fingerprint={"learner": "llm", **recorded})
    assert _suite_config(result) == SuiteConfig(positives=5, negatives=7, seed=3) != SuiteConfig()
    with pytest.raises(DamagedRecords, match="recorded no suite settings"):
        _suite_config(UnitResult({"unit": "u"}, None, ()))


def test_the_cost_table_gives_median_and_p95_seconds_at_one_precision() -> None:
    def result(arm: str, seconds: float, tokens: int) -> UnitResult:
        run = {"outcome": "equivalent", "epochs": 1, "examples": 8, "hypothesis": "a", "totals": {
            "seconds": seconds, "teacher_seconds": 0.0, "prompt_tokens": tokens, "completion_tokens": 0}}  # fmt: skip
        return UnitResult({"unit": f"{arm}/{seconds}", "arm": arm, "target": "a"}, run, ())

    table = cost_summary([result("x", 0.26, 1000), result("x", 0.28, 2001)], tokens=True)
    row = next(line for line in table.splitlines() if line.startswith("| x |")).split(" | ")
    p50, p95, tokens = row[6], row[7], row[9].rstrip(" |")
    assert (p50, p95) == ("0.27", "0.28")  # was "0.3" beside "0.28": a median above its p95
    assert tokens == "1,500"


def test_an_arm_whose_runs_are_all_unfinished_says_how_many() -> None:
    unit = {
        "unit": "u",
        "arm": "x",
        "learner": "lstar",
        "dataset": "d",
        "target": "a",
        "star_depth": 0,
        "states": 2,
    }
    results = [UnitResult({**unit, "unit": f"u{k}"}, None, ()) for k in range(2)]
    assert "| x | — (2 unfinished) | — (2 unfinished) |" in success_by_star_depth(
        results, "d"
    )  # was "| x | — | — |"
