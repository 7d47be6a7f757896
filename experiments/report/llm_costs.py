"""The report's LLM accounting: tokens, latency and cost; context overflows and output-budget
cuts; and the guarded arms' SEVerA statistics, per arm, recounted from the epoch records.

Every number comes from what the learner wrote into its epoch memo (:mod:`cegis.llm.learner`):
one note per model call (latency, the tokens the server reported, the output budget asked and
sent, the failure), the guard's tallies, the fallback used and any contract violation. The guard
table follows SEVerA's definitions (Table 8, Eq. 21; see :func:`guard_table`). Counts a
server did not report stay unknown: a reasoning- or cached-token total over calls of which any
went unreported is shown as "unknown", never as a sum that treats the gap as 0; a prompt or
completion total with gaps is shown as the reported part, "≥", with how many calls it misses.
What a server did that the call did not ask for (its ``deviations``: choices other than ``n``, a
model other than the one asked, a budget overrun, an unreadable field) is counted per arm in
:func:`deviation_table`, so a server that ignores a field shows in the report, not only in the
records.

Cost is tokens × the plan's price per million tokens (``[price]``: ``prompt``, ``cached_prompt``,
``completion``; reasoning tokens are part of the completion), and is left out without a price.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from cegis.llm.settings import SETTINGS, LLMSetting
from experiments.report.load import JSON, UnitResult
from experiments.report.tables import groups, markdown


def _setting(result: UnitResult) -> LLMSetting | None:
    return SETTINGS.get(result.unit.get("setting") or "")


def _memos(result: UnitResult) -> Iterable[Mapping[str, Any]]:
    for epoch in result.epochs:
        memo = epoch.get("memo")
        if isinstance(memo, dict):
            yield memo


def _calls(runs: Sequence[UnitResult]) -> list[JSON]:
    return [call for run in runs for memo in _memos(run) for call in memo.get("calls", ())]


def percentile(values: Sequence[float], q: float) -> float | None:
    """The nearest-rank ``q``-th percentile (0 < q ≤ 100) of ``values``; None when empty."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def _known_total(calls: Sequence[JSON], field: str) -> int | None:
    sent = [call for call in calls if call.get("failure") is None]
    values = [call.get(field) for call in sent]
    return None if any(v is None for v in values) else sum(int(v) for v in values if v is not None)


def _count(value: int | None) -> str:
    return "unknown" if value is None else f"{value:,}"


def _replies(calls: Sequence[JSON]) -> list[JSON]:
    return [call for call in calls if call.get("failure") is None]


def _reported(calls: Sequence[JSON], field: str) -> tuple[int, int]:
    """The sum of ``field`` over the replies that report it, and how many replies do not."""
    values = [call.get(field) for call in _replies(calls)]
    return sum(int(v) for v in values if v is not None), sum(v is None for v in values)


def _partial(calls: Sequence[JSON], field: str) -> str:
    """The total of ``field``: exact, a lower bound naming the replies it misses, or unknown."""
    total, missing = _reported(calls, field)
    if not missing:
        return f"{total:,}"
    unreported = f"{missing} call{'s' * (missing != 1)} unreported"
    if missing == len(_replies(calls)):
        return f"unknown ({unreported})"
    return f"≥ {total:,} ({unreported})"


def _seconds(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"


def _cost(calls: Sequence[JSON], price: Mapping[str, float]) -> str:
    prompt, prompt_missing = _reported(calls, "prompt_tokens")
    completion, completion_missing = _reported(calls, "completion_tokens")
    at_least = "≥ " if prompt_missing or completion_missing else ""
    cached = _known_total(calls, "cached_tokens") or 0  # unknown cache hits are billed as uncached
    rate_cached = price.get("cached_prompt", price.get("prompt", 0.0))
    usd = (
        (prompt - cached) * price.get("prompt", 0.0)
        + cached * rate_cached
        + completion * price.get("completion", 0.0)
    ) / 1e6
    return f"{at_least}{usd:,.2f}"


def token_table(
    results: Sequence[UnitResult], price: Mapping[str, float] | None = None
) -> str | None:
    """Per LLM arm: calls, prompt (of them cached), completion and reasoning tokens, per-call
    latency p50/p95, and the cost at ``price`` (USD per million tokens) when the plan gives one."""
    rows = []
    for arm, runs in groups(results, lambda r: r.unit["arm"]).items():
        calls = _calls(runs)
        if _setting(runs[0]) is None or not calls:
            continue
        sent = [
            c
            for c in calls
            if not (c.get("failure") == "context_overflow" and c.get("sent_budget") is None)
        ]
        latencies = [float(c["seconds"]) for c in sent]
        row = [
            arm,
            len(calls),
            _partial(calls, "prompt_tokens"),
            _count(_known_total(calls, "cached_tokens")),
            _partial(calls, "completion_tokens"),
            _count(_known_total(calls, "reasoning_tokens")),
            _seconds(percentile(latencies, 50)),
            _seconds(percentile(latencies, 95)),
        ]
        rows.append(row + ([_cost(calls, price)] if price else []))
    if not rows:
        return None
    header = [
        "arm",
        "calls",
        "prompt tokens",
        "of them cached",
        "completion tokens",
        "reasoning tokens",
        "p50 s/call",
        "p95 s/call",
    ]
    return markdown(header + (["cost (USD)"] if price else []), rows)


def deviation_table(results: Sequence[UnitResult]) -> str | None:
    """Per LLM arm with any: the calls whose reply departed from the request, and each kind of
    departure with its count. A deviation reads ``what happened: what it means`` (``3 of 1
    choices returned: the server ignores n``), and is counted under what it means; a reply from
    another model than the one asked is counted per model that answered, so models that mixed in
    a run are named."""
    rows = []
    for arm, runs in groups(results, lambda r: r.unit["arm"]).items():
        calls = _calls(runs)
        kinds: dict[str, int] = {}
        for call in calls:
            for deviation in call.get("deviations") or ():
                kind = _deviation_kind(str(deviation))
                kinds[kind] = kinds.get(kind, 0) + 1
        if kinds:
            departed = sum(bool(call.get("deviations")) for call in calls)
            listed = "; ".join(f"{meaning} ({count})" for meaning, count in sorted(kinds.items()))
            rows.append([arm, len(calls), departed, listed])
    if not rows:
        return None
    return markdown(["arm", "calls", "calls with deviations", "deviations (calls)"], rows)


_OTHER_MODEL = re.compile(r"reply from model ('.*'), asked '.*': (.*)", re.DOTALL)


def _deviation_kind(deviation: str) -> str:
    """The row's name for ``deviation``: what it means, with the model that answered if another."""
    other = _OTHER_MODEL.fullmatch(deviation)
    if other is not None:
        return f"{other[2]} {other[1]}"
    return deviation.rpartition(": ")[2]


def budget_table(results: Sequence[UnitResult]) -> str | None:
    """Per LLM arm: the overflow policy, calls refused because the prompt did not fit the context,
    calls whose output budget was cut below the one asked, and epochs whose prompt showed only
    part of the examples (the ``newest`` policy)."""
    rows = []
    for arm, runs in groups(results, lambda r: r.unit["arm"]).items():
        setting = _setting(runs[0])
        calls = _calls(runs)
        if setting is None or not calls:
            continue
        overflows = sum(c.get("failure") == "context_overflow" for c in calls)
        cuts = sum(
            c.get("sent_budget") is not None and c["sent_budget"] < c.get("asked_budget", 0)
            for c in calls
        )
        partial = sum(memo.get("shown") is not None for run in runs for memo in _memos(run))
        rows.append([arm, setting.overflow, overflows, cuts, partial])
    if not rows:
        return None
    return markdown(
        [
            "arm",
            "overflow policy",
            "context overflows",
            "output budget cuts",
            "epochs with examples cut",
        ],
        rows,
    )


def _triggered(run: UnitResult) -> bool:
    """Whether the fallback produced the run's final output (SEVerA Table 8's trigger): the last
    epoch's hypothesis is the fallback's, not a model draw the teacher accepted among its tries."""
    if not run.epochs:
        return False
    last = run.epochs[-1]
    memo = last.get("memo")
    return (
        isinstance(memo, dict)
        and memo.get("fallback") is not None
        and last.get("accepted_candidate") is None
    )


def _tally(run: UnitResult) -> Mapping[str, int] | None:
    """The guard's run totals: the tally of the run's last epoch that has one."""
    tallies = [memo["tally"] for memo in _memos(run) if isinstance(memo.get("tally"), dict)]
    return tallies[-1] if tallies else None


def guard_table(results: Sequence[UnitResult]) -> str | None:
    """Per guarded arm, SEVerA's measures (Table 8, Eq. 21) over its finished runs:

    * fallback trigger rate: the runs whose final output the fallback produced ÷ the runs;
    * success, and success without the fallback: the latter leaves the triggered runs out of both
      the numerator and the denominator (Table 8's Gain*);
    * conformance: the fraction of the K draws per proposal that meet the contract (Eq. 21),
      conforming ÷ (K × proposals), for arms that draw all K (``draw_all``); an arm that stops at
      the first conforming draw has none, and its "draws per proposal" says so.

    Proposals, draws and contract violations (no draw and no fallback met the contract) are
    counted over every run, finished or not."""
    rows = []
    for arm, runs in groups(results, lambda r: r.unit["arm"]).items():
        setting = _setting(runs[0])
        tallies = [t for run in runs if (t := _tally(run)) is not None]
        if setting is None or setting.guard is None or not tallies:
            continue
        guard = setting.guard
        proposals, draws, conforming = (sum(int(t.get(k, 0)) for t in tallies) for k in _TALLY)
        violations = sum(memo.get("violation") is not None for run in runs for memo in _memos(run))
        done = [r for r in runs if r.finished]
        triggered = [_triggered(r) for r in done]
        model_runs = [r for r, fell_back in zip(done, triggered) if not fell_back]
        rows.append(
            [
                arm,
                len(done),
                proposals,
                draws,
                f"all K = {guard.draws}"
                if guard.draw_all
                else f"until one conforms (K = {guard.draws})",
                f"{conforming / (guard.draws * proposals):.3f}"
                if guard.draw_all and proposals
                else "—",
                _share(sum(triggered), len(done)),
                violations,
                _share(sum(r.success for r in done), len(done)),
                _share(sum(r.success for r in model_runs), len(model_runs)),
            ]
        )
    if not rows:
        return None
    header = [
        "arm",
        "runs",
        "proposals",
        "draws",
        "draws per proposal",
        "conformance over K draws",
        "fallback trigger rate (runs)",
        "contract violations",
        "success",
        "success without fallback runs",
    ]
    return markdown(header, rows)


_TALLY = ("proposals", "draws", "conforming")


def _share(wins: int, total: int) -> str:
    return f"{100 * wins / total:.1f}% ({wins}/{total})" if total else "—"
