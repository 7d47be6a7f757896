"""The seed paper's learn step: GEPA optimizes a setting's strategy text for the user's model.

The seed paper's strategy section (its Table 6 "strategy" row) was written by GEPA (Agrawal et
al., the ``gepa`` package its own code uses) for the models it ran. A user with another model
can run the same step: :func:`optimize_strategy` evolves the strategy text of one LLM setting on
a *train* split of targets, scoring each candidate text by running the learning loop on every
target with the task model (score ``0.5·success + 0.5·accuracy``: the loop's success first, then
the accuracy of its best hypothesis; 1 exactly when the teacher accepted), and keeps the text with
the best mean score on the *validation* split. GEPA's reflection model reads, for each training
target, the hypotheses the loop proposed and why it ended, and writes a new text. Task and
reflection model are any OpenAI-compatible servers (``--base-url``, ``--reflection-base-url``).

``gepa`` is an optional extra (``pip install -e ".[gepa]"``) imported only when the step runs.
The result is a :class:`Optimized` value; the command (``python -m cli optimize``) writes its
text as a strategy file (:mod:`experiments.strategy_file`), which a plan's arm
(``strategy_file``) or ``learn --strategy-file`` loads into the setting, and so into the records
and the unit's fingerprint.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from cegis.answer import answer_of
from cegis.config import Budgets, LoopConfig
from cegis.llm.prompt_sections import strategy
from cegis.llm.settings import LLMSetting
from cegis.llm.setup import prepare_llm_run
from cegis.loop import run
from cegis.state import EpochState, Task
from llm.chat import Message, SamplingParams
from llm.client import LLMClient
from llm.config import ClientConfig
from llm.results import Failed
from oracle.exact import TeacherConfig

#: The component GEPA evolves: the strategy section of the example prompt.
COMPONENT = "strategy"
#: How many of a run's proposals the reflection model reads per target.
SHOWN_PROPOSALS = 6


class OptimizeError(ValueError):
    """A learn step that cannot run (no gepa, too few targets, a failing server)."""


@attrs.frozen
class StepConfig:
    """How the learn step runs: the setting whose strategy is evolved, the loop each target runs
    (epochs, counterexamples per epoch), GEPA's budget of metric calls (one per target run) and
    its seed, the reflection model's completion budget."""

    setting: LLMSetting
    epochs: int = 2
    batch: int = 4
    max_metric_calls: int = 24
    minibatch: int = 2
    seed: int = 0
    reflection_tokens: int = 400


@attrs.frozen
class TargetRun:
    """One target's run under one strategy text: its score and what the reflection model reads."""

    target: str
    score: float
    success: bool
    accuracy: float | None
    proposals: tuple[str, ...]
    ending: str


@attrs.frozen
class Optimized:
    """The learn step's result: the seed and the best text with their mean validation scores,
    the number of candidate texts GEPA tried, and the seconds it took."""

    seed_text: str
    best_text: str
    before: float
    after: float
    candidates: int
    seconds: float
    train: tuple[str, ...]
    validation: tuple[str, ...]


def split_targets(targets: Sequence[str], validation: float) -> tuple[list[str], list[str]]:
    """Every other target, in order, to the validation split until it holds ``validation`` of
    them (at least one target in each split)."""
    if len(targets) < 2:
        raise OptimizeError(
            "the learn step needs at least 2 targets: one to train, one to validate"
        )
    wanted = min(len(targets) - 1, max(1, round(len(targets) * validation)))
    order = list(range(1, len(targets), 2)) + list(range(0, len(targets), 2))
    chosen = set(order[:wanted])
    train = [t for i, t in enumerate(targets) if i not in chosen]
    return train, [t for i, t in enumerate(targets) if i in chosen]


def score(success: bool, accuracy: float | None) -> float:
    """``0.5·success + 0.5·accuracy``: 1 exactly when the teacher accepted (accuracy 1)."""
    return 0.5 * success + 0.5 * (1.0 if success else accuracy or 0.0)


def run_target(
    target: str, text: str, config: StepConfig, dialect: Any, task_client: ClientConfig
) -> TargetRun:
    """The learning loop on ``target`` with strategy ``text`` (its own event loop and client)."""
    setting = attrs.evolve(config.setting, strategy=True, strategy_text=text)
    loop = LoopConfig(
        teacher=TeacherConfig(batch=config.batch),
        budgets=Budgets(epochs=config.epochs),
        seed=config.seed,
    )

    async def go() -> EpochState:
        async with LLMClient(task_client) as client:
            prepared = prepare_llm_run(setting, Task(dialect, target), loop, client)
            return await run(prepared.task, prepared.learner, prepared.teacher, prepared.config)

    state = asyncio.run(go())
    answer = answer_of(state)
    proposals = tuple(
        record.proposal_text or f"(none: {record.failure})" for record in state.records
    )
    last = next((str(r.failure) for r in reversed(state.records) if r.failure), None)
    ending = f"run ended: {state.outcome}" + (f"; last failed proposal: {last}" if last else "")
    return TargetRun(
        target,
        score(answer.consistent, answer.accuracy),
        answer.consistent,
        answer.accuracy,
        proposals[-SHOWN_PROPOSALS:],
        ending,
    )


def reflective_record(result: TargetRun) -> dict[str, Any]:
    """What the reflection model reads about one training target's run."""
    if result.success:
        feedback = "The learner found a regex the teacher accepted."
    else:
        accuracy = "none" if result.accuracy is None else f"{result.accuracy:.2f}"
        feedback = f"Not learned (best accuracy {accuracy}; {result.ending})."
    return {
        "Inputs": {"target language (hidden from the learner)": result.target},
        "Generated Outputs": "\n".join(result.proposals) or "(no proposal)",
        "Feedback": feedback,
    }


def reflection_model(client: ClientConfig, tokens: int) -> Any:
    """GEPA's reflection model: a prompt (text or chat) in, the server's reply out."""

    def call(prompt: str | list[dict[str, Any]]) -> str:
        messages = (
            (Message("user", prompt),)
            if isinstance(prompt, str)
            else tuple(Message(m["role"], str(m["content"])) for m in prompt)
        )

        async def go() -> str:
            async with LLMClient(client) as llm:
                params = SamplingParams(max_completion_tokens=tokens, temperature=0.0)
                result = await llm.complete(messages, params)
            if isinstance(result, Failed):
                raise OptimizeError(f"the reflection model failed: {result.message}")
            return result.choices[0].content

        return asyncio.run(go())

    return call


def optimize_strategy(
    targets: Sequence[str],
    dialect: Any,
    config: StepConfig,
    task_client: ClientConfig,
    reflection_client: ClientConfig,
    *,
    validation: float = 0.5,
    log: Callable[[str], None] = print,
) -> Optimized:
    """GEPA on the strategy text of ``config.setting`` (see the module doc); GEPA's progress
    lines go to ``log``."""
    try:
        from gepa.api import optimize
        from gepa.core.adapter import EvaluationBatch
    except ImportError:
        raise OptimizeError('the learn step needs gepa: pip install -e ".[gepa]"') from None
    train, held_out = split_targets(targets, validation)
    seed_text = config.setting.strategy_text or strategy(dialect)

    class Adapter:
        """GEPA's view of the learning loop: a candidate text run on a batch of targets."""

        propose_new_texts = None

        def evaluate(
            self, batch: list[str], candidate: dict[str, str], capture_traces: bool = False
        ) -> Any:
            runs = [
                run_target(t, candidate[COMPONENT], config, dialect, task_client) for t in batch
            ]
            return EvaluationBatch(
                outputs=list(runs),
                scores=[r.score for r in runs],
                trajectories=list(runs) if capture_traces else None,
            )

        def make_reflective_dataset(
            self, candidate: dict[str, str], eval_batch: Any, components_to_update: list[str]
        ) -> dict[str, list[dict[str, Any]]]:
            records = [reflective_record(r) for r in eval_batch.trajectories or ()]
            return {name: records for name in components_to_update}

    class Logger:
        def log(self, message: str) -> None:
            log(message)

    started = time.monotonic()
    result: Any = optimize(
        seed_candidate={COMPONENT: seed_text},
        trainset=train,
        valset=held_out,
        adapter=Adapter(),
        reflection_lm=reflection_model(reflection_client, config.reflection_tokens),
        max_metric_calls=config.max_metric_calls,
        reflection_minibatch_size=min(config.minibatch, len(train)),
        seed=config.seed,
        display_progress_bar=False,
        logger=Logger(),
        raise_on_exception=False,
    )
    scores = list(result.val_aggregate_scores)
    best = max(range(len(scores)), key=lambda i: (scores[i], -i))
    best_text = result.candidates[best][COMPONENT]
    return Optimized(
        seed_text,
        best_text,
        scores[0],
        scores[best],
        len(scores),
        time.monotonic() - started,
        tuple(train),
        tuple(held_out),
    )
