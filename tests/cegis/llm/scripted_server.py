"""A scripted OpenAI-compatible chat server on 127.0.0.1 whose answers depend on the prompt.

:class:`tests.llm.fake_server.FakeServer` plays a fixed queue of actions; a learner's calls come in
an order that depends on what it was answered, so here each request is answered by *rules*: the
first rule whose marker occurs in the request's last user message takes the next action of its own
queue (the last action repeats once the queue runs dry). An action is a :class:`Reply` (one content
per choice, cycled to the request's ``n``), or a ``Status``/``Drop`` action of the fake server. Every
request body and header is kept for assertions, and ``chat_calls`` counts what the server was paid.
"""

from __future__ import annotations

import collections
from typing import Any, TypeAlias

import attrs
from aiohttp import web

from tests.loopback import LoopbackServer

from tests.llm.fake_server import Drop, Status

USAGE: dict[str, Any] = {"prompt_tokens": 100, "completion_tokens": 20, "completion_tokens_details": {"reasoning_tokens": 5}}


@attrs.frozen
class Reply:
    """A completion: ``contents`` are the choices (cycled to ``n``), all with ``finish_reason``."""

    contents: tuple[str, ...]
    finish_reason: str = "stop"

    @classmethod
    def answer(cls, regex: str, reasoning: str = "pattern") -> Reply:
        """A well-formed single answer."""
        return cls((f"<reasoning>{reasoning}</reasoning>\n<ans>{regex}</ans>",))


Action: TypeAlias = Reply | Status | Drop


@attrs.frozen
class Rule:
    """Answer requests whose last user message contains ``marker`` with ``actions`` in order."""

    marker: str
    actions: tuple[Action, ...]


class ScriptedServer(LoopbackServer):
    """The server; ``async with ScriptedServer(rules) as server`` binds a random port."""

    def __init__(self, rules: tuple[Rule, ...], *, models: tuple[str, ...] = ("scripted-model",)) -> None:
        self.rules = rules
        self.queues = [collections.deque(rule.actions) for rule in rules]
        self.models = models
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.chat_calls = 0
        super().__init__()

    def user_messages(self) -> list[str]:
        """The last user message of every chat request, in order."""
        return [_last_user(body) for body in self.requests]

    async def _models(self, request: web.Request) -> web.StreamResponse:
        return web.json_response({"object": "list", "data": [{"id": m, "object": "model"} for m in self.models]})

    async def _chat(self, request: web.Request) -> web.StreamResponse:
        body = await request.json()
        self.requests.append(body)
        self.headers.append(dict(request.headers))
        self.chat_calls += 1
        action = self._next(_last_user(body))
        if isinstance(action, Drop):
            assert request.transport is not None
            request.transport.abort()
            return web.Response()
        if isinstance(action, Status):
            return web.json_response(action.body, status=action.status, headers=action.headers)
        n = int(body.get("n", 1))
        choices = [
            {
                "index": i,
                "message": {"role": "assistant", "content": action.contents[i % len(action.contents)]},
                "finish_reason": action.finish_reason,
            }
            for i in range(n)
        ]
        return web.json_response({"id": "x", "object": "chat.completion", "model": body["model"], "choices": choices, "usage": USAGE})

    def _next(self, user: str) -> Action:
        for rule, queue in zip(self.rules, self.queues):
            if rule.marker in user:
                if not queue:
                    raise AssertionError(f"rule {rule.marker!r} has no action")
                return queue.popleft() if len(queue) > 1 else queue[0]
        raise AssertionError(f"no rule answers this prompt:\n{user[-400:]}")


def _last_user(body: dict[str, Any]) -> str:
    return str(next(m["content"] for m in reversed(body["messages"]) if m["role"] == "user"))
