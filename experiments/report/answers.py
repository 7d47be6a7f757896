"""The report's answer-format table: how often the model's reply held a regex the learner could read.

A small model (or a new prompt) fails long before it fails to learn: it answers in prose, leaves
``<ans>`` unclosed, or runs on until the completion budget cuts it. The table counts, per LLM arm,
every *answer* the model was asked for: each try a proposal read (every ``<ans>`` block a
multi-candidate reply holds, every draw of the guard or the repair loop: the memo's ``scored``,
each with the failure kind of its first failing check) and each call that brought back nothing
(a server error, a prompt that did not fit: the memo's ``calls`` with a failure). An answer is
parsable when its regex parsed, even if it was refused afterwards (``outside_dialect``,
``does_not_compile``, ``inconsistent``). Every answer is in exactly one column: parsable, or one
failure kind, so the columns add up to the answers. The proposals the guard's fallback answered
and the runs that succeeded stand beside them, so an arm run with and without an option
(``constrained``) reads side by side, with the calls whose reply lay outside the answer grammar
the request carried (a server that ignores the constraint). Records written before tries carried
their failure kind count those tries as ``other``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from cegis.llm.drafts import OUTSIDE_GRAMMAR
from experiments.report.load import JSON, UnitResult
from experiments.report.tables import groups, markdown

#: Failure kinds of a try whose regex parsed, but was refused afterwards.
PARSED = frozenset({"outside_dialect", "does_not_compile", "inconsistent"})
#: Failure kinds shown in their own column; the rest are counted as "other".
SHOWN = ("truncated", "no_regex", "syntax_error", "server_error", "budget")
#: What an answer that parsed is counted as.
_OK = "parsed"
_UNKNOWN = "unknown"


def _llm_epochs(run: UnitResult) -> list[JSON]:
    return [
        epoch
        for epoch in run.epochs
        if isinstance(epoch.get("memo"), dict) and "calls" in epoch["memo"]
    ]


def answer_kinds(epoch: JSON) -> list[str]:
    """What became of every answer the epoch asked for: ``parsed`` or a failure kind, one entry
    per try read and per call that returned nothing."""
    memo = epoch["memo"]
    kinds = []
    for attempt in memo.get("scored", ()):
        kind = attempt.get("failure", _UNKNOWN) if isinstance(attempt, dict) else _UNKNOWN
        kinds.append(_OK if kind is None or kind in PARSED else str(kind))
    for call in memo.get("calls", ()):
        failure = call.get("failure") if isinstance(call, dict) else None
        if failure is not None:
            kinds.append("budget" if failure == "context_overflow" else "server_error")
    return kinds


def answer_table(results: Sequence[UnitResult]) -> str | None:
    """Per LLM arm: proposals, answers, those parsable and their rate, the failure kinds, the
    proposals the fallback answered, and the runs that succeeded."""
    rows = []
    for arm, runs in groups(results, lambda r: r.unit["arm"]).items():
        epochs = [epoch for run in runs for epoch in _llm_epochs(run)]
        if not epochs:
            continue
        kinds = Counter(kind for epoch in epochs for kind in answer_kinds(epoch))
        answers = sum(kinds.values())
        parsed = kinds[_OK]
        other = sum(count for kind, count in kinds.items() if kind not in (_OK, *SHOWN))
        fallbacks = sum(epoch["memo"].get("fallback") is not None for epoch in epochs)
        ignored = sum(
            OUTSIDE_GRAMMAR in call.get("deviations", ())
            for epoch in epochs
            for call in epoch["memo"]["calls"]
            if isinstance(call, dict)
        )
        finished = [run for run in runs if run.finished]
        rows.append(
            [
                arm,
                len(epochs),
                answers,
                parsed,
                f"{parsed / answers:.3f}" if answers else "-",
                *(kinds[kind] for kind in SHOWN),
                other,
                ignored,
                fallbacks,
                f"{sum(run.success for run in finished)}/{len(finished)}",
            ]
        )
    if not rows:
        return None
    return markdown(
        [
            "arm",
            "proposals",
            "answers",
            "parsable",
            "answer-format rate",
            *SHOWN,
            "other failures",
            "outside grammar",
            "fallback answered",
            "runs succeeded",
        ],
        rows,
    )
