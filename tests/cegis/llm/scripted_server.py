"""A scripted OpenAI-compatible chat server on 127.0.0.1 whose answers depend on the prompt.

:class:`tests.llm.fake_server.FakeServer` plays a fixed queue of actions; a learner's calls come in
an order that depends on what it was answered, so here each request is answered by *rules*: the
first rule whose marker occurs in the request's last user message takes the next action of its own
queue (the last action repeats once the queue runs dry). An action is a :class:`Reply` (one content
per choice, cycled to the request's ``n``), or a ``Status``/``Drop`` action of the fake server. Every
request body and header is kept for assertions, and ``chat_calls`` counts what the server was paid.

With ``vllm=True`` it behaves as vLLM's OpenAI server does where that matters to the learner: a
request with ``n > 1`` at temperature 0 is refused with a 400 (greedy sampling has one answer),
a reply's hidden chain of thought travels in ``message.reasoning`` (:attr:`Reply.hidden`),
``usage`` carries no details (no reasoning or cached token counts), and ``POST /tokenize`` (at the
server root, beside ``/v1``) counts the tokens of a chat as ``len(text) // 4`` of its contents.
"""

from __future__ import annotations

import collections
from typing import Any, TypeAlias

import attrs
from aiohttp import web

from tests.llm.fake_server import Drop, Status
from tests.loopback import LoopbackServer

USAGE: dict[str, Any] = {
    "prompt_tokens": 100,
    "completion_tokens": 20,
    "completion_tokens_details": {"reasoning_tokens": 5},
}
VLLM_USAGE: dict[str, Any] = {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}


@attrs.frozen
class Reply:
    """A completion: ``contents`` are the choices (cycled to ``n``), all with ``finish_reason``."""

    contents: tuple[str, ...]
    finish_reason: str = "stop"
    hidden: str | None = None  # the server's reasoning channel (``message.reasoning``)

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

    def __init__(
        self,
        rules: tuple[Rule, ...],
        *,
        models: tuple[str, ...] = ("scripted-model",),
        vllm: bool = False,
        max_model_len: int | None = None,
    ) -> None:
        self.rules = rules
        self.vllm = vllm
        self.max_model_len = max_model_len
        self.tokenize_calls = 0
        self.queues = [collections.deque(rule.actions) for rule in rules]
        self.models = models
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.chat_calls = 0
        super().__init__()
        if vllm:
            self._app.router.add_post("/tokenize", self._tokenize)

    def user_messages(self) -> list[str]:
        """The last user message of every chat request, in order."""
        return [_last_user(body) for body in self.requests]

    async def _models(self, request: web.Request) -> web.StreamResponse:
        entries = [{"id": m, "object": "model", **self._length()} for m in self.models]
        return web.json_response({"object": "list", "data": entries})

    def _length(self) -> dict[str, int]:
        return {} if self.max_model_len is None else {"max_model_len": self.max_model_len}

    async def _tokenize(self, request: web.Request) -> web.StreamResponse:
        body = await request.json()
        self.tokenize_calls += 1
        count = sum(len(m["content"]) for m in body["messages"]) // 4
        return web.json_response({"count": count, "tokens": list(range(count)), **self._length()})

    async def _chat(self, request: web.Request) -> web.StreamResponse:
        body = await request.json()
        self.requests.append(body)
        self.headers.append(dict(request.headers))
        self.chat_calls += 1
        if self.vllm and int(body.get("n", 1)) > 1 and body.get("temperature", 1.0) == 0:
            message = f"n must be 1 when using greedy sampling, got {body['n']}."
            return web.json_response(
                {"object": "error", "message": message, "type": "BadRequestError", "code": 400},
                status=400,
            )
        action = self._action(body)
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
                "message": {
                    "role": "assistant",
                    "content": action.contents[i % len(action.contents)],
                    **({} if action.hidden is None else {"reasoning": action.hidden}),
                },
                "finish_reason": action.finish_reason,
            }
            for i in range(n)
        ]
        usage = VLLM_USAGE if self.vllm else USAGE
        return web.json_response(
            {
                "id": "x",
                "object": "chat.completion",
                "model": body["model"],
                "choices": choices,
                "usage": usage,
            }
        )

    def _action(self, body: dict[str, Any]) -> Action:
        """The action for a chat request (by default: the rules on its last user message)."""
        return self._next(_last_user(body))

    def _next(self, user: str) -> Action:
        for rule, queue in zip(self.rules, self.queues):
            if rule.marker in user:
                if not queue:
                    raise AssertionError(f"rule {rule.marker!r} has no action")
                return queue.popleft() if len(queue) > 1 else queue[0]
        raise AssertionError(f"no rule answers this prompt:\n{user[-400:]}")


def _last_user(body: dict[str, Any]) -> str:
    return str(next(m["content"] for m in reversed(body["messages"]) if m["role"] == "user"))
