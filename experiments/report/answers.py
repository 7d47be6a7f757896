"""The report's answer-format table: how often the model's reply held a regex the learner could read.

A small model (or a new prompt) fails long before it fails to learn: it answers in prose, leaves
``<ans>`` unclosed, or runs on until the completion budget cuts it. The table counts, per LLM arm,
the proposals (one per epoch) and those whose answer parsed: the proposal carried the model's own
hypothesis, or its failure says the regex parsed but was refused (``outside_dialect``,
``does_not_compile``, ``inconsistent``). A guarded proposal that the fallback answered counts as
not answered. The failures are split by the kind the epoch record names, so a run that went on
through unreadable replies shows why each one was unreadable.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from experiments.report.load import JSON, UnitResult
from experiments.report.tables import groups, markdown

#: Failure kinds of a proposal whose regex parsed, but was refused afterwards.
PARSED = frozenset({"outside_dialect", "does_not_compile", "inconsistent"})
#: Failure kinds shown in their own column; the rest are counted as "other".
SHOWN = ("truncated", "no_regex", "syntax_error", "server_error", "budget")


def _llm_epochs(run: UnitResult) -> list[JSON]:
    return [
        epoch
        for epoch in run.epochs
        if isinstance(epoch.get("memo"), dict) and "calls" in epoch["memo"]
    ]


def answered(epoch: JSON) -> bool:
    """Whether the epoch's proposal held a regex the model wrote and the learner could parse."""
    failure = epoch.get("failure")
    if failure is None:
        return epoch.get("hypothesis") is not None and epoch["memo"].get("fallback") is None
    return isinstance(failure, dict) and failure.get("kind") in PARSED


def answer_table(results: Sequence[UnitResult]) -> str | None:
    """Per LLM arm: proposals, those with a parsable answer and their rate, and the failure kinds."""
    rows = []
    for arm, runs in groups(results, lambda r: r.unit["arm"]).items():
        epochs = [epoch for run in runs for epoch in _llm_epochs(run)]
        if not epochs:
            continue
        parsed = sum(answered(epoch) for epoch in epochs)
        kinds = Counter(
            epoch["failure"].get("kind")
            for epoch in epochs
            if isinstance(epoch.get("failure"), dict) and not answered(epoch)
        )
        other = sum(count for kind, count in kinds.items() if kind not in SHOWN)
        rows.append(
            [
                arm,
                len(epochs),
                parsed,
                f"{parsed / len(epochs):.3f}",
                *(kinds[kind] for kind in SHOWN),
                other,
            ]
        )
    if not rows:
        return None
    return markdown(
        [
            "arm",
            "proposals",
            "with a parsable answer",
            "answer-format rate",
            *SHOWN,
            "other failures",
        ],
        rows,
    )
