"""``report.md`` and its figures for a run directory, recomputed from the records every time.

:func:`write_report` reads the manifest and every unit's JSON Lines (:mod:`experiments.report.load`),
builds the tables (:mod:`experiments.report.tables`, :mod:`experiments.report.acegis`) and, when
matplotlib is installed, the PNG figures (:mod:`experiments.report.figures`), and writes them into
``run_dir`` (figures under ``figures/``). It is what ``python -m cli report RUN_DIR`` runs, and what
every experiment runs at its end; running it on a half-finished experiment reports what is there.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from cegis.llm.settings import SETTINGS
from experiments.report import figures, llm_costs
from experiments.report.acegis import acegis_tables
from experiments.report.load import UnitResult, load_run
from experiments.report.tables import (
    BUDGETS,
    cost_summary,
    groups,
    heatmap_table,
    mean_at_budget,
    pareto,
    sample_efficiency,
    success_by_star_depth,
    success_rate,
)

REPORT = "report.md"


def write_report(run_dir: Path) -> Path:
    """Write ``run_dir/report.md`` (and ``run_dir/figures/*.png`` with matplotlib); return its path."""
    results = load_run(run_dir)
    plan = _plan(run_dir)
    plots = figures.available()
    figure_dir = run_dir / "figures"
    if plots:
        figure_dir.mkdir(exist_ok=True)
    finished = sum(r.finished for r in results)
    out = [f"# Report: {plan.get('name', run_dir.name)}", ""]
    if plan.get("description"):
        out += [str(plan["description"]), ""]
    out += [
        f"Units: {len(results)} ({finished} finished, {len(results) - finished} unfinished); "
        f"seeds {plan.get('seeds', '?')}; teacher profile `{plan.get('teacher_profile', '?')}`. "
        "Every number below is recomputed from the JSON Lines records in `records/`.",
        "",
    ]
    if any(_samples_only(r) for r in results):
        out += [
            "Standard learns from random labeled samples, not counterexamples; the loop still records "
            'its epochs with `source: "counterexamples"` (the verdict\'s mode `sample` tells them apart), '
            "and its sample-efficiency budgets count those samples.",
            "",
        ]
    if not plots:
        out += ['Figures are not drawn: matplotlib is not installed (`pip install -e ".[plots]"`).', ""]
    datasets = groups(results, lambda r: r.unit["dataset"])
    for dataset, mine in datasets.items():
        out += _dataset_section(str(dataset), mine, figure_dir if plots else None)
    out += _optional("A-CEGIS trajectory metrics", acegis_tables(results, _descriptions(results)))
    out += _optional("Guarded learner (SEVerA)", llm_costs.guard_table(results))
    out += _optional("LLM tokens, latency and cost", llm_costs.token_table(results, _price(plan)))
    out += _optional("Context overflows and output-budget cuts", llm_costs.budget_table(results))
    out += _errors(run_dir)
    path = run_dir / REPORT
    path.write_text("\n".join(out).rstrip() + "\n", encoding="utf-8")
    return path


def _plan(run_dir: Path) -> dict[str, object]:
    path = run_dir / "plan.json"
    return dict(json.loads(path.read_text(encoding="utf-8"))) if path.exists() else {}


def _price(plan: dict[str, object]) -> dict[str, float] | None:
    price = plan.get("price")
    return {str(k): float(v) for k, v in price.items()} if isinstance(price, dict) else None


def _samples_only(result: UnitResult) -> bool:
    setting = SETTINGS.get(result.unit.get("setting") or "")
    return setting is not None and not setting.counterexamples


def _descriptions(results: Sequence[UnitResult]) -> dict[str, str]:
    return {r.unit["task"]: r.unit["description"] for r in results if r.unit.get("description")}


def _optional(title: str, body: str | None) -> list[str]:
    return [] if body is None else [f"## {title}", "", body, ""]


def _dataset_section(dataset: str, results: Sequence[UnitResult], figure_dir: Path | None) -> list[str]:
    out = [f"## Dataset `{dataset}`", ""]
    out += ["### Run-level success by StarDepth", "", success_by_star_depth(results, dataset), ""]
    out += ["### Cost and efficiency", "", cost_summary(results), ""]
    out += ["### Success over #States × StarDepth", ""]
    for arm, runs in groups(results, lambda r: r.unit["arm"]).items():
        out += [f"**{arm}**", "", heatmap_table(runs), ""]
        if figure_dir is not None:
            out += [_figure(_heatmap(runs, f"{dataset} · {arm}", figure_dir / f"heatmap-{dataset}-{arm}.png"), figure_dir)]
    out += ["### Sample efficiency", "", "Mean evaluation accuracy of the hypothesis proposed from at most N labeled examples:", ""]
    out += [sample_efficiency(results, 0), "", "Mean Diff Ratio (lower is better):", "", sample_efficiency(results, 1), ""]
    if figure_dir is not None:
        for metric, name in ((0, "accuracy"), (1, "Diff Ratio")):
            path = figure_dir / f"efficiency-{dataset}-{name.replace(' ', '-').lower()}.png"
            out += [_figure(figures.curves(_curve_series(results, metric), BUDGETS, name, f"{dataset}: {name} by budget", path), figure_dir)]
    table, points = pareto(results)
    out += ["### Success against tokens", "", table, ""]
    if figure_dir is not None:
        out += [_figure(figures.pareto(points, f"{dataset}: success vs tokens", figure_dir / f"pareto-{dataset}.png"), figure_dir)]
    return out


def _figure(path: Path, figure_dir: Path) -> str:
    return f"![{path.stem}](figures/{path.relative_to(figure_dir)})\n"


def _heatmap(runs: Sequence[UnitResult], title: str, path: Path) -> Path:
    states = sorted({r.states for r in runs})
    depths = sorted({r.star_depth for r in runs})
    cells = groups(runs, lambda r: (r.states, r.star_depth))
    grid = [[success_rate(cells.get((s, d), [])) for d in depths] for s in states]
    return figures.heatmap(grid, states, depths, title, path)


def _curve_series(results: Sequence[UnitResult], metric: int) -> dict[str, list[float | None]]:
    return {
        str(arm): [mean_at_budget(runs, budget, metric) for budget in BUDGETS]
        for arm, runs in groups(results, lambda r: r.unit["arm"]).items()
    }


def _errors(run_dir: Path) -> list[str]:
    path = run_dir / "errors.jsonl"
    if not path.exists():
        return []
    entries = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    lines = [f"- `{e['unit']}`: {e['error']}" for e in entries[-50:]]
    return ["## Units that raised (see errors.jsonl)", "", *lines, ""]
