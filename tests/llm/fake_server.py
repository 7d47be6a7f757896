"""A scripted OpenAI-compatible server on 127.0.0.1, for testing the client over real sockets.

Each chat request takes the next action from ``script`` (or ``default`` once it is empty): an
answer, an error status with headers, garbage, a dropped connection, or a delay before another
action. The server counts the requests in flight so concurrency bounds can be checked from the
server's side, and keeps every request body and header set for assertions.
"""

from __future__ import annotations

import asyncio
import collections
from types import TracebackType
from typing import Any, TypeAlias

import attrs
from aiohttp import web

DEFAULT_USAGE: dict[str, Any] = {"prompt_tokens": 11, "completion_tokens": 7}


@attrs.frozen
class Answer:
    """A chat completion with ``n`` identical choices (``n`` taken from the request)."""

    content: str | None = "<reasoning>easy</reasoning><ans>a*</ans>"
    reasoning: str | None = None
    reasoning_field: str = "reasoning"
    finish_reason: str = "stop"
    usage: dict[str, Any] | None = attrs.field(factory=lambda: dict(DEFAULT_USAGE))


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


Action: TypeAlias = Answer | Status | Garbage | Drop | Delay


def openai_error(message: str, code: str | None = None, type_: str = "invalid_request_error") -> dict[str, Any]:
    """An error body in OpenAI's nested shape."""
    return {"error": {"message": message, "type": type_, "param": None, "code": code}}


class FakeServer:
    """The server; ``async with FakeServer(...) as server`` binds a random port."""

    def __init__(
        self,
        *,
        default: Action = Answer(),
        models: tuple[str, ...] = ("test-model",),
        max_model_len: int | None = None,
        models_status: int = 200,
        reject_fields: frozenset[str] = frozenset(),
        delay: float = 0.0,
    ) -> None:
        self.default = default
        self.script: collections.deque[Action] = collections.deque()
        self.models = models
        self.max_model_len = max_model_len
        self.models_status = models_status
        self.reject_fields = reject_fields
        self.delay = delay
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.model_requests = 0
        self.in_flight = 0
        self.max_in_flight = 0
        app = web.Application()
        app.router.add_post("/v1/chat/completions", self._chat)
        app.router.add_get("/v1/models", self._models)
        self._runner = web.AppRunner(app, access_log=None)
        self.port = 0

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def push(self, *actions: Action) -> None:
        """Append actions to the script."""
        self.script.extend(actions)

    async def __aenter__(self) -> FakeServer:
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        await self._runner.cleanup()

    async def _models(self, request: web.Request) -> web.StreamResponse:
        self.model_requests += 1
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
            if self.delay:
                await asyncio.sleep(self.delay)
            for field in sorted(self.reject_fields):
                if field in body:
                    message = f"Unsupported parameter: '{field}' is not supported with this model."
                    return web.json_response(openai_error(message, "unsupported_parameter"), status=400)
            action = self.script.popleft() if self.script else self.default
            return await self._perform(action, request, body)
        finally:
            self.in_flight -= 1

    async def _perform(self, action: Action, request: web.Request, body: dict[str, Any]) -> web.StreamResponse:
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
        return web.json_response(_completion(action, body))


def _completion(answer: Answer, body: dict[str, Any]) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": answer.content}
    if answer.reasoning is not None:
        message[answer.reasoning_field] = answer.reasoning
    choices = [
        {"index": index, "message": message, "finish_reason": answer.finish_reason}
        for index in range(int(body.get("n", 1)))
    ]
    data: dict[str, Any] = {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "model": body.get("model"),
        "choices": choices,
    }
    if answer.usage is not None:
        data["usage"] = answer.usage
    return data
