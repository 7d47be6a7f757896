"""What a learner needs of a model client: one method, one chat call, one typed result.

:class:`llm.LLMClient` and :class:`llm.ServerPool` implement it; so does any test double or a user's
own client (structural typing, no base class).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from llm.chat import Message, SamplingParams
from llm.results import Result


class ChatClient(Protocol):
    """Anything that answers a chat call with a typed result (never raising on server behaviour)."""

    async def complete(
        self, messages: Sequence[Message], params: SamplingParams = ..., *, sample_index: int = 0
    ) -> Result:
        """One chat call's typed result."""
        ...
