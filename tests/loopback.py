"""A chat-completions server on a random loopback port: the shell the test servers share.

Subclasses answer ``POST /v1/chat/completions`` (``_chat``) and ``GET /v1/models`` (``_models``);
this class binds them to ``127.0.0.1`` on a free port for the duration of ``async with``.
"""

from __future__ import annotations

from types import TracebackType
from typing import Self

from aiohttp import web


class LoopbackServer:
    """Binds the subclass's ``_chat`` and ``_models`` handlers to a free loopback port."""

    def __init__(self) -> None:
        app = self._app = web.Application()
        app.router.add_post("/v1/chat/completions", self._chat)
        app.router.add_get("/v1/models", self._models)
        self._runner = web.AppRunner(app, access_log=None)
        self.port = 0

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    async def __aenter__(self) -> Self:
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        await self._runner.cleanup()

    async def _chat(self, request: web.Request) -> web.StreamResponse:
        raise NotImplementedError

    async def _models(self, request: web.Request) -> web.StreamResponse:
        raise NotImplementedError
