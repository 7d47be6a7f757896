"""A scripted OpenAI-compatible server on 127.0.0.1, for testing the client over real sockets.

Each chat request takes the next action from ``script`` (or ``default`` once it is empty): an
answer, choices with their own finish reasons, an error status with headers, garbage, a dropped
connection, or a delay before another action. ``GET /models`` lists ``models`` or performs
``models_action``. The server counts the requests in flight so concurrency bounds can be checked
from the server's side, and keeps every request body, header set and target URL for assertions.

With ``tokenizer`` it serves one server's tokenizer endpoint at its root, counting four
characters per token: vLLM's ``/tokenize`` (``messages`` → ``count``, the contents only),
llama.cpp's ``/tokenize`` (``content`` → ``tokens``) or llama-cpp-python's ``/extras/tokenize``
(``input`` → ``tokens``); ``tokenize_requests`` keeps every (path, body) it was sent.

It also works as a plain HTTP proxy: a client whose ``HTTP_PROXY`` points at ``proxy_url`` sends
its requests here with the origin's absolute URL, which ``targets`` records.
"""

from __future__ import annotations

import asyncio
import collections
from typing import Any, Literal, TypeAlias

import attrs
from aiohttp import web

from tests.loopback import LoopbackServer

DEFAULT_USAGE: dict[str, Any] = {"prompt_tokens": 11, "completion_tokens": 7}
Tokenizer = Literal["vllm", "llama.cpp", "llama-cpp-python"]


@attrs.frozen
class Answer:
    """A chat completion with ``n`` identical choices (``n`` taken from the request)."""

    content: str | None = "<reasoning>easy</reasoning><ans>a*</ans>"
    reasoning: str | None = None
    reasoning_field: str = "reasoning"
    finish_reason: str = "stop"
    usage: dict[str, Any] | None = attrs.field(factory=lambda: dict(DEFAULT_USAGE))
    numbered: bool = False  # append " #k" to the content, k the 0-based number of the chat request


@attrs.frozen
class Choices:
    """A chat completion with the given ``(content, finish_reason)`` choices, whatever ``n`` was."""

    items: tuple[tuple[str | None, str], ...]


@attrs.frozen
class Status:
    """An HTTP status with a JSON (dict) or plain-text (str) body."""

    status: int
    body: dict[str, Any] | str = ""
    headers: dict[str, str] = attrs.field(factory=dict)


@attrs.frozen
class Garbage:
    """A 200 whose body is not a chat completion."""

    body: str = '{"choices": [ {"mess'


@attrs.frozen
class Drop:
    """Close the connection without replying."""


@attrs.frozen
class Delay:
    """Wait, then perform ``then``."""

    seconds: float
    then: Action = Answer()


Action: TypeAlias = Answer | Choices | Status | Garbage | Drop | Delay


def openai_error(
    message: str, code: str | None = None, type_: str = "invalid_request_error"
) -> dict[str, Any]:
    """An error body in OpenAI's nested shape."""
    return {"error": {"message": message, "type": type_, "param": None, "code": code}}


class FakeServer(LoopbackServer):
    """The server; ``async with FakeServer(...) as server`` binds a random port."""

    def __init__(
        self,
        *,
        default: Action = Answer(),
        models: tuple[str, ...] = ("test-model",),
        max_model_len: int | None = None,
        models_status: int = 200,
        models_action: Action | None = None,
        reject_fields: frozenset[str] = frozenset(),
        delay: float = 0.0,
        tokenizer: Tokenizer | None = None,
    ) -> None:
        self.default = default
        self.script: collections.deque[Action] = collections.deque()
        self.models = models
        self.max_model_len = max_model_len
        self.models_status = models_status
        self.models_action = models_action
        self.reject_fields = reject_fields
        self.delay = delay
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.targets: list[str] = []
        self.model_requests = 0
        self.in_flight = 0
        self.max_in_flight = 0
        self.tokenize_requests: list[tuple[str, dict[str, Any]]] = []
        super().__init__()
        if tokenizer is not None:
            path = "/extras/tokenize" if tokenizer == "llama-cpp-python" else "/tokenize"
            self._app.router.add_post(path, self._tokenize_handler(tokenizer))

    @property
    def proxy_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def push(self, *actions: Action) -> None:
        """Append actions to the script."""
        self.script.extend(actions)

    def _tokenize_handler(self, kind: Tokenizer) -> Any:
        async def tokenize(request: web.Request) -> web.StreamResponse:
            body = await request.json()
            self.tokenize_requests.append((request.path, body))
            if kind == "vllm":
                return web.json_response(
                    {"count": sum(len(m["content"]) for m in body["messages"]) // 4}
                )
            text = body.get("content" if kind == "llama.cpp" else "input", "")
            return web.json_response({"tokens": list(range(len(text) // 4))})

        return tokenize

    async def _models(self, request: web.Request) -> web.StreamResponse:
        self.model_requests += 1
        self.targets.append(str(request.url))
        if self.models_action is not None:
            return await self._perform(self.models_action, request, {})
        if self.models_status != 200:
            return web.json_response(openai_error("no such route"), status=self.models_status)
        entries: list[dict[str, Any]] = []
        for name in self.models:
            entry: dict[str, Any] = {"id": name, "object": "model", "owned_by": "test"}
            if self.max_model_len is not None:
                entry["max_model_len"] = self.max_model_len
            entries.append(entry)
        return web.json_response({"object": "list", "data": entries})

    async def _chat(self, request: web.Request) -> web.StreamResponse:
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            body = await request.json()
            self.requests.append(body)
            self.headers.append(dict(request.headers))
            self.targets.append(str(request.url))
            if self.delay:
                await asyncio.sleep(self.delay)
            for field in sorted(self.reject_fields):
                if field in body:
                    message = f"Unsupported parameter: '{field}' is not supported with this model."
                    return web.json_response(
                        openai_error(message, "unsupported_parameter"), status=400
                    )
            action = self.script.popleft() if self.script else self.default
            return await self._perform(action, request, body)
        finally:
            self.in_flight -= 1

    async def _perform(
        self, action: Action, request: web.Request, body: dict[str, Any]
    ) -> web.StreamResponse:
        if isinstance(action, Delay):
            await asyncio.sleep(action.seconds)
            return await self._perform(action.then, request, body)
        if isinstance(action, Drop):
            assert request.transport is not None
            request.transport.abort()
            return web.Response()
        if isinstance(action, Garbage):
            return web.Response(text=action.body, content_type="application/json")
        if isinstance(action, Status):
            if isinstance(action.body, str):
                return web.Response(text=action.body, status=action.status, headers=action.headers)
            return web.json_response(action.body, status=action.status, headers=action.headers)
        if isinstance(action, Choices):
            items = [
                ({"role": "assistant", "content": content}, reason)
                for content, reason in action.items
            ]
            return web.json_response(_completion(items, body, DEFAULT_USAGE))
        content = action.content
        if action.numbered:
            content = f"{content} #{len(self.requests) - 1}"
        message: dict[str, Any] = {"role": "assistant", "content": content}
        if action.reasoning is not None:
            message[action.reasoning_field] = action.reasoning
        items = [(message, action.finish_reason)] * int(body.get("n", 1))
        return web.json_response(_completion(items, body, action.usage))


def _completion(
    items: list[tuple[dict[str, Any], str]], body: dict[str, Any], usage: dict[str, Any] | None
) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "model": body.get("model"),
        "choices": [
            {"index": index, "message": message, "finish_reason": reason}
            for index, (message, reason) in enumerate(items)
        ],
    }
    if usage is not None:
        data["usage"] = usage
    return data
