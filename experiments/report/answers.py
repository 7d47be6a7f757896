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
their failure kind count those tries as ``other``. When a run holds the same setting with and
without constrained answers (two arms whose fingerprints differ only in
``llm_setting.constrained``), :func:`constrained_table` sets them side by side, with every such
pair summed in its last row; a call not sent because its prompt outgrew the context stays a
failed answer there, and its own column says that is why.
"""

from __future__ import annotations

import functools
import operator
from collections import Counter
from collections.abc import Sequence

import attrs

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


@attrs.frozen
class _ArmCounts:
    """One LLM arm's answers by kind, with its proposals, fallbacks, ignored grammars and runs."""

    proposals: int
    kinds: Counter[str]
    fallbacks: int
    ignored: int
    succeeded: int
    finished: int

    @property
    def answers(self) -> int:
        return sum(self.kinds.values())

    def rate(self) -> str:
        return f"{self.kinds[_OK] / self.answers:.3f}" if self.answers else "-"

    def __add__(self, other: _ArmCounts) -> _ArmCounts:
        return _ArmCounts(
            self.proposals + other.proposals,
            self.kinds + other.kinds,
            self.fallbacks + other.fallbacks,
            self.ignored + other.ignored,
            self.succeeded + other.succeeded,
            self.finished + other.finished,
        )


def _counts(runs: Sequence[UnitResult]) -> _ArmCounts | None:
    epochs = [epoch for run in runs for epoch in _llm_epochs(run)]
    if not epochs:
        return None
    finished = [run for run in runs if run.finished]
    return _ArmCounts(
        proposals=len(epochs),
        kinds=Counter(kind for epoch in epochs for kind in answer_kinds(epoch)),
        fallbacks=sum(epoch["memo"].get("fallback") is not None for epoch in epochs),
        ignored=sum(
            OUTSIDE_GRAMMAR in call.get("deviations", ())
            for epoch in epochs
            for call in epoch["memo"]["calls"]
            if isinstance(call, dict)
        ),
        succeeded=sum(run.success for run in finished),
        finished=len(finished),
    )


def _by_arm(results: Sequence[UnitResult]) -> dict[str, tuple[list[UnitResult], _ArmCounts]]:
    grouped = groups(results, lambda r: r.unit["arm"])
    counted = {str(arm): (runs, _counts(runs)) for arm, runs in grouped.items()}
    return {arm: (runs, counts) for arm, (runs, counts) in counted.items() if counts is not None}


def answer_table(results: Sequence[UnitResult]) -> str | None:
    """Per LLM arm: proposals, answers, those parsable and their rate, the failure kinds, the
    proposals the fallback answered, and the runs that succeeded."""
    rows = []
    for arm, (_, counts) in _by_arm(results).items():
        kinds = counts.kinds
        other = sum(count for kind, count in kinds.items() if kind not in (_OK, *SHOWN))
        rows.append(
            [
                arm,
                counts.proposals,
                counts.answers,
                kinds[_OK],
                counts.rate(),
                *(kinds[kind] for kind in SHOWN),
                other,
                counts.ignored,
                counts.fallbacks,
                f"{counts.succeeded}/{counts.finished}",
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


#: Fingerprint fields that say what an arm asked of the model; two arms that differ only in
#: ``llm_setting.constrained`` are the same setting with and without constrained answers.
_SETTING_FIELDS = ("dataset", "learner", "model", "protocol", "llm_setting.", "config.budgets.")
_CONSTRAINED = "llm_setting.constrained"


def _setting_key(runs: Sequence[UnitResult]) -> tuple[object, ...] | None:
    """What the arm's units asked of the model, its ``constrained`` flag left out (None when a
    unit has no fingerprint or its units disagree)."""
    keys = set()
    for run in runs:
        if run.fingerprint is None or _CONSTRAINED not in run.fingerprint:
            return None
        keys.add(
            tuple(
                sorted(
                    (field, repr(value))
                    for field, value in run.fingerprint.items()
                    if field.startswith(_SETTING_FIELDS) and field != _CONSTRAINED
                )
            )
        )
    return keys.pop() if len(keys) == 1 else None


def constrained_table(results: Sequence[UnitResult]) -> str | None:
    """Each setting run both with and without constrained answers, side by side: answers, the
    answer-format rate, the calls never sent because the prompt did not fit the context (failed
    answers, counted in the rate) and the runs that succeeded, free then constrained, and every
    such pair together; None when no arm has its twin."""
    pairs: dict[tuple[object, ...], dict[bool, tuple[str, _ArmCounts]]] = {}
    for arm, (runs, counts) in _by_arm(results).items():
        key = _setting_key(runs)
        if key is not None:
            constrained = bool(runs[0].fingerprint and runs[0].fingerprint[_CONSTRAINED])
            pairs.setdefault(key, {}).setdefault(constrained, (arm, counts))
    twins = [(sides[False], sides[True]) for sides in pairs.values() if len(sides) == 2]
    if not twins:
        return None
    rows = [_side_by_side(f"{free} / {fixed}", a, b) for (free, a), (fixed, b) in twins]
    free_total = functools.reduce(operator.add, (free for (_, free), _ in twins))
    fixed_total = functools.reduce(operator.add, (fixed for _, (_, fixed) in twins))
    rows.append(_side_by_side("all", free_total, fixed_total))
    return markdown(
        [
            "free arm / constrained arm",
            "answers free",
            "answers constrained",
            "rate free",
            "rate constrained",
            "not sent free",
            "not sent constrained",
            "outside grammar",
            "succeeded free",
            "succeeded constrained",
        ],
        rows,
    )


def _side_by_side(name: str, free: _ArmCounts, fixed: _ArmCounts) -> list[object]:
    return [
        name,
        free.answers,
        fixed.answers,
        free.rate(),
        fixed.rate(),
        free.kinds["budget"],
        fixed.kinds["budget"],
        fixed.ignored,
        f"{free.succeeded}/{free.finished}",
        f"{fixed.succeeded}/{fixed.finished}",
    ]
