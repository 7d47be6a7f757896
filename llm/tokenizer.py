"""Counting a prompt's tokens with the server's own tokenizer, wherever the server keeps it.

The client needs a prompt's length in tokens to fit a completion budget into the model's context
(:func:`llm.chat.fit_budget`). Servers keep their tokenizer at the server root, beside the ``/v1``
API root, in one of three shapes, tried in this order the first time a count is needed:

* vLLM: ``POST /tokenize`` with the chat's ``messages`` answers ``{"count": n}`` with the chat
  template applied: the count is the prompt's, exactly.
* llama.cpp's own server: ``POST /tokenize`` with ``{"content": text}`` answers ``{"tokens": [...]}``.
  (Sent the vLLM body it answers an empty token list, which is why the shapes are told apart by
  their reply, not by the status.)
* llama-cpp-python's server: ``POST /extras/tokenize`` with ``{"input": text}`` answers
  ``{"tokens": [...]}``.

The first shape that answers is kept for the client's lifetime; a shape that fails or answers in
another shape is not asked again, and when none is left the count is estimated (see
:mod:`llm.client`). The last two shapes count the text of the messages only, not the chat
template around each of them (ChatML's ``<|im_start|>role\\n … <|im_end|>\\n`` adds five tokens per
message and three for the reply's turn). That overhead is taken as :data:`TEMPLATE_TOKENS_PER_MESSAGE`
per message until a reply's ``usage.prompt_tokens`` shows the real one, which is then used per
message: on llama-cpp-python with SmolLM2 the count is then within a token or two of the server's.
Every parse returns ``None`` for a reply of another shape instead of raising, so the transport
never retries a tokenizer that simply is not there.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import attrs

from llm.chat import Message

#: A generous guess of a chat template's tokens per message (ChatML: 5, and 3 for the reply's turn).
TEMPLATE_TOKENS_PER_MESSAGE = 8


@attrs.frozen
class TokenizerShape:
    """One server's tokenizer endpoint: where it is, what it is sent and what it answers."""

    name: str
    path: str  # relative to the API root, which ends in /v1
    body: Callable[[str, tuple[Message, ...]], dict[str, Any]]
    parse: Callable[[bytes], int | None]
    templated: bool  # whether the count includes the chat template


def _json(body: bytes) -> dict[str, Any] | None:
    try:
        data = json.loads(body)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def count_field(body: bytes) -> int | None:
    """vLLM's ``{"count": n}``, or None for any other reply."""
    data = _json(body)
    count = None if data is None else data.get("count")
    return count if isinstance(count, int) and not isinstance(count, bool) and count >= 0 else None


def token_list(body: bytes) -> int | None:
    """The length of a non-empty ``{"tokens": [...]}``, or None for any other reply (an empty list
    is llama.cpp's answer to a body without ``content``, not a count)."""
    data = _json(body)
    tokens = None if data is None else data.get("tokens")
    return len(tokens) if isinstance(tokens, list) and tokens else None


def chat_text(messages: tuple[Message, ...]) -> str:
    """The messages' contents, one per line: what an untemplated tokenizer is asked to count."""
    return "\n".join(message.content for message in messages)


TOKENIZERS = (
    TokenizerShape(
        "vLLM /tokenize",
        "/../tokenize",
        lambda model, chat: {"model": model, "messages": [message.to_wire() for message in chat]},
        count_field,
        templated=True,
    ),
    TokenizerShape(
        "llama.cpp /tokenize",
        "/../tokenize",
        lambda model, chat: {"content": chat_text(chat)},
        token_list,
        templated=False,
    ),
    TokenizerShape(
        "llama-cpp-python /extras/tokenize",
        "/../extras/tokenize",
        lambda model, chat: {"model": model, "input": chat_text(chat)},
        token_list,
        templated=False,
    ),
)


@attrs.frozen
class PromptCount:
    """A prompt's tokens as the client counted them, how, and the untemplated count if that is
    what the server's tokenizer gave (to learn the template's overhead from the reply's usage)."""

    tokens: int
    how: str
    untemplated: int | None = None
