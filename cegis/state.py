"""The immutable values a learning run is made of: the task, the cost so far, one record per epoch,
and the epoch state that :func:`cegis.loop.step` maps to the next one.

A run is a fold ``state = await step(state, learner, teacher, config)`` from the initial state until
:attr:`EpochState.outcome` is set, so everything the next epoch depends on is in the state: the
accumulated examples (plain and clustered, in the order given), the learner's last proposal (its
hypothesis, printed text, reasoning and memo), the teacher's last verdict, the cumulative cost and
the records written so far. Nothing lives on the learner or teacher objects, which is what makes a
run reproducible from its task, config and seed, and resumable from its records.
"""

from __future__ import annotations

from typing import Any, Literal

import attrs

from cegis.learner import LearnerCost, Proposal, ProposalFailure
from oracle.evaluation import Scores
from oracle.examples import Counterexample
from oracle.protocol import Verdict
from regexlang.charset import CharSet
from regexlang.dialects import Dialect, universe

#: Why a run ended: the teacher accepted (``equivalent`` when it decided on the languages,
#: ``consistent`` when it only found no disagreement in finite tests or samples), a budget was
#: spent, nothing new could be learned (the teacher gave no counterexample and no random example
#: could be drawn), the teacher proved the hypothesis wrong only beyond ``max_len`` and had nothing
#: to show (``beyond_max_len``), or the target itself could not be judged.
Outcome = Literal[
    "equivalent",
    "consistent",
    "epochs",
    "examples",
    "membership_queries",
    "tokens",
    "seconds",
    "stalled",
    "invalid_target",
    "beyond_max_len",
]
#: The outcomes where the teacher accepted the final hypothesis.
ACCEPTED: frozenset[Outcome] = frozenset({"equivalent", "consistent"})

#: How an epoch's new examples came about.
Source = Literal["counterexamples", "random", "none"]


@attrs.frozen
class Task:
    """What is learned: the dialect and universe, the target regex when it is known (it enables
    random labeled examples, evaluation accuracy and Diff Ratio), and examples given up front."""

    dialect: Dialect
    target: str | None = None
    examples: tuple[Counterexample, ...] = attrs.field(
        default=(), repr=lambda values: f"<{len(values)}>"
    )
    name: str = ""
    universe: CharSet = attrs.field()

    @universe.default
    def _dialect_universe(self) -> CharSet:
        return universe(self.dialect)

    def to_json(self) -> dict[str, Any]:
        """The task as plain JSON data (the given examples are counted, not listed)."""
        return {
            "name": self.name,
            "dialect": self.dialect,
            "target": self.target,
            "universe": [list(i) for i in self.universe.intervals],
            "given_examples": len(self.examples),
        }


@attrs.frozen
class RunCost:
    """Cumulative cost of a run: the learner's (calls, tokens, membership queries, seconds), the
    teacher's seconds and the number of equivalence queries asked; the seconds numba spent compiling
    kernels meanwhile are kept apart (:mod:`automata.jit.compile_time`)."""

    learner: LearnerCost = LearnerCost()
    teacher_seconds: float = 0.0
    equivalence_queries: int = 0
    compile_seconds: float = (
        0.0  # numba compiling kernels (first runs only): in neither of the above
    )

    def __add__(self, other: RunCost) -> RunCost:
        return RunCost(
            self.learner + other.learner,
            self.teacher_seconds + other.teacher_seconds,
            self.equivalence_queries + other.equivalence_queries,
            self.compile_seconds + other.compile_seconds,
        )

    @property
    def seconds(self) -> float:
        """Learner plus teacher wall-clock seconds."""
        return self.learner.seconds + self.teacher_seconds


@attrs.frozen
class EpochRecord:
    """What one epoch did. ``initial`` holds the run's starting examples (epoch 0 only); ``added``
    the examples this epoch contributed, from the verdict or drawn at random (``source``).
    ``verdict`` is None when the proposal failed; its counterexamples are ``added``. ``scores`` are
    measured when the target is known; ``memo`` is the learner's memo as JSON when it can encode
    it (see :func:`cegis.records.memo_codec`). ``candidates_checked`` counts the proposal's other
    tried hypotheses the teacher judged, and ``accepted_candidate`` is the index (in the proposal's
    ``candidates``) of the one found equivalent, when it was not the proposal itself."""

    epoch: int
    learner: str
    proposal_text: str
    reasoning: str
    failure: ProposalFailure | None
    cost: LearnerCost
    verdict: Verdict | None
    initial: tuple[Counterexample, ...]
    added: tuple[Counterexample, ...]
    source: Source
    scores: Scores | None
    totals: RunCost
    outcome: Outcome | None = None
    memo: Any = None
    candidates_checked: int = 0
    accepted_candidate: int | None = None


def _count(values: tuple[object, ...]) -> str:
    return f"<{len(values)}>"


def _text(proposal: Proposal | None) -> str:
    return "None" if proposal is None else repr(proposal.text)


@attrs.frozen
class EpochState:
    """The state between two epochs; ``outcome`` is set once the run is over.

    Its repr is a summary (counts, the hypothesis text): asyncio may repr a run's result, and the
    examples, records and the learner's memo can be large.
    """

    task: Task
    epoch: int = 0
    examples: tuple[Counterexample, ...] = attrs.field(default=(), repr=_count)
    proposal: Proposal | None = attrs.field(default=None, repr=_text)
    verdict: Verdict | None = attrs.field(default=None, repr=False)
    cost: RunCost = RunCost()
    records: tuple[EpochRecord, ...] = attrs.field(default=(), repr=_count)
    outcome: Outcome | None = None

    @property
    def done(self) -> bool:
        """Whether the run is over."""
        return self.outcome is not None

    @property
    def accepted(self) -> bool:
        """Whether the teacher accepted the final hypothesis (exactly or on its tests)."""
        return self.outcome in ACCEPTED

    @property
    def hypothesis(self) -> str | None:
        """The current hypothesis as printed in the task's dialect, if the last proposal had one."""
        return self.proposal.text if self.proposal is not None and self.proposal.ok else None
