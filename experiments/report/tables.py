"""The report's tables, each a pure function from unit results to Markdown.

Groupings follow the seed paper: success by StarDepth (Table 1's layout, with the paper's figures
in rows labeled as the paper's where the setting matches), success over #States × StarDepth (its
heatmaps), evaluation accuracy and Diff Ratio by sample budget (its sample-efficiency figure),
success against tokens (its Pareto fronts). A-CEGIS's trajectory metrics are in
:mod:`experiments.report.acegis`, the LLM arms' tokens and SEVerA's guard statistics in
:mod:`experiments.report.llm_costs`.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence

import attrs

from experiments.report.legend import legend
from experiments.report.load import UnitResult
from experiments.report.published import published

#: Labeled-example budgets of the sample-efficiency table (log scale, as the paper's 3 → 3000).
BUDGETS = (8, 16, 32, 64, 128, 256, 512, 1024, 3000)


def markdown(header: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A Markdown table, and under it the legend of its columns (:mod:`experiments.report.legend`)."""
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines) + "\n\n" + legend(header)


def groups(
    results: Iterable[UnitResult], key: Callable[[UnitResult], object]
) -> dict[object, list[UnitResult]]:
    """Results grouped by ``key``, in first-seen order."""
    grouped: dict[object, list[UnitResult]] = defaultdict(list)
    for result in results:
        grouped[key(result)].append(result)
    return dict(grouped)


def _rate(results: Sequence[UnitResult]) -> str:
    done = [r for r in results if r.finished]
    pending = len(results) - len(done)
    if not done:
        return f"— ({pending} unfinished)" if pending else "—"
    wins = sum(r.success for r in done)
    return f"{100 * wins / len(done):.1f}% ({wins}/{len(done)}{f', {pending} unfinished' if pending else ''})"


def success_by_star_depth(results: Sequence[UnitResult], dataset: str) -> str:
    """Run-level success per arm by StarDepth on one dataset, the paper's rows beside matching arms."""
    mine = [r for r in results if r.unit["dataset"] == dataset]
    depths = sorted({r.star_depth for r in mine})
    header = ["arm", *(f"SD={d}" for d in depths), "all"]
    rows: list[list[object]] = []
    for arm, runs in groups(mine, lambda r: r.unit["arm"]).items():
        by_depth = groups(runs, lambda r: r.star_depth)
        rows.append([arm, *(_rate(by_depth.get(d, [])) for d in depths), _rate(runs)])
        paper = published(
            dataset, runs[0].unit.get("setting") if runs[0].unit["learner"] == "llm" else None
        )
        if paper is not None:
            where, figures = paper
            rows.append(
                [
                    f"↳ paper, {where} ({runs[0].unit['setting']})",
                    *(_paper(figures, d) for d in depths),
                    "",
                ]
            )
    return markdown(header, rows)


def _paper(figures: dict[int, float], depth: int) -> str:
    return f"{figures[depth]:.1f}%" if depth in figures else "—"


@attrs.frozen
class HeatCell:
    """One #States × StarDepth cell of an arm: how many of its runs have finished and how many
    not, and the success rate of the finished ones (None before any has)."""

    finished: int
    unfinished: int
    rate: float | None

    @property
    def label(self) -> str:
        """The rate and the number of finished runs it is over, and the unfinished ones if any."""
        pending = f"{self.unfinished} unfinished"
        if self.rate is None:
            return f"— ({pending})"
        return (
            f"{100 * self.rate:.0f}% (n={self.finished}{f', {pending}' if self.unfinished else ''})"
        )


#: The label of a cell no target falls in.
NO_TARGETS = "no targets"


def heatmap_grid(
    results: Sequence[UnitResult],
) -> tuple[list[int], list[int], list[list[HeatCell | None]]]:
    """#States (rows), StarDepths (columns) and per cell its :class:`HeatCell`; None for a cell
    that no target falls in."""
    states = sorted({r.states for r in results})
    depths = sorted({r.star_depth for r in results})
    cells = groups(results, lambda r: (r.states, r.star_depth))
    grid = []
    for s in states:
        row: list[HeatCell | None] = []
        for d in depths:
            mine = cells.get((s, d), [])
            finished = sum(r.finished for r in mine)
            row.append(
                HeatCell(finished, len(mine) - finished, success_rate(mine)) if mine else None
            )
        grid.append(row)
    return states, depths, grid


def heatmap_table(results: Sequence[UnitResult]) -> str:
    """Success rate over #States (rows) × StarDepth (columns) for one dataset and arm, each cell
    with its number of finished runs (n) and of unfinished ones; a cell without a target says so."""
    states, depths, grid = heatmap_grid(results)
    rows = [
        [s, *(NO_TARGETS if c is None else c.label for c in row)] for s, row in zip(states, grid)
    ]
    return markdown(["#States", *(f"SD={d}" for d in depths)], rows)


def success_rate(results: Sequence[UnitResult]) -> float | None:
    """The share of finished runs that succeeded; None when none has finished."""
    done = [r for r in results if r.finished]
    return sum(r.success for r in done) / len(done) if done else None


def at_budget(result: UnitResult, budget: int) -> tuple[float, float] | None:
    """Accuracy and Diff Ratio of the last hypothesis proposed from at most ``budget`` labeled
    examples, membership queries included (a run that was already accepted counts as accuracy 1
    and Diff Ratio 0); None before any."""
    best = None
    for seen, accuracy, diff in result.seen_by_epoch():
        if seen > budget:
            break
        best = (0.0 if accuracy is None else accuracy, 1.0 if diff is None else diff)
    if best is None:
        return None
    if result.success and result.labeled <= budget:
        return (1.0, 0.0)
    return best


def budgets(results: Sequence[UnitResult]) -> tuple[int, ...]:
    """:data:`BUDGETS`, and past its last the labeled examples of the finished run that used the
    most, so the last point holds every finished run at its final hypothesis."""
    most = max((r.labeled for r in results if r.finished), default=0)
    return BUDGETS + ((most,) if most > BUDGETS[-1] else ())


def figure_budgets(results: Sequence[UnitResult]) -> tuple[int, ...]:
    """The budgets of :func:`budgets` up to the first that holds every finished run: the figure's
    axis ends where the runs do (``≤32`` for runs of 20 examples, not ``≤3000``)."""
    every = budgets(results)
    most = max((r.labeled for r in results if r.finished), default=0)
    end = next((k for k, budget in enumerate(every) if budget >= most), len(every) - 1)
    return every[: end + 1]


def mean_at_budget(
    results: Sequence[UnitResult], budget: int, metric: int
) -> tuple[float | None, int]:
    """Mean accuracy (``metric`` 0) or Diff Ratio (1) at ``budget`` over the finished runs that
    had proposed a hypothesis by then (None when none had), and how many those are."""
    values = [v[metric] for r in results if r.finished and (v := at_budget(r, budget)) is not None]
    return (statistics.fmean(values) if values else None), len(values)


def sample_efficiency(results: Sequence[UnitResult], metric: int) -> str:
    """Mean evaluation accuracy (``metric`` 0) or Diff Ratio (1) by budget (:func:`budgets`), each
    with the number of runs it averages, per arm and StarDepth and per arm over all StarDepths
    (the rows the figure plots)."""
    rows = []
    columns = budgets(results)
    for arm, runs in groups(results, lambda r: str(r.unit["arm"])).items():
        by_depth: list[tuple[object, list[UnitResult]]] = [
            (d, [r for r in runs if r.star_depth == d])
            for d in sorted({r.star_depth for r in runs})
        ]
        for depth, mine in [*by_depth, ("all", runs)]:
            means = (mean_at_budget(mine, budget, metric) for budget in columns)
            rows.append([arm, depth, *("—" if m is None else f"{m:.3f} (n={n})" for m, n in means)])
    return markdown(["arm", "SD", *(f"≤{b}" for b in columns)], rows)


def _median(values: Sequence[float], spec: str = ".1f") -> str:
    return format(statistics.median(values), spec) if values else "—"


def _p95(values: Sequence[float]) -> str:
    if not values:
        return "—"
    ordered = sorted(values)
    return f"{ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]:.2f}"


def cost_summary(results: Sequence[UnitResult], *, tokens: bool = True) -> str:
    """Per arm: runs, success, and at success the median examples, epochs and queries; wall time;
    printed length of the learned regex against the target's; with ``tokens``, tokens per run."""
    rows = []
    for arm, runs in groups(results, lambda r: r.unit["arm"]).items():
        done = [r for r in runs if r.finished and r.run is not None]
        won = [r for r in done if r.success and r.run is not None]
        seconds = [_seconds(r) for r in done]
        ratio = [
            len(r.run["hypothesis"]) / max(1, len(r.unit["target"]))
            for r in won
            if r.run and r.run["hypothesis"]
        ]
        rows.append(
            [
                arm,
                len(runs),
                _rate(runs),
                _median([r.examples for r in won]),
                _median([r.run["epochs"] for r in won if r.run]),
                _median([r.run["totals"].get("membership_queries", 0) for r in won if r.run]),
                _median(seconds, ".2f"),  # as precise as the p95 beside it
                _p95(seconds),
                _median(ratio),
                *([_median_tokens(done)] if tokens else []),
            ]
        )
    header = [
        "arm",
        "runs",
        "success",
        "examples*",
        "epochs*",
        "MQ*",
        "s p50",
        "s p95",
        "length ×*",
    ]
    header += ["tokens p50"] if tokens else []
    return markdown(header, rows)


def _median_tokens(done: Sequence[UnitResult]) -> str:
    """The median tokens per run, or "unknown" when a run's usage went unreported."""
    spent = [r.tokens for r in done]
    known = [t for t in spent if t is not None]
    if len(known) < len(spent):
        missing = len(spent) - len(known)
        return f"unknown ({missing} run{'s' * (missing != 1)} without reported usage)"
    return _median(known, ",.0f")


def _seconds(result: UnitResult) -> float:
    totals = result.run["totals"] if result.run else {}
    return float(totals.get("seconds", 0.0)) + float(totals.get("teacher_seconds", 0.0))


def pareto(
    results: Sequence[UnitResult],
) -> tuple[str, list[tuple[str, float | None, float, bool]]]:
    """Success against mean tokens per run for each arm; a point is Pareto-optimal when it
    succeeds at all and no other arm has at least its success with fewer tokens (or more success
    with as few): an arm that never succeeds is not a trade-off, however few tokens it spends. An
    arm with a
    run whose usage went unreported has unknown tokens (None): it is neither on the front nor
    compared against it, since any number put in its place would be made up."""
    points: list[tuple[str, float | None, float]] = []
    unknown: dict[str, str] = {}  # the token cell of an arm with unknown tokens
    for arm, runs in groups(results, lambda r: r.unit["arm"]).items():
        done = [r for r in runs if r.finished]
        if done:
            spent = [r.tokens for r in done]
            known = [t for t in spent if t is not None]
            mean = statistics.fmean(known) if len(known) == len(spent) else None
            points.append((str(arm), mean, sum(r.success for r in done) / len(done)))
            unknown[str(arm)] = (
                f"unknown ({len(spent) - len(known)} of {len(spent)} runs without reported usage)"
            )
    measured = [(t, s) for _, t, s in points if t is not None]
    marked = [
        (
            arm,
            tokens,
            success,
            tokens is not None
            and success > 0
            and not any(
                t <= tokens and s >= success and (t, s) != (tokens, success) for t, s in measured
            ),
        )
        for arm, tokens, success in points
    ]
    table = markdown(
        ["arm", "mean tokens per run", "success", "Pareto-optimal"],
        [
            (
                a,
                unknown[a] if t is None else f"{t:,.0f}",
                f"{100 * s:.1f}%",
                "yes" if p else ("not compared" if t is None else ""),
            )
            for a, t, s, p in marked
        ],
    )
    return table, marked
