"""A-CEGIS prompts that carry the whole history of a task: every previous attempt and its feedback.

:func:`cegis.llm.prompts.description_prompt` shows the description and the feedback on the *last*
attempt. A multi-turn self-correction run should let the model see every earlier attempt too, or it
may return to a regex the oracle already rejected. The history is a chat: the system message and
the description first, then for each earlier turn the model's own reply (as an assistant message)
and the oracle's feedback on it (as a user message). Servers with prefix caching reuse everything
but the newest feedback from one turn to the next.

The assistant message is the reply exactly as the model wrote it (prose, a cut-off answer, an
empty ``<ans></ans>``), never an answer rebuilt from what the learner read in it: a conversation
that puts words in the model's mouth teaches it to repeat them. A turn whose call returned no
reply (the server failed) has nothing the model said, and is left out.
"""

from __future__ import annotations

from collections.abc import Sequence

from cegis.llm.prompts import NoFeedback, OutputStyle, description_prompt, feedback_text
from llm.chat import Message

__all__ = ["description_history", "feedback_text"]


def description_history(
    description: str, turns: Sequence[tuple[str, str]], *, output: OutputStyle = "reasoned"
) -> tuple[Message, ...]:
    """The messages for the next attempt: system, description, then each ``(reply, feedback)``
    turn as an assistant message followed by a user message."""
    messages = list(description_prompt(description, NoFeedback(), output=output))
    for reply, feedback in turns:
        messages += [Message("assistant", reply), Message("user", feedback)]
    return tuple(messages)
