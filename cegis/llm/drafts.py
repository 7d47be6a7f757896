"""The model edge of the LLM learner: one chat call turned into answer drafts, cost and failures.

The client never raises on server behaviour (:mod:`llm.results`), and neither does this module: a
call gives back the *drafts* it produced (one per choice, with the reasoning the model stated in
its ``<reasoning>`` block and whether it was cut off at the token limit), the cost it reported, and a typed :class:`~cegis.learner.ProposalFailure`
when nothing came back at all (a server error after the client's retries). Candidate regexes are
then read from each draft, one per reply or several (a multi-candidate reply with one ``<ans>``
block per candidate).

The cost uses only what the call log stores (token usage and the recorded latency), so a replayed
run reports the same cost as the recorded one.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from cegis.learner import LearnerCost, ProposalFailure
from cegis.llm.answers import AnswerError, ParsedAnswer, extract, parse_answer, parse_candidates
from llm.chat import Message, SamplingParams
from llm.protocol import ChatClient
from llm.results import Failed, Result
from regexlang.charset import CharSet
from regexlang.dialects import Dialect


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
class Drawn:
    """What one round of calls produced: drafts (none when every call failed), the cost, the
    failure that ended the round if nothing came back, and every call's error in words."""

    drafts: tuple[Draft, ...]
    cost: LearnerCost
    failure: ProposalFailure | None = None
    errors: tuple[str, ...] = ()


async def draw(
    client: ChatClient, messages: Sequence[Message], params: SamplingParams, *, sample_index: int
) -> Drawn:
    """Send one chat call and read its drafts."""
    result = await client.complete(messages, params, sample_index=sample_index)
    if isinstance(result, Failed):
        cost = LearnerCost(calls=1, seconds=result.latency_s)
        status = "" if result.status is None else f" (HTTP {result.status})"
        detail = f"{result.reason}{status} after {result.attempts} attempt(s): {result.message}"
        return Drawn((), cost, ProposalFailure("server_error", detail), (detail,))
    usage = result.usage
    cost = LearnerCost(
        calls=1,
        prompt_tokens=usage.prompt_tokens or 0,
        completion_tokens=usage.completion_tokens or 0,
        reasoning_tokens=usage.reasoning_tokens or 0,
        seconds=result.latency_s,
    )
    # only the model's own <reasoning> block goes forward (as in the paper's code); the server's
    # hidden reasoning channel stays in the call log and never reaches a later prompt
    drafts = tuple(
        Draft(choice.content, extract(choice.content).reasoning or "", choice.finish_reason == "length")
        for choice in result.choices
    )
    return Drawn(drafts, cost)
