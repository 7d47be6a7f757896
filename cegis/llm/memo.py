"""What one proposal of the LLM learner hands to the next epoch, and to the epoch record.

The learner object is immutable, so everything a later epoch needs (how many examples the last
proposal saw, the A-CEGIS history, the guard's run tallies) travels in the proposal's
:class:`LLMMemo`; so does what the report counts (every model call, every try with its
RepairScore and which one the proposal holds, the guard's draws and fallback), and the ReDoS
verdict of the hypothesis as a practitioner would paste it (:func:`cegis.redos_check.redos_json`).
The memo encodes to JSON (:func:`encoded`) and :func:`decoded` reads it back, so a resumed run
continues as the uninterrupted one would; a memo without a verdict (a failed proposal) encodes
without the key, as every memo did before verdicts were recorded.
"""

from __future__ import annotations

from typing import Any

import attrs

from cegis.learner import Proposal
from cegis.llm.drafts import CallNote


@attrs.frozen
class Turn:
    """One earlier A-CEGIS turn: the model's reply as it wrote it and the oracle's feedback on it."""

    reply: str
    feedback: str


@attrs.frozen
class GuardTally:
    """Run totals of the guard: proposals, draws, draws meeting the contract, and proposals the
    fallback answered (the report's guard table, :mod:`experiments.report.llm_costs`, takes its
    proposals, draws and conformance from them; its trigger rate is per run, from the last epoch)."""

    proposals: int = 0
    draws: int = 0
    conforming: int = 0
    fallbacks: int = 0


@attrs.frozen
class Scored:
    """One try of a proposal as the record lists it: its text, its RepairScore on the examples,
    and the failure kind of its first failing check of the setting's contract (None: it met it)."""

    text: str
    score: float
    failure: str | None = None


@attrs.frozen
class LLMMemo:
    """What the next epoch needs: examples seen, the A-CEGIS history, this proposal's draws and
    conforming draws, the fallback used (if any), and the run's guard tallies so far."""

    seen: int = 0
    history: tuple[Turn, ...] = ()
    draws: int = 0
    conforming: int = 0
    fallback: str | None = None
    tally: GuardTally = GuardTally()
    #: Every failed call of this proposal's rounds (HTTP errors after retries), in words.
    errors: tuple[str, ...] = ()
    #: The guard's contract violation when no draw and no fallback met it, in words.
    violation: str | None = None
    #: Every model call of this proposal: latency, tokens, the output budget asked and sent.
    calls: tuple[CallNote, ...] = ()
    #: How many examples the last prompt showed when the overflow policy had to cut them (else None).
    shown: int | None = None
    #: Every try of this proposal (every answer of every round), with its RepairScore.
    scored: tuple[Scored, ...] = ()
    #: The index in ``scored`` of the try the proposal holds (None: a failure or the fallback's).
    selected: int | None = None
    #: The model's last reply in this proposal, exactly as it wrote it (None: no call returned
    #: one); an A-CEGIS history shows the model this as its turn.
    reply: str | None = None
    #: The ReDoS verdict of the proposal's hypothesis for Python ``re.fullmatch`` (None: no
    #: hypothesis, or one with no Python spelling).
    redos: dict[str, Any] | None = attrs.field(default=None, hash=False)


def encoded(memo: LLMMemo) -> dict[str, Any]:
    """``memo`` as JSON data, its fields in order; ``redos`` only when there is a verdict."""
    return attrs.asdict(
        memo, filter=lambda field, value: field.name != "redos" or value is not None
    )


def decoded(data: object) -> LLMMemo | None:
    """The :class:`LLMMemo` whose :func:`attrs.asdict` is ``data`` (None for anything else)."""
    if not isinstance(data, dict):
        return None
    history = tuple(Turn(**turn) for turn in data["history"])
    errors = tuple(data.get("errors", ()))
    calls = tuple(
        CallNote(**{**call, "deviations": tuple(call.get("deviations", ()))})
        for call in data.get("calls", ())
    )
    tally = GuardTally(**data["tally"])
    scored = tuple(Scored(**item) for item in data.get("scored", ()))
    return LLMMemo(
        **{
            **data,
            "history": history,
            "tally": tally,
            "errors": errors,
            "calls": calls,
            "scored": scored,
        }
    )


def memo_of(previous: Proposal[LLMMemo] | None) -> LLMMemo:
    """The memo of the learner's previous proposal (an empty one in the first epoch, or after a
    restart from records that kept none)."""
    memo = None if previous is None else previous.memo
    return LLMMemo() if memo is None else memo


def tallied(memo: LLMMemo, fallback: bool) -> LLMMemo:
    """``memo`` with this proposal's draws, conforming draws and fallback added to the run's tally."""
    tally = memo.tally
    tally = GuardTally(
        tally.proposals + 1,
        tally.draws + memo.draws,
        tally.conforming + memo.conforming,
        tally.fallbacks + fallback,
    )
    return attrs.evolve(memo, tally=tally)
