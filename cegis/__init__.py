"""The counterexample-guided learning loop as a fold over immutable epoch states, with the
learners (LLM and symbolic) and strategies that drive it.

A run: ``state = await run(task, learner, teacher, config)``; one epoch:
``state = await step(state, learner, teacher, config)``. Learners by name: :mod:`cegis.registry`.
"""

from cegis.config import Budgets, LoopConfig
from cegis.learner import Learner, LearnerContext, LearnerCost, Proposal, ProposalFailure
from cegis.loop import initial_state, run, step
from cegis.records import run_recorded
from cegis.setup import exact_setting
from cegis.state import EpochRecord, EpochState, Outcome, RunCost, Task
from cegis.symbolic.passive import LearnedRegex, learn_regex

__all__ = [
    "Budgets",
    "EpochRecord",
    "EpochState",
    "LearnedRegex",
    "Learner",
    "LearnerContext",
    "LearnerCost",
    "LoopConfig",
    "Outcome",
    "Proposal",
    "ProposalFailure",
    "RunCost",
    "Task",
    "exact_setting",
    "initial_state",
    "learn_regex",
    "run",
    "run_recorded",
    "step",
]
