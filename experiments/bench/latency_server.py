"""A loopback model server that answers every chat call after a fixed latency, with no bound on
how many it holds at once: the shape of a vLLM server under continuous batching, without a GPU.

:class:`LatencyServer` answers ``POST /v1/chat/completions`` after ``latency`` seconds with one
fixed, well-formed answer, lists one model at ``GET /v1/models`` and counts the calls in flight
(``peak`` is the most it held at once). With ``release_at`` it answers as soon as that many calls
are in flight together (or after ``latency``, whichever comes first), so a test can ask "do N
calls reach the server at once?" without any timing assumption. ``GET /stats`` reports the counts
as JSON, for a server running in another process (:func:`serving`, what the throughput benchmark
uses so the server's CPU never counts as the runner's).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
import time
from collections.abc import Iterator
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any
from urllib.request import urlopen

import attrs
from aiohttp import web

from experiments.bench.loopback import LoopbackServer

MODEL = "latency-model"
#: The answer every call gets: a regex that parses in every dialect of the paper lists.
ANSWER = "<reasoning>a guess</reasoning>\n<ans>a*</ans>"


@attrs.frozen
class ServerStats:
    """What the server saw: calls answered, the most it held at once, and the CPU seconds its
    process has spent so far (what the loopback server takes from the cores the runner shares)."""

    calls: int
    peak: int
    cpu: float = 0.0


class LatencyServer(LoopbackServer):
    """The loopback latency server, bound to a free port of 127.0.0.1 for ``async with``."""

    def __init__(
        self, latency: float, *, release_at: int | None = None, port: int = 0, backlog: int = 4096
    ) -> None:
        self.latency = latency
        self.release_at = release_at
        self.in_flight = 0
        self.peak = 0
        self.calls = 0
        self._released = asyncio.Event()
        super().__init__(port=port, backlog=backlog)
        self._app.router.add_get("/stats", self._stats)

    @property
    def stats(self) -> ServerStats:
        """Calls answered so far, the peak in flight and this process's CPU seconds."""
        return ServerStats(self.calls, self.peak, time.process_time())

    async def _chat(self, request: web.Request) -> web.StreamResponse:
        body = await request.json()
        self.in_flight += 1
        self.peak = max(self.peak, self.in_flight)
        try:
            if self.release_at is not None and self.in_flight >= self.release_at:
                self._released.set()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._released.wait(), self.latency)
        finally:
            self.in_flight -= 1
        self.calls += 1
        return web.json_response(_completion(int(body.get("n", 1))))

    async def _models(self, request: web.Request) -> web.StreamResponse:
        return web.json_response({"object": "list", "data": [{"id": MODEL, "object": "model"}]})

    async def _stats(self, request: web.Request) -> web.StreamResponse:
        return web.json_response(attrs.asdict(self.stats))


def _completion(n: int) -> dict[str, Any]:
    choice = {"message": {"role": "assistant", "content": ANSWER}, "finish_reason": "stop"}
    return {
        "id": "latency",
        "object": "chat.completion",
        "model": MODEL,
        "choices": [choice | {"index": i} for i in range(n)],
        "usage": {"prompt_tokens": 900, "completion_tokens": 20},
    }


def _serve(latency: float, port_pipe: Connection) -> None:
    async def main() -> None:
        async with LatencyServer(latency) as server:
            port_pipe.send(server.port)
            await asyncio.Event().wait()

    asyncio.run(main())


@attrs.frozen
class Remote:
    """A latency server running in another process."""

    base_url: str
    process: BaseProcess = attrs.field(eq=False, repr=False)

    def stats(self) -> ServerStats:
        """The server's counts so far."""
        root = self.base_url.removesuffix("/v1")
        with urlopen(f"{root}/stats", timeout=10) as reply:  # noqa: S310 - a loopback URL we built
            return ServerStats(**json.loads(reply.read()))

    def kill(self) -> None:
        """Kills the server's process at once, as a crashed server dies: calls in flight are cut
        and later connections refused."""
        self.process.kill()


@contextlib.contextmanager
def serving(latency: float) -> Iterator[Remote]:
    """A :class:`LatencyServer` in a process of its own for the ``with`` block."""
    context = multiprocessing.get_context("spawn")
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=_serve, args=(latency, sender), daemon=True)
    process.start()
    try:
        yield Remote(f"http://127.0.0.1:{receiver.recv()}/v1", process)
    finally:
        process.terminate()
        process.join()
