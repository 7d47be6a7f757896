"""The learning loop: one epoch is ``next_state = await step(state, learner, teacher, config)``, and a
run folds :func:`step` from :func:`initial_state` until the teacher accepts or a budget is spent.

One epoch (seed paper, Sec. 4 and Appendix B): the learner proposes a hypothesis from the examples
accumulated so far; the teacher judges it; its counterexamples join the examples. When the teacher
rejects it, every other usable try of the proposal (``Proposal.candidates``: an Agentic epoch's
repairs; a multi-candidate reply's best answer) meets the teacher too, and the first it accepts wins
(Alg. 2; ``accepted_candidate`` in the record). A symbolic learner prints its hypotheses quickly
(``Proposal.draft``); the run's last one (accepted, or the last before a budget or a stall ends
the run) is printed readably before it is recorded, and that time is the learner's. When the
proposal fails (no regex, does not parse or compile, times out) or the teacher cannot judge the
hypothesis, the epoch adds the next random labeled examples instead (Appendix D; ``source:
"random"``), so every epoch adds information; a teacher that keeps its own sample schedule
(Standard's sizes, :class:`oracle.ExampleSchedule`) supplies them itself, so a failed reply still
moves the schedule on. An exact teacher that proves the hypothesis wrong only beyond ``max_len`` and
shows nothing (the ``cegml`` profile, as the reference code) ends the run (``beyond_max_len``):
random strings, all within ``max_len``, would only spend the epochs. A learner that declares ``needs_membership`` (L*,
:class:`cegis.learner.AsksMembership`) gets the teacher's ``label`` wrapped in a fresh
:class:`oracle.CountedMembership` each epoch, and the queries it asks are counted into the cost. A
proposal that carries its automaton (``Proposal.automaton``) is judged and scored from it, when the
teacher can take one (:class:`oracle.AutomatonTeacher`), instead of being compiled again.

Any :class:`oracle.Teacher` drives the loop: the exact teacher, a test-suite oracle or a user's own
object with a ``check`` method. When the target regex is known (``Task.target``) the initial sample
is drawn from it and every hypothesis is scored on the paper's evaluation set (accuracy on 800
strings, Diff Ratio); with only a membership oracle the initial and fallback examples are random
strings it labels; with neither, the run starts from the task's given examples (or none: the first
counterexample then opens the sample).

CPU work (the target's compile and evaluation set, built once per run as a :class:`KnownTarget`
the run owns; samples; the teacher's check; scoring) runs in a worker thread, so many runs share
one event loop;
a run starts by settling what earlier runs left (:func:`cegis.gc_pause.settle`), so a process that
runs many never walks their caches again.
Apart from wall-clock seconds, a run is a pure function of its task, config, learner and teacher.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable
from typing import Generic

import attrs

from automata.core.dfa import DFA
from automata.jit import compile_time
from cegis import sampling
from cegis.config import LoopConfig
from cegis.errors import LearnerExited, NotAProposal
from cegis.gc_pause import settle
from cegis.hypothesis import presented
from cegis.learner import AsksMembership, Learner, LearnerContext, Memo, Proposal, memo_codec
from cegis.state import EpochRecord, EpochState, Outcome, RunCost, Source, Task
from oracle.compiling import compile_carried, compile_subject
from oracle.evaluation import EvaluationSet, Scores, evaluation_set, score
from oracle.examples import Counterexample, Example
from oracle.protocol import (
    AutomatonTeacher,
    CountedMembership,
    ExampleSchedule,
    MembershipOracle,
    ShowsOnlyTests,
    Teacher,
    Verdict,
    remember,
)
from regexlang.ast import Regex
from regexlang.charset import CharSet
from regexlang.dialects import Dialect

Clock = Callable[[], float]


@attrs.frozen
class KnownTarget:
    """What a run with a known target computes once and keeps for its whole length: the target's
    minimal DFA (None when there is no target or it does not compile) and the evaluation set its
    hypotheses are scored on (None without scoring), the scores of every hypothesis scored so far
    (a learner often proposes one again) and the sampler of its random examples. The run owns it and drops it when it
    ends; a cache shared by hundreds of concurrent runs would evict them from each other."""

    dfa: DFA | None = None
    evaluation: EvaluationSet | None = None
    scored: dict[Regex, Scores | None] = attrs.field(factory=dict, eq=False, repr=False)
    #: Draws the run's random examples from ``dfa`` (None without it), its samplers kept.
    sampler: sampling.TargetSampler | None = attrs.field(
        default=attrs.Factory(
            lambda known: None if known.dfa is None else sampling.TargetSampler(known.dfa),
            takes_self=True,
        ),
        eq=False,
        repr=False,
    )


def target_dfa(target: str, dialect: Dialect, universe: CharSet, state_limit: int) -> DFA | None:
    """The minimal DFA of a known target, or None when it cannot be compiled."""
    return compile_subject(
        target, "target", dialect=dialect, universe=universe, state_limit=state_limit
    ).dfa


def known_target(task: Task, config: LoopConfig) -> KnownTarget:
    """The target's DFA and, when the loop scores hypotheses, its evaluation set (CPU work: callers
    on an event loop run it in a thread, once per run)."""
    if task.target is None:
        return KnownTarget()
    dfa = target_dfa(task.target, task.dialect, task.universe, config.teacher.state_limit)
    if dfa is None or not config.evaluate:
        return KnownTarget(dfa)
    size, profile = config.teacher.eval_size, config.teacher.profile
    examples = evaluation_set(
        dfa, size=size, max_len=config.max_len, seed=config.seed, profile=profile
    )
    return KnownTarget(dfa, examples)


def _target(task: Task, config: LoopConfig, known: KnownTarget | None) -> DFA | None:
    if known is not None or task.target is None:
        return None if known is None else known.dfa
    return target_dfa(task.target, task.dialect, task.universe, config.teacher.state_limit)


def _labeler(teacher: Teacher) -> MembershipOracle | None:
    return teacher if isinstance(teacher, MembershipOracle) else None


def wants_membership(learner: Learner[Memo], config: LoopConfig) -> bool:
    """Whether the learner is handed a membership oracle under ``config``."""
    if config.membership is not None:
        return config.membership
    return isinstance(learner, AsksMembership) and learner.needs_membership


def random_examples(
    task: Task,
    teacher: Teacher,
    config: LoopConfig,
    n: int,
    epoch: int,
    have: tuple[Counterexample, ...],
    known: KnownTarget | None = None,
) -> tuple[Example, ...]:
    """``n`` random labeled examples for ``epoch``, new with respect to ``have``; empty when neither
    the target nor a membership oracle can label strings. ``known``: the run's compiled target
    (compiled here when not given)."""
    exclude = frozenset(e.string for e in have if isinstance(e, Example))
    rng = sampling.rng_for(config.seed, epoch)
    if task.target is not None:
        target = _target(task, config, known)
        if target is None:
            return ()
        sampler = known.sampler if known is not None else None
        return (sampler or sampling.TargetSampler(target)).examples(
            n,
            rng,
            max_len=config.max_len,
            exclude=exclude,
            readable=config.example_alphabet == "readable",
        )
    labeler = _labeler(teacher)
    if labeler is not None:
        return sampling.from_membership(
            labeler, task.universe, n, rng, max_len=config.max_len, exclude=exclude
        )
    return ()


def tests_only(teacher: Teacher) -> bool:
    """Whether ``teacher`` declares ``tests_only`` (:class:`oracle.protocol.ShowsOnlyTests`): the
    learner may see no string but the tests it fails (A-CEGIS's test suite), so the loop adds no
    random strings, neither at the start nor after an epoch without a new failure, and such an
    epoch does not stall the run (the learner's next prompt still changes: it carries the feedback
    on this epoch)."""
    return isinstance(teacher, ShowsOnlyTests) and teacher.tests_only


def initial_state(
    task: Task, teacher: Teacher, config: LoopConfig, known: KnownTarget | None = None
) -> EpochState:
    """The state before epoch 0: the task's given examples, else the initial random sample (none
    for a ``tests_only`` teacher); ``known`` as for :func:`random_examples`."""
    examples = task.examples
    if not examples and not tests_only(teacher):
        examples = random_examples(task, teacher, config, config.initial_size, 0, (), known)
    return EpochState(task=task, examples=examples)


def spent(state: EpochState, config: LoopConfig) -> Outcome | None:
    """The first budget ``state`` has spent, in the order epochs, examples, membership queries,
    tokens, seconds; None when the run may go on."""
    budgets, cost = config.budgets, state.cost
    checks: tuple[tuple[Outcome, float | None, float], ...] = (
        ("epochs", budgets.epochs, state.epoch),
        ("examples", budgets.examples, len(state.examples)),
        ("membership_queries", budgets.membership_queries, cost.learner.membership_queries),
        ("tokens", budgets.tokens, cost.learner.tokens),
        ("seconds", budgets.seconds, cost.seconds),
    )
    return next((name for name, limit, used in checks if limit is not None and used >= limit), None)


async def step(
    state: EpochState,
    learner: Learner[Memo],
    teacher: Teacher,
    config: LoopConfig,
    *,
    clock: Clock = compile_time.clock,
    known: KnownTarget | None = None,
) -> EpochState:
    """One epoch: propose, judge, add what was learned; the next state (``outcome`` set when the
    teacher accepted, could not judge the target, or nothing new could be added). ``known``: the
    run's :func:`known_target` (built here, in a thread, when not given)."""
    task = state.task
    if known is None:
        known = await asyncio.to_thread(known_target, task, config)
    counter = _counter(learner, teacher, config)
    context = LearnerContext[Memo](
        task.dialect,
        task.universe,
        state.examples,
        state.epoch,
        state.proposal,
        state.verdict,
        counter,
        config.seed,
        config.teacher.reading,
    )
    compiled = compile_time.compile_seconds()
    started = clock()
    try:
        proposal = await learner.propose(context)
    except SystemExit as error:
        raise LearnerExited(
            f"the learner {learner.name}: propose raised SystemExit({error.code!r})"
        ) from None
    learner_seconds = clock() - started
    if not isinstance(proposal, Proposal):
        raise NotAProposal(
            f"the learner {learner.name}: propose returned {type(proposal).__name__},"
            " not a cegis.Proposal"
        )
    cost = attrs.evolve(
        proposal.cost,
        seconds=learner_seconds,
        membership_queries=proposal.cost.membership_queries if counter is None else counter.queries,
    )
    proposal = attrs.evolve(proposal, cost=cost)
    judged = await asyncio.to_thread(_judgement, state, proposal, teacher, config, known)
    proposal, verdict, outcome, added = (
        judged.proposal,
        judged.verdict,
        judged.outcome,
        judged.added,
    )
    checked, teacher_seconds = judged.checked, judged.teacher_seconds
    if proposal.draft and (
        outcome is not None or _ends(state, added, RunCost(cost, teacher_seconds), config)
    ):
        proposal = await _presented(
            proposal, task, config, clock
        )  # the run's last hypothesis is read
        cost = proposal.cost
    spent_now = RunCost(
        cost,
        teacher_seconds,
        int(verdict is not None) + checked,
        compile_time.compile_seconds() - compiled,
    )
    totals = state.cost + spent_now
    codec = memo_codec(learner)
    record = EpochRecord(
        epoch=state.epoch,
        learner=learner.name,
        proposal_text=proposal.text,
        reasoning=proposal.reasoning,
        failure=proposal.failure,
        cost=cost,
        verdict=verdict,
        initial=state.examples if state.epoch == 0 else (),
        added=added,
        source=judged.source,
        scores=judged.scores,
        totals=totals,
        outcome=outcome,
        memo=None if codec is None or proposal.memo is None else codec.encode_memo(proposal.memo),
        candidates_checked=checked,
        accepted_candidate=judged.accepted,
    )
    return EpochState(
        task=task,
        epoch=state.epoch + 1,
        examples=state.examples + added,
        proposal=proposal,
        verdict=verdict,
        cost=totals,
        records=(*state.records, record),
        outcome=outcome,
    )


@attrs.frozen
class _Judgement(Generic[Memo]):
    """What the teacher made of an epoch's proposal (see :func:`_judgement`)."""

    proposal: Proposal[Memo]  # with the accepted candidate's hypothesis, when one was accepted
    verdict: Verdict | None
    scores: Scores | None
    outcome: Outcome | None
    added: tuple[Counterexample, ...]
    source: Source
    checked: int  # other candidates judged
    accepted: int | None  # the accepted candidate's index
    teacher_seconds: float


def _judgement(
    state: EpochState,
    proposal: Proposal[Memo],
    teacher: Teacher,
    config: LoopConfig,
    known: KnownTarget,
) -> _Judgement[Memo]:
    """The teacher's verdict on the proposal, every other candidate judged when it rejects (Alg. 2;
    the first accepted wins), the scores and what the epoch adds: its counterexamples, else the
    fallback examples. CPU work from end to end: one trip to a thread per epoch."""
    task = state.task
    verdict: Verdict | None = None
    scores: Scores | None = None
    outcome: Outcome | None = None
    added: tuple[Counterexample, ...] = ()
    source: Source = "none"
    checked = 0
    accepted: int | None = None
    teacher_seconds = 0.0
    if proposal.regex is not None:
        verdict = _judged(teacher, proposal, state.examples)
        teacher_seconds = verdict.spend.seconds
        if any(i.blocking and i.subject == "target" for i in verdict.issues):
            outcome = "invalid_target"
        elif verdict.equivalent:
            outcome = "equivalent" if verdict.exact else "consistent"
        else:  # every other try meets the teacher too (Alg. 2); the first accepted one wins
            for index, candidate in enumerate(proposal.candidates):
                if candidate.text == proposal.text:
                    continue
                judged = teacher.check(candidate.regex, state.examples)
                checked += 1
                teacher_seconds += judged.spend.seconds
                if judged.equivalent:
                    proposal = attrs.evolve(
                        proposal, regex=candidate.regex, text=candidate.text, automaton=None
                    )
                    verdict, accepted = judged, index
                    outcome = "equivalent" if judged.exact else "consistent"
                    break
        added = remember(state.examples, verdict)[len(state.examples) :]
        verdict = attrs.evolve(verdict, counterexamples=added)
        source = "counterexamples" if added else "none"
        scores = _scores(proposal, task, config, known)
    if (
        outcome is None
        and not added
        and verdict is not None
        and verdict.exact
        and verdict.has("beyond_max_len")
    ):
        outcome = "beyond_max_len"  # proven: the teacher has nothing to show within max_len, and random strings neither
    elif outcome is None and not added and not tests_only(teacher):
        added = _fallback_examples(task, teacher, config, state.epoch + 1, state.examples, known)
        source = "random" if added else "none"
        outcome = None if added else "stalled"
    return _Judgement(
        proposal, verdict, scores, outcome, added, source, checked, accepted, teacher_seconds
    )


def _fallback_examples(
    task: Task,
    teacher: Teacher,
    config: LoopConfig,
    epoch: int,
    have: tuple[Counterexample, ...],
    known: KnownTarget,
) -> tuple[Counterexample, ...]:
    """What a failed epoch adds: the teacher's own schedule when it keeps one (Standard's sample
    sizes, ``next_examples``), else ``fallback_size`` random labeled examples."""
    if isinstance(teacher, ExampleSchedule):
        return tuple(teacher.next_examples(have))
    return random_examples(task, teacher, config, config.fallback_size, epoch, have, known)


def _judged(
    teacher: Teacher, proposal: Proposal[Memo], given: tuple[Counterexample, ...]
) -> Verdict:
    """The teacher's verdict on the proposal's hypothesis, from its automaton when both have one."""
    assert proposal.regex is not None
    if proposal.automaton is not None and isinstance(teacher, AutomatonTeacher):
        return teacher.check_automaton(proposal.regex, proposal.automaton, given)
    return teacher.check(proposal.regex, given)


def _counter(
    learner: Learner[Memo], teacher: Teacher, config: LoopConfig
) -> CountedMembership | None:
    if not wants_membership(learner, config):
        return None
    labeler = _labeler(teacher)
    if labeler is None:
        raise ValueError(
            f"learner {learner.name!r} asks membership queries, but the teacher has no `label` method"
        )
    return CountedMembership(labeler)


def _ends(
    state: EpochState, added: tuple[Counterexample, ...], spent_now: RunCost, config: LoopConfig
) -> bool:
    """Whether a budget ends the run after the epoch that adds ``added`` at the cost ``spent_now``."""
    following = EpochState(
        state.task, state.epoch + 1, state.examples + added, cost=state.cost + spent_now
    )
    return spent(following, config) is not None


async def _presented(
    proposal: Proposal[Memo], task: Task, config: LoopConfig, clock: Clock
) -> Proposal[Memo]:
    """A draft proposal with its hypothesis printed readably (the same language); the time is the
    learner's."""
    assert proposal.regex is not None
    started = clock()
    regex, text = await asyncio.to_thread(
        presented,
        proposal.regex,
        proposal.text,
        task.dialect,
        task.universe,
        config.teacher.state_limit,
        proposal.automaton,
    )
    cost = attrs.evolve(proposal.cost, seconds=proposal.cost.seconds + clock() - started)
    automaton = (
        proposal.automaton if regex is proposal.regex else None
    )  # it is compile_regex's for the old print
    return attrs.evolve(
        proposal, regex=regex, text=text, draft=False, cost=cost, automaton=automaton
    )


def _scores(
    proposal: Proposal[Memo], task: Task, config: LoopConfig, known: KnownTarget
) -> Scores | None:
    target, examples = known.dfa, known.evaluation
    if not config.evaluate or target is None or examples is None or proposal.regex is None:
        return None
    if proposal.regex not in known.scored:
        known.scored[proposal.regex] = _scored(proposal, task, config, target, examples)
    return known.scored[proposal.regex]


def _scored(
    proposal: Proposal[Memo], task: Task, config: LoopConfig, target: DFA, examples: EvaluationSet
) -> Scores | None:
    assert proposal.regex is not None
    limit = config.teacher.state_limit
    guess = compile_carried(
        proposal.regex,
        proposal.automaton,
        "hypothesis",
        dialect=task.dialect,
        universe=task.universe,
        state_limit=limit,
    ).dfa
    if guess is None:
        return None
    return score(target, guess, examples, k=config.teacher.diff_ratio_k)


async def run(
    task: Task,
    learner: Learner[Memo],
    teacher: Teacher,
    config: LoopConfig = LoopConfig(),
    *,
    start: EpochState | None = None,
    on_epoch: Callable[[EpochState], Awaitable[None] | None] | None = None,
    clock: Clock = compile_time.clock,
) -> EpochState:
    """Fold :func:`step` from ``start`` (default: :func:`initial_state`) until the run has an
    outcome. ``on_epoch`` sees every new state as it is made (a records sink, a progress bar); when
    it returns an awaitable, the next epoch starts once that is done (a sink that writes in a
    thread: what is on disk is never behind what the run went on from). The fold itself writes
    nothing (:func:`cegis.records.run_recorded` keeps JSON Lines records).
    What earlier runs left is settled first (:func:`cegis.gc_pause.settle`)."""
    settle()
    _counter(
        learner, teacher, config
    )  # a learner wanting queries from a teacher that cannot answer fails here
    known = await asyncio.to_thread(known_target, task, config)
    state = (
        start
        if start is not None
        else await asyncio.to_thread(initial_state, task, teacher, config, known)
    )
    while not state.done:
        budget = spent(state, config)
        if budget is not None:
            return attrs.evolve(state, outcome=budget)
        state = await step(state, learner, teacher, config, clock=clock, known=known)
        if on_epoch is not None:
            seen = on_epoch(state)
            if inspect.isawaitable(seen):
                await seen
    return state
