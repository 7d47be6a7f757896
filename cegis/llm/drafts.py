"""The model edge of the LLM learner: one chat call turned into answer drafts, cost and failures.

The client never raises on server behaviour (:mod:`llm.results`), and neither does this module: a
call gives back the *drafts* it produced (one per choice, with the reasoning the model stated in
its ``<reasoning>`` block and whether it was cut off at the token limit), the cost it reported,
and a typed :class:`~cegis.learner.ProposalFailure` when nothing came back at all (a server error
after the client's retries). Candidate regexes are
then read from each draft, one per reply or several (a multi-candidate reply with one ``<ans>``
block per candidate).

The cost uses only what the call log stores (token usage and the recorded latency), so a replayed
run reports the same cost as the recorded one. Each call also leaves a :class:`CallNote` (latency,
tokens, the output budget asked and sent) that the learner keeps in its epoch record for the
report's latency, cost, cut and overflow tables. A prompt that does not fit the context is a
``budget`` failure: the setting's overflow policy decides what happens next. When the request
carried the answer grammar (constrained answers), a complete reply outside it is a deviation of
the call (:data:`OUTSIDE_GRAMMAR`): the server ignored the field, as a server that ignores ``n``
returns fewer choices, and the record says so instead of counting the reply as constrained.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from cegis.learner import FailureKind, LearnerCost, ProposalFailure
from cegis.llm.answers import AnswerError, ParsedAnswer, extract, parse_answer, parse_candidates
from cegis.llm.grammar import Grammar
from llm.chat import Message, SamplingParams, prompt_chars
from llm.protocol import ChatClient
from llm.results import Choice, Failed, counted_in_place_of_usage
from regexlang.charset import CharSet
from regexlang.dialects import Dialect

#: The deviation of a call whose complete reply lies outside the grammar the request carried.
OUTSIDE_GRAMMAR = "reply outside the answer grammar: the server ignores the grammar field"


@attrs.frozen
class Draft:
    """One choice of a reply: its content, its reasoning, and whether it hit the token limit."""

    content: str
    reasoning: str
    truncated: bool

    def answers(
        self, dialect: Dialect, universe: CharSet, *, several: bool
    ) -> tuple[ParsedAnswer | AnswerError, ...]:
        """The candidate regexes of the draft: its last ``<ans>`` block, or every block when ``several``."""
        if several:
            found = parse_candidates(self.content, dialect, universe)
            if found:
                return found
        return (parse_answer(self.content, dialect, universe),)


@attrs.frozen
class CallNote:
    """One model call as the report counts it: latency, the tokens the server reported (``None``
    when it did not), the completion budget asked for and the one sent (the client cuts it when
    the prompt leaves less room; ``None`` when nothing was sent), the failure reason if any, and the
    reply's deviations from the request (fewer choices than ``n``, more tokens than the budget: a
    server that ignores a field), so a short sample is never taken for the full one unnoticed."""

    seconds: float
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    reasoning_tokens: int | None = None
    cached_tokens: int | None = None
    asked_budget: int = 0
    sent_budget: int | None = None
    failure: str | None = None
    deviations: tuple[str, ...] = ()

    @property
    def cut(self) -> bool:
        """Whether the output budget sent was below the one asked for."""
        return self.sent_budget is not None and self.sent_budget < self.asked_budget


@attrs.frozen
class Drawn:
    """What one round of calls produced: drafts (none when every call failed), the cost, the
    failure that ended the round if nothing came back, and every call's error in words."""

    drafts: tuple[Draft, ...]
    cost: LearnerCost
    failure: ProposalFailure | None = None
    errors: tuple[str, ...] = ()
    calls: tuple[CallNote, ...] = ()


async def draw(
    client: ChatClient,
    messages: Sequence[Message],
    params: SamplingParams,
    *,
    sample_index: int,
    grammar: Grammar | None = None,
) -> Drawn:
    """Send one chat call and read its drafts; ``grammar`` is the one ``params`` constrains the
    reply to, checked on every complete reply."""
    result = await client.complete(messages, params, sample_index=sample_index)
    asked = params.max_completion_tokens
    if isinstance(result, Failed):
        note = CallNote(
            result.latency_s,
            asked_budget=asked,
            sent_budget=result.max_completion_tokens,
            failure=result.reason,
        )
        unknown = None if result.attempts else 0  # a call never sent spent nothing
        cost = LearnerCost(
            calls=int(result.attempts > 0),
            seconds=result.latency_s,
            reasoning_tokens=unknown,
            cached_tokens=unknown,
        )
        status = "" if result.status is None else f" (HTTP {result.status})"
        detail = f"{result.reason}{status} after {result.attempts} attempt(s): {result.message}"
        kind: FailureKind = "budget" if result.reason == "context_overflow" else "server_error"
        return Drawn((), cost, ProposalFailure(kind, detail), (detail,), (note,))
    usage = result.usage
    cost = LearnerCost(
        calls=1,
        prompt_tokens=usage.prompt_tokens or 0,
        completion_tokens=usage.completion_tokens or 0,
        reasoning_tokens=usage.reasoning_tokens,
        seconds=result.latency_s,
        cached_tokens=usage.cached_tokens,
        unreported_calls=int(usage.prompt_tokens is None or usage.completion_tokens is None),
        counted_tokens=counted_in_place_of_usage(result, prompt_chars(tuple(messages))),
    )
    note = CallNote(
        result.latency_s,
        usage.prompt_tokens,
        usage.completion_tokens,
        usage.reasoning_tokens,
        usage.cached_tokens,
        asked,
        result.max_completion_tokens,
        deviations=result.deviations + _outside(grammar, result.choices),
    )
    # only the model's own <reasoning> block goes forward (as in the paper's code); the server's
    # hidden reasoning channel stays in the call log and never reaches a later prompt
    drafts = tuple(
        Draft(
            choice.content,
            extract(choice.content).reasoning or "",
            choice.finish_reason == "length",
        )
        for choice in result.choices
    )
    return Drawn(drafts, cost, calls=(note,))


def _outside(grammar: Grammar | None, choices: Sequence[Choice]) -> tuple[str, ...]:
    """:data:`OUTSIDE_GRAMMAR` when a complete choice is not a sentence of ``grammar`` (a reply
    cut at the budget is a prefix of one, and says nothing about the server)."""
    if grammar is None:
        return ()
    complete = [c.content for c in choices if c.finish_reason != "length"]
    return (OUTSIDE_GRAMMAR,) if any(not grammar.accepts(text) for text in complete) else ()
