"""A chat-completions server on a loopback port: the shell every test and benchmark server shares.

Subclasses answer ``POST /v1/chat/completions`` (``_chat``) and ``GET /v1/models`` (``_models``),
and may add routes of their own to ``_app``; this class binds them to ``127.0.0.1`` (on a free
port unless one is named) for the duration of ``async with``.
"""

from __future__ import annotations

from types import TracebackType
from typing import Self

from aiohttp import web


class LoopbackServer:
    """Binds the subclass's handlers to a loopback port; ``backlog`` is the listen queue, long
    enough for thousands of connections opened at once."""

    def __init__(self, *, port: int = 0, backlog: int = 128) -> None:
        app = self._app = web.Application()
        app.router.add_post("/v1/chat/completions", self._chat)
        app.router.add_get("/v1/models", self._models)
        self._runner = web.AppRunner(app, access_log=None)
        self._port = port
        self._backlog = backlog
        self.port = 0

    @property
    def base_url(self) -> str:
        """The API root clients are given."""
        return f"http://127.0.0.1:{self.port}/v1"

    async def __aenter__(self) -> Self:
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", self._port, backlog=self._backlog)
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
