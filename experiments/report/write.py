"""``report.md`` and its figures for a run directory, recomputed from the records every time.

:func:`write_report` reads the manifest and every unit's JSON Lines (:mod:`experiments.report.load`),
builds the tables (:mod:`experiments.report.tables`, :mod:`~experiments.report.acegis`,
:mod:`~experiments.report.llm_costs`) and the SVG figures (:mod:`experiments.report.figures`), and
writes them into ``run_dir`` (figures under ``figures/``). It is what ``python -m cli report
RUN_DIR`` runs, and what every experiment runs at its end; running it on a half-finished experiment
reports what is there.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from cegis.llm.settings import SETTINGS
from experiments.errors import DamagedRecords
from experiments.report import figures, llm_costs
from experiments.report.acegis import acegis_tables
from experiments.report.answers import answer_table, constrained_table
from experiments.report.load import LoadedRun, UnitResult, load_run
from experiments.report.tables import (
    cost_summary,
    figure_budgets,
    groups,
    heatmap_grid,
    heatmap_table,
    mean_at_budget,
    pareto,
    sample_efficiency,
    success_by_star_depth,
)
from experiments.unit_file import refuse_damage

REPORT = "report.md"


def write_report(run_dir: Path, *, skip_damaged: bool = False) -> Path:
    """Write ``run_dir/report.md`` and ``run_dir/figures/*.svg``; return the report's path.

    Damaged record lines raise :class:`~experiments.errors.DamagedRecords`; with ``skip_damaged``
    their units are left out of every table and the report says how many."""
    loaded = load_run(run_dir)
    if not skip_damaged:
        refuse_damage(
            list(loaded.damage),
            hint="repair those lines, or report without their units (--skip-damaged)",
        )
    results = tuple(r for r in loaded.results if not r.damaged)
    plan = _plan(run_dir)
    figure_dir = run_dir / "figures"
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
    out += _skipped(plan, results)
    out += _left_out(run_dir, loaded)
    if any(_samples_only(r) for r in results):
        out += [
            "Standard learns from random labeled samples, not counterexamples; the loop still records "
            'its epochs with `source: "counterexamples"` (the verdict\'s mode `sample` tells them apart), '
            "and its sample-efficiency budgets count those samples.",
            "",
        ]
    models = any(r.unit.get("learner") == "llm" for r in results)
    if not models:
        out += [
            "No arm asked a model, so the report has no token columns and no success-against-tokens figure.",
            "",
        ]
    datasets = groups(results, lambda r: r.unit["dataset"])
    for dataset, mine in datasets.items():
        out += _dataset_section(str(dataset), mine, figure_dir, models)
    out += _optional("A-CEGIS trajectory metrics", acegis_tables(results, _descriptions(results)))
    out += _optional("Guarded learner (SEVerA)", llm_costs.guard_table(results))
    out += _optional("LLM tokens, latency and cost", llm_costs.token_table(results, _price(plan)))
    out += _optional("Context overflows and output-budget cuts", llm_costs.budget_table(results))
    out += _optional("Server deviations from the request", llm_costs.deviation_table(results))
    out += _optional("Answer format: replies the learner could read", answer_table(results))
    out += _optional("Constrained answers side by side", constrained_table(results))
    out += _errors(run_dir, results)
    path = run_dir / REPORT
    path.write_text("\n".join(out).rstrip() + "\n", encoding="utf-8")
    return path


def _left_out(run_dir: Path, loaded: LoadedRun) -> list[str]:
    """A paragraph saying which records files ``--skip-damaged`` left out of every table, and why
    (each file's first damaged line, and how many more it has)."""
    if not loaded.damage:
        return []
    left_out = sum(r.damaged for r in loaded.results)
    lines = Counter(damage.path for damage in loaded.damage)
    first = {damage.path: damage for damage in reversed(loaded.damage)}
    return [
        f"**{len(loaded.damage)} damaged record line(s) in {left_out} unit(s): those units are left out of every"
        " table below** (`--skip-damaged`):",
        "",
        *(
            f"- `{path.relative_to(run_dir) if path.is_relative_to(run_dir) else path}` line"
            f" {first[path].line}: {first[path].problem}"
            + (f" (and {count - 1} more damaged lines)" if count > 1 else "")
            for path, count in lines.items()
        ),
        "",
    ]


def _skipped(plan: dict[str, object], results: Sequence[UnitResult]) -> list[str]:
    """A paragraph naming the plan's datasets that have no unit in this run, and why: the runner
    leaves out an optional dataset whose files are absent (the description above may still name it)."""
    present = {r.unit["dataset"] for r in results}
    named = plan.get("datasets")
    absent = (
        [d for d in named if isinstance(d, dict) and d.get("name") not in present]
        if isinstance(named, list)
        else []
    )
    if not absent:
        return []
    lines = [
        f"- `{d.get('name')}`: "
        + ("optional, and its files were absent when the experiment ran (the shared data: see the README's"
           " Data section and `REGEX_CEGIS_DATA`)" if d.get("optional") else "no unit of it has been recorded yet")
        for d in absent
    ]  # fmt: skip
    return [
        f"**Skipped: {len(absent)} dataset(s) of the plan have no results in this report**, so no"
        " table or figure below covers them:",
        "",
        *lines,
        "",
    ]


def _plan(run_dir: Path) -> dict[str, object]:
    path = run_dir / "plan.json"
    if not path.exists():
        return {}
    try:
        plan = json.loads(path.read_bytes().decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        plan = None
    if not isinstance(plan, dict):
        raise DamagedRecords(
            f"{path} is not the plan the runner writes; run the experiment again to rewrite it"
        )
    return plan


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


def _dataset_section(
    dataset: str, results: Sequence[UnitResult], figure_dir: Path, models: bool
) -> list[str]:
    out = [f"## Dataset `{dataset}`", ""]
    out += ["### Run-level success by StarDepth", "", success_by_star_depth(results, dataset), ""]
    out += ["### Cost and efficiency", "", cost_summary(results, tokens=models), ""]
    out += [
        "### Success over #States × StarDepth",
        "",
        "Each cell: the success rate of its finished runs (n of them), and how many are unfinished.",
        "",
    ]
    for arm, runs in groups(results, lambda r: r.unit["arm"]).items():
        states, depths, grid = heatmap_grid(runs)
        out += [f"**{arm}**", "", heatmap_table(runs), ""]
        out += [
            _figure(
                figures.heatmap(
                    grid,
                    states,
                    depths,
                    f"{dataset} · {arm}",
                    figure_dir / f"heatmap-{dataset}-{arm}.svg",
                )
            )
        ]
    out += [
        "### Sample efficiency",
        "",
        "A budget counts labeled examples: those the teacher showed plus the membership queries the learner"
        " asked (L*'s). Mean evaluation accuracy of the hypothesis proposed from at most N of them, per"
        " StarDepth and over all StarDepths (the `all` rows are the figure's lines), over the finished runs"
        " that had made a proposal by then (n of them; — where none had; a proposal without a regex counts as"
        " accuracy 0 and Diff Ratio 1). A run that ended keeps its final value at every larger budget, and the"
        " last column is the most labeled examples any run used, so it holds every finished run:",
        "",
    ]
    out += [
        sample_efficiency(results, 0),
        "",
        "Mean Diff Ratio (lower is better):",
        "",
        sample_efficiency(results, 1),
        "",
    ]
    for metric, name in ((0, "accuracy"), (1, "Diff Ratio")):
        path = figure_dir / f"efficiency-{dataset}-{name.replace(' ', '-').lower()}.svg"
        series = _curve_series(results, metric)
        title = f"{dataset}: mean {name} by budget, all StarDepths"
        drawn = figures.curves(
            series, figure_budgets(results), name, LABELED, title, path, note=METRICS[name]
        )
        out += [_figure(drawn)]
    if models:
        table, points = pareto(results)
        out += ["### Success against tokens", "", table, ""]
        out += [
            _figure(
                figures.pareto(
                    points, f"{dataset}: success vs tokens", figure_dir / f"pareto-{dataset}.svg"
                )
            )
        ]
    return out


LABELED = "labeled examples (shown + membership queries)"
#: What each sample-efficiency figure plots, said under its title.
METRICS = {
    "accuracy": "accuracy: share of the teacher's evaluation strings the hypothesis labels right"
    " (higher is better)",
    "Diff Ratio": "Diff Ratio: strings up to length k (diff_ratio_k, 32 by default) in exactly one"
    " of hypothesis and target\n÷ strings in either of them (0: the same language; lower is better)",
}


def _figure(path: Path) -> str:
    return f"![{path.stem}](figures/{path.name})\n"


def _curve_series(
    results: Sequence[UnitResult], metric: int
) -> dict[str, list[tuple[float | None, int]]]:
    return {
        str(arm): [mean_at_budget(runs, budget, metric) for budget in figure_budgets(results)]
        for arm, runs in groups(results, lambda r: r.unit["arm"]).items()
    }


def _errors(run_dir: Path, results: Sequence[UnitResult]) -> list[str]:
    """The units ``errors.jsonl`` says raised and that have not finished since (the next run
    retries them), each with its latest error. The file is a log beside the records, appended to
    and never rewritten, so a line a crash cut short is counted, not read."""
    path = run_dir / "errors.jsonl"
    if not path.exists():
        return []
    latest: dict[str, str] = {}
    unreadable = 0
    for line in path.read_bytes().splitlines():
        try:
            entry = json.loads(line) if line.strip() else None
            if entry is not None:
                latest[str(entry["unit"])] = str(entry["error"])
        except (ValueError, TypeError, KeyError):  # cut short, not UTF-8, or not an entry
            unreadable += 1
    finished = {r.unit["unit"] for r in results if r.finished}
    lines = [f"- `{unit}`: {error}" for unit, error in latest.items() if unit not in finished][-50:]
    if unreadable:
        lines.append(f"- {unreadable} line(s) of errors.jsonl could not be read")
    return (
        ["## Units that raised and have not finished since (see errors.jsonl)", "", *lines, ""]
        if lines
        else []
    )
