"""What a finished run answers: the regex to use, whether the teacher accepted it, and how much it cost.

A run that ends on its budget still has something to offer: of the hypotheses the teacher scored,
the one of the best accuracy on its evaluation set (the latest on a tie). :func:`answer_of` reads
that off an :class:`~cegis.state.EpochState`, so the command line and a library user who runs the
loop (:func:`cegis.run`, :func:`cegis.run_recorded`) pick the same regex; :func:`cegis.learn_regex`
is the one call for plain labeled strings. The regex is the task's dialect's text: the empty string
is a regex too (it matches only the empty string), so "no regex" is ``None``, never ``""``.
"""

from __future__ import annotations

import attrs

from cegis.state import EpochState, Outcome


@attrs.frozen
class Answer:
    """A run's answer: ``regex`` (None when no proposal ever passed the learner's own checks),
    ``exact`` (the teacher decided it is the target), ``consistent`` (the teacher accepted it),
    ``accuracy`` on the teacher's evaluation set (None when it scored none), ``reason`` (why the run
    ended, in its last verdict's words, when that verdict's issue is the outcome: ``beyond_max_len``
    says the teacher proved the hypothesis wrong only on longer strings), and the run's size."""

    regex: str | None
    exact: bool
    consistent: bool
    outcome: Outcome | None
    accuracy: float | None
    reason: str | None
    epochs: int
    examples: int
    membership_queries: int


def answer_of(state: EpochState) -> Answer:
    """The answer of a finished run: its final hypothesis when the teacher accepted it (or scored
    none), else the scored hypothesis of the best accuracy, the latest on a tie."""
    regex, accuracy = _best(state)
    return Answer(
        regex,
        state.outcome == "equivalent",
        state.accepted,
        state.outcome,
        accuracy,
        _reason(state),
        state.epoch,
        len(state.examples),
        state.cost.learner.membership_queries,
    )


def _best(state: EpochState) -> tuple[str | None, float | None]:
    records = state.records
    scored = [
        (r.scores.accuracy, r.epoch, r.proposal_text)
        for r in records
        if r.scores is not None and r.failure is None
    ]
    if state.outcome == "equivalent" or not scored:
        final = state.hypothesis
        if final is None:
            final = next((r.proposal_text for r in reversed(records) if r.failure is None), None)
        return final, next(
            (r.scores.accuracy for r in reversed(records) if r.scores is not None), None
        )
    accuracy, _, text = max(scored)
    return text, accuracy


def _reason(state: EpochState) -> str | None:
    verdict = state.records[-1].verdict if state.records else None
    issue = (
        next((i for i in verdict.issues if i.kind == state.outcome), None)
        if verdict is not None
        else None
    )
    return None if issue is None else issue.detail or issue.kind.replace("_", " ")
