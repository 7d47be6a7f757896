"""The LLM learner: every setting of the papers as one :class:`LLMLearner` configured by data.

One proposal is a few *rounds* of drawing from the model (seed paper Sec. 4, Appendix B; SEVerA
Sec. 4.2). Round 0 sends the base prompt: the accumulated examples (and, with reflection, the
previous hypothesis, its reasoning, what failed and the new counterexamples) or, for A-CEGIS, the
description with the history of earlier attempts and their feedback. Every candidate regex is
judged by :func:`cegis.llm.contract.assess`. While no candidate meets the setting's contract and rounds
remain, the next round asks again: the repair loop (Agentic) and the stateful guard show every
earlier try with its failing checks and at most ``repair_shown`` misclassified examples; the
stateless guard resends the base prompt as a fresh sample. Multi-candidate repair draws
``candidates`` regexes in each round. Every failed call of a round is listed in the memo's
``errors``, which the epoch record keeps.

The outcome is a :class:`~cegis.learner.Proposal` that lists the tries the teacher meets as its
``candidates``: every usable try of a one-answer setting (an Agentic epoch's repairs: Alg. 2
checks each for equivalence), but of a multi-candidate round only the answer with the best
RepairScore on the current examples, the earliest among equals (Sec. 5.6: "the one with the best
repair score is selected"), so a reply holding the target after a looser consistent regex does
not succeed. Every try is in the memo's ``scored`` with its RepairScore, the proposal's own try
marked by ``selected``. Without a guard the proposal itself is the best try by RepairScore, even
one that still misclassifies examples (as in the paper), or the typed failure of the best one
when none compiles (no regex, syntax error, outside the alphabet, truncated) or of the call
(server error after retries, token budget spent). With a guard it is the first candidate that
meets the whole contract, else the verified fallback's hypothesis (:mod:`cegis.llm.guarded`) when
that meets the whole contract too, else a typed failure recording the violation: a guarded epoch
never ends with a hypothesis outside its contract.

The learner object is immutable; what a later epoch needs (how many examples the last proposal saw,
the A-CEGIS history, the guard's tallies) travels in the proposal's :class:`~cegis.llm.memo.LLMMemo`,
which encodes to JSON so a resumed run continues as the uninterrupted one would. Every call names its
sample (``sample_index``) by run seed, epoch, round and call, so a resumed or replayed run asks the
call log for exactly the keys the original run wrote, and the trials of one task (runs with
different seeds) are distinct samples even where their prompts coincide.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import json
from collections.abc import Sequence

import attrs

from automata.errors import DEFAULT_STATE_LIMIT
from cegis.learner import (
    Alternative,
    Learner,
    LearnerContext,
    LearnerCost,
    Proposal,
    ProposalFailure,
    RestartableLearner,
)
from cegis.llm import acegis, guarded
from cegis.llm.answer_grammar import answer_grammar
from cegis.llm.answer_memory import AnswerMemory
from cegis.llm.contract import GUARD_CHECKS, REPAIR_CHECKS, Assessment, CheckName, assess, truncated
from cegis.llm.description_history import description_history, feedback_text
from cegis.llm.drafts import CallNote, Drawn, draw
from cegis.llm.memo import LLMMemo, Scored, Turn, decoded, encoded, memo_of, tallied
from cegis.llm.prompts import PromptSpec, Reflection, Repair, example_prompt
from cegis.llm.settings import SETTINGS, LLMSetting
from cegis.redos_check import hypothesis_redos
from llm.chat import Message, StructuredOutput
from llm.protocol import ChatClient
from oracle.compiling import ANSWER_SECONDS
from oracle.examples import Counterexample, Example, format_position
from regexlang.charset import CharSet
from regexlang.dialects import Dialect
from regexlang.dialects import universe as dialect_universe


@attrs.frozen(eq=False)
class LLMLearner(RestartableLearner[LLMMemo]):
    """A learner that asks a chat model, configured by one :class:`~cegis.llm.settings.LLMSetting`.

    ``fallbacks`` are the guard's symbolic learners, in order; ``description`` is the A-CEGIS task
    text; ``suite`` is the test-suite oracle whose failure counts error-only feedback reports.
    """

    setting: LLMSetting
    client: ChatClient
    fallbacks: tuple[Learner, ...] = ()
    description: str = ""
    suite: acegis.SuiteReporter | None = None
    state_limit: int = DEFAULT_STATE_LIMIT
    #: Seconds one compile of an answer may take (a lookaround construction can outgrow any state
    #: limit's time): past it the answer is unusable, with the reason, and the proposal goes on.
    compile_seconds: float = ANSWER_SECONDS
    #: Added to the name (e.g. the model id), so runs of one setting with different models keep
    #: apart in a shared records file (the loop keys runs by task, config and learner name).
    label: str = ""
    #: What the learner worked out about the answer texts it has seen (see the module).
    memory: AnswerMemory = attrs.field(factory=AnswerMemory, repr=False)

    def __attrs_post_init__(self) -> None:
        if self.setting.guard is not None and not self.fallbacks:
            raise ValueError(
                f"setting {self.setting.name!r} is guarded and needs at least one fallback learner"
            )
        if self.setting.prompt == "description" and not self.description:
            raise ValueError(
                f"setting {self.setting.name!r} prompts with a description; none was given"
            )
        if (
            self.setting.prompt == "description"
            and self.setting.feedback == "error_only"
            and self.suite is None
        ):
            raise ValueError(
                "error-only feedback counts failed hidden tests and needs the test-suite oracle"
            )

    @property
    def name(self) -> str:
        """``llm-`` and the setting's name; a setting that differs from the preset of its name gets
        a digest of its fields, and a ``label`` is appended after ``@``."""
        name = f"llm-{self.setting.name}"
        if SETTINGS.get(self.setting.name) != self.setting:
            digest = hashlib.sha256(
                json.dumps(self.setting.to_json(), sort_keys=True).encode()
            ).hexdigest()
            name += f"-{digest[:8]}"
        return name + (f"@{self.label}" if self.label else "")

    @property
    def contract(self) -> frozenset[CheckName]:
        """The checks a candidate must pass: the guard's contract, else the repair loop's."""
        return GUARD_CHECKS if self.setting.guard is not None else REPAIR_CHECKS

    async def propose(self, context: LearnerContext[LLMMemo]) -> Proposal[LLMMemo]:
        """The next hypothesis, or a typed failure (never an exception for model behaviour)."""
        memo = memo_of(context.previous)
        describes = self.setting.prompt == "description"
        # CPU work (examples printed, the last hypothesis compiled, the first prompt): off the loop
        prompts, opening = await asyncio.to_thread(self._opening, context, memo)
        prompt: tuple[Message, ...] | None = opening
        lines = prompts.lines
        guard = self.setting.guard
        tried: list[Assessment] = []
        rounds: list[list[Assessment]] = []
        errors: list[str] = []
        calls: list[CallNote] = []
        reply: str | None = None
        cost = LearnerCost()
        stop: ProposalFailure | None = None
        limit: int | None = (
            None  # how many examples a prompt shows (None: all; see the overflow policy)
        )
        budget = self.setting.proposal_tokens
        for round_ in range(self.setting.attempts):
            if budget is not None and cost.tokens >= budget:
                stop = ProposalFailure(
                    "budget", f"{cost.tokens} tokens spent; the proposal may spend {budget}"
                )
                break
            while True:
                if prompt is None:
                    repair = self._repair(tried) if round_ > 0 and self._feeds_back else None
                    prompt = await asyncio.to_thread(prompts.messages, repair, limit)
                drawn = await self._draw_round(prompt, _sample_base(context, round_), context)
                prompt = None
                cost += drawn.cost
                calls.extend(drawn.calls)
                errors.extend(f"round {round_}: {error}" for error in drawn.errors)
                shown = len(lines) if limit is None else limit
                if not (
                    _overflowed(drawn)
                    and self.setting.overflow == "newest"
                    and not describes
                    and shown > 1
                ):
                    break
                limit = shown // 2  # the examples no longer fit: show half as many, and say so
            if drawn.failure is not None:
                stop = drawn.failure
                break
            reply = drawn.drafts[-1].content if drawn.drafts else reply
            ahead = round_ + 1 < self.setting.attempts and (budget is None or cost.tokens < budget)
            judged, prompt = await asyncio.to_thread(
                self._assessed, drawn, context, tried, prompts, limit, ahead
            )  # the next round's prompt in the same trip, when there will be one
            rounds.append(judged)
            tried.extend(rounds[-1])
            if any(a.meets(self.contract) for a in tried) and not (
                guard is not None and guard.draw_all
            ):
                break
        conforming = sum(a.meets(self.contract) for a in tried)
        scored = tuple(Scored(a.text, a.score, a.failure_kind(self.contract)) for a in tried)
        memo = LLMMemo(
            len(context.examples), prompts.history, len(tried), conforming, None, memo.tally,
            tuple(errors), None, tuple(calls), limit, scored, reply=reply,
        )  # fmt: skip
        # a multi-candidate round puts only its best answer before the teacher (Sec. 5.6)
        tries = (
            [r[_best_index(r, self.contract)] for r in rounds if r]
            if self.setting.candidates > 1
            else tried
        )
        if self.setting.guard is not None:
            proposal = await self._guarded(context, tries, cost, memo)
        else:
            proposal = _best(tries, stop, self.contract, cost, tallied(memo, fallback=False))
        if not proposal.ok:
            return proposal
        final = proposal.memo
        if final is not None and final.fallback is None:
            final = attrs.evolve(
                final, selected=next(i for i, a in enumerate(tried) if a.text == proposal.text)
            )
        if isinstance(final, LLMMemo) and proposal.regex is not None:
            args = (proposal.regex, proposal.text, context.dialect, context.universe)
            key, work = ("redos", *args), functools.partial(hypothesis_redos, *args)
            redos = (  # a verdict already found costs no trip to a thread
                self.memory.remembered(key, work)
                if self.memory.holds(key)
                else await asyncio.to_thread(self.memory.remembered, key, work)
            )
            final = attrs.evolve(final, redos=redos)
        return attrs.evolve(proposal, candidates=_candidates(tries, self.contract), memo=final)

    @property
    def _asked(self) -> int:
        """How many ``<ans>`` blocks a prompt asks for: the candidates of a multi-answer reply."""
        return self.setting.candidates if self.setting.candidate_source == "reply" else 1

    @property
    def _feeds_back(self) -> bool:
        guard = self.setting.guard
        return self.setting.prompt == "examples" and (guard is None or guard.stateful)

    def _opening(
        self, context: LearnerContext, memo: LLMMemo
    ) -> tuple[_Prompts, tuple[Message, ...]]:
        """What every prompt of an epoch is made of (the description turns so far, the examples
        printed, the prompt's spec and the reflection on the last epoch, if asked), and the
        epoch's first prompt."""
        describes = self.setting.prompt == "description"
        reflection = (
            self._reflection(context, memo) if self.setting.reflection and not describes else None
        )
        lines = tuple(example.text() for example in context.examples)
        prompts = _Prompts(
            self, self._history(context, memo), lines, self._spec(context), reflection
        )
        return prompts, prompts.messages(None, None)

    def _assessed(
        self,
        drawn: Drawn,
        context: LearnerContext,
        tried: Sequence[Assessment],
        prompts: _Prompts,
        limit: int | None,
        ahead: bool,
    ) -> tuple[list[Assessment], tuple[Message, ...] | None]:
        """The round's assessments and, when ``ahead`` (a round may follow) and none so far meets
        the contract (or the guard draws all), the next round's prompt showing ``limit`` examples."""
        judged = self._assess(drawn, context)
        so_far = [*tried, *judged]
        guard = self.setting.guard
        if not ahead or (
            any(a.meets(self.contract) for a in so_far)
            and not (guard is not None and guard.draw_all)
        ):
            return judged, None
        return judged, prompts.messages(self._repair(so_far) if self._feeds_back else None, limit)

    def _history(self, context: LearnerContext, memo: LLMMemo) -> tuple[Turn, ...]:
        setting, previous = self.setting, context.previous
        if setting.prompt != "description" or previous is None or setting.feedback == "zero_shot":
            return ()
        wrong = acegis.still_wrong(
            previous,
            context.examples,
            dialect=context.dialect,
            universe=context.universe,
            state_limit=self.state_limit,
        )
        witnesses = acegis.DEFAULT_WITNESSES if self.suite is None else self.suite.config.witnesses
        feedback = acegis.feedback(
            setting.feedback, previous, context.verdict, self.suite, wrong, witnesses
        )
        if memo.reply is None:  # the model said nothing: there is no turn to show it
            return memo.history
        return (*memo.history, Turn(memo.reply, feedback_text(feedback)))

    def _spec(self, context: LearnerContext) -> PromptSpec:
        default = dialect_universe(context.dialect)
        alphabet = (
            None
            if context.universe == default
            else data_alphabet(context.examples, context.dialect, context.universe)
        )
        return PromptSpec(
            context.dialect,
            clustered=self.setting.clustered,
            regularization=self.setting.regularization_for(context.dialect),
            output="reasoned" if self.setting.chain_of_thought else "direct",
            strategy=self.setting.strategy,
            strategy_text=self.setting.strategy_text,
            input_format=self.setting.input_format,
            syntax=self.setting.syntax,
            alphabet=alphabet,
        )

    def _reflection(self, context: LearnerContext, memo: LLMMemo) -> Reflection | None:
        previous = context.previous
        if previous is None:
            return None
        new = context.examples[memo.seen :] if memo.seen else ()
        return Reflection(
            previous_reasoning=previous.reasoning,
            previous_regex=previous.text,
            counterexamples=tuple(example.text() for example in new),
            failure="" if previous.failure is None else str(previous.failure),
        )

    def _repair(self, tried: Sequence[Assessment]) -> Repair:
        last = tried[-1]
        tries = "\n".join(
            f"Try {number}: {attempt.text or '(no regex)'}\n{attempt.feedback(self.contract)}"
            for number, attempt in enumerate(tried, start=1)
        )
        shown = tuple(example.text() for example in last.misclassified[: self.setting.repair_shown])
        return Repair(last.reasoning, last.text, tries, shown)

    async def _draw_round(
        self, messages: Sequence[Message], index: int, context: LearnerContext
    ) -> Drawn:
        """One round: one call, one call of ``n`` choices, or ``candidates`` separate calls; with
        constrained answers every call carries the grammar of the answer block."""
        setting = self.setting
        k = setting.candidates
        sampling = setting.sampling
        grammar = (
            answer_grammar(
                context.dialect,
                context.universe,
                blocks=self._asked,
                budget=sampling.max_completion_tokens,
            )
            if setting.constrained
            else None
        )
        structured = None if grammar is None else StructuredOutput("grammar", grammar.gbnf())

        async def call(sample: int, n: int = 1) -> Drawn:
            params = sampling.params(sample_index=sample, n=n, structured=structured)
            return await draw(self.client, messages, params, sample_index=sample, grammar=grammar)

        if k == 1 or setting.candidate_source == "reply":
            return await call(index)
        if setting.candidate_source == "n":
            return await call(index, k)
        calls = [call(index + i) for i in range(k)]
        results = await asyncio.gather(*calls)
        cost = sum((r.cost for r in results), LearnerCost())
        failure = next((r.failure for r in results if r.failure is not None), None)
        drafts = tuple(d for r in results for d in r.drafts)
        errors = tuple(e for r in results for e in r.errors)
        return Drawn(drafts, cost, failure if not drafts else None, errors)

    def _assess(self, drawn: Drawn, context: LearnerContext) -> list[Assessment]:
        several = self.setting.candidate_source == "reply" and self.setting.candidates > 1
        bounds = self.setting.regularization_for(context.dialect)
        judged = []
        for draft in drawn.drafts:
            if draft.truncated:
                judged.append(truncated(draft.content, draft.reasoning, len(context.examples)))
                continue
            answers = self.memory.remembered(
                ("answers", draft.content, context.dialect, context.universe, several),
                functools.partial(
                    draft.answers, context.dialect, context.universe, several=several
                ),
            )
            for answer in answers:
                judged.append(
                    assess(
                        answer,
                        draft.reasoning,
                        context.examples,
                        dialect=context.dialect,
                        universe=context.universe,
                        bounds=bounds,
                        state_limit=self.state_limit,
                        reading=context.reading,
                        seconds=self.compile_seconds,
                        memory=self.memory,
                    )
                )
        return judged

    async def _guarded(
        self,
        context: LearnerContext[LLMMemo],
        tried: list[Assessment],
        cost: LearnerCost,
        memo: LLMMemo,
    ) -> Proposal[LLMMemo]:
        accepted = next((a for a in tried if a.meets(self.contract)), None)
        if accepted is not None and accepted.parsed is not None:
            return Proposal(
                accepted.parsed.regex,
                accepted.text,
                accepted.reasoning,
                cost=cost,
                memo=tallied(memo, False),
                automaton=accepted.automaton,
            )
        bounds = self.setting.regularization_for(context.dialect)
        found = await guarded.fallback(
            self.fallbacks, context, bounds=bounds, state_limit=self.state_limit
        )
        if isinstance(found, ProposalFailure):
            memo = attrs.evolve(memo, violation=found.detail)
            return Proposal(None, failure=found, cost=cost, memo=tallied(memo, False))
        proposal, used = found
        memo = tallied(attrs.evolve(memo, fallback=used), fallback=True)
        reasoning = f"fallback {used}: no draw met the contract"
        return attrs.evolve(proposal, reasoning=reasoning, cost=cost + proposal.cost, memo=memo)

    def encode_memo(self, memo: LLMMemo) -> object:
        """The memo as JSON data."""
        return encoded(memo)

    def decode_memo(self, data: object) -> LLMMemo | None:
        """The :class:`LLMMemo` that :meth:`encode_memo` wrote."""
        return decoded(data)


@attrs.frozen(eq=False)
class _Prompts:
    """What every prompt of an epoch is made of, and its prompts."""

    learner: LLMLearner
    history: tuple[Turn, ...]
    lines: tuple[str, ...]
    spec: PromptSpec
    reflection: Reflection | None

    def messages(self, repair: Repair | None, limit: int | None) -> tuple[Message, ...]:
        """A prompt with ``repair`` (None: the base prompt) showing at most ``limit`` examples."""
        learner = self.learner
        if learner.setting.prompt == "description":
            return description_history(
                learner.description, [(t.reply, t.feedback) for t in self.history]
            )
        return example_prompt(
            self.spec,
            shown_examples(self.lines, limit),
            reflection=self.reflection,
            repair=repair,
            candidates=learner._asked,
            total=len(self.lines),
        )


def shown_examples(lines: Sequence[str], limit: int | None) -> tuple[str, ...]:
    """At most ``limit`` of the example ``lines`` (all with None): the newest half of them, and an
    even sample of the older ones for the rest, in their order."""
    if limit is None or len(lines) <= limit:
        return tuple(lines)
    newest = (limit + 1) // 2
    older, sampled = lines[: len(lines) - newest], limit - newest
    picks = (
        [round(i * (len(older) - 1) / (sampled - 1)) for i in range(sampled)]
        if sampled > 1
        else [0] * sampled
    )
    return (*(older[i] for i in sorted(set(picks))), *lines[len(lines) - newest :])


def _overflowed(drawn: Drawn) -> bool:
    return any(call.failure == "context_overflow" for call in drawn.calls)


def data_alphabet(
    examples: Sequence[Counterexample], dialect: Dialect, universe: CharSet
) -> str | None:
    """The characters the examples use, in ``dialect``'s own notation: a list (``a, b``) in the
    simple dialect, which has no classes, else a class (``[ab]``); None when they use none. The
    prompt states the alphabet from the data, never from the target it is learning."""
    # one union of the distinct positions, then one intersection: linear in the examples
    chars: set[str] = set()
    positions: set[CharSet] = set()
    for example in examples:
        if isinstance(example, Example):
            chars.update(example.string)
        else:
            positions.update(example.positions)
    spans = (span for position in positions for span in position.intervals)
    used = CharSet.of(chars).union(CharSet(tuple(spans))).intersection(universe)
    if used.is_empty():
        return None
    if dialect == "simple":
        return ", ".join(chr(code) for lo, hi in used.intervals for code in range(lo, hi + 1))
    return format_position(used, universe)


def _sample_base(context: LearnerContext, round_: int) -> int:
    """The ``sample_index`` of a round's first call: distinct for every run seed (the trials of one
    task), epoch, round and call, as long as epochs stay below 1000 and rounds and candidates
    below 100 (the setting's validators)."""
    return ((context.seed * 1000 + context.epoch) * 100 + round_) * 100


def _usable(attempt: Assessment, contract: frozenset[CheckName]) -> bool:
    """Whether a try is a hypothesis at all: it parsed, compiled and met every check of
    ``contract`` but consistency (the teacher, not the examples, judges it)."""
    return (
        attempt.parsed is not None
        and attempt.compiled
        and attempt.failure_kind(contract - {"consistent"}) is None
    )


def _candidates(
    tried: Sequence[Assessment], contract: frozenset[CheckName]
) -> tuple[Alternative, ...]:
    """Every usable try, in order, each for the teacher to judge (the seed paper's Alg. 2)."""
    return tuple(
        Alternative(a.parsed.regex, a.text)
        for a in tried
        if _usable(a, contract) and a.parsed is not None
    )


def _best_index(tried: Sequence[Assessment], contract: frozenset[CheckName]) -> int:
    """The index of the best try by (meets the contract, RepairScore), the earliest among equals."""
    return max(range(len(tried)), key=lambda i: (tried[i].meets(contract), tried[i].score))


def _best(
    tried: Sequence[Assessment],
    stop: ProposalFailure | None,
    contract: frozenset[CheckName],
    cost: LearnerCost,
    memo: LLMMemo,
) -> Proposal[LLMMemo]:
    """The best candidate by (meets the contract, RepairScore), earliest first among equals."""
    if not tried:
        failure = stop or ProposalFailure("no_regex", "the model gave no answer")
        return Proposal(None, failure=failure, cost=cost, memo=memo)
    best = tried[_best_index(tried, contract)]
    if _usable(best, contract) and best.parsed is not None:
        return Proposal(
            best.parsed.regex,
            best.text,
            best.reasoning,
            cost=cost,
            memo=memo,
            automaton=best.automaton,
        )
    detail = "; ".join(v.detail for v in best.failing(contract))
    if stop is not None:  # the rounds ended early: say why, and what the best try got wrong
        failure = ProposalFailure(stop.kind, f"{stop.detail}; best try: {detail}")
    else:
        failure = ProposalFailure(best.failure_kind(contract) or "no_regex", detail)
    return Proposal(None, best.text, best.reasoning, failure, cost, memo)
