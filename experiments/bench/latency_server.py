"""A loopback model server that answers every chat call after a fixed latency, with no bound on
how many it holds at once: the shape of a vLLM server under continuous batching, without a GPU.

:class:`LatencyServer` answers ``POST /v1/chat/completions`` after ``latency`` seconds with one
fixed, well-formed answer, lists one model at ``GET /v1/models`` and counts the calls in flight
(``peak`` is the most it held at once). With ``release_at`` it answers as soon as that many calls
are in flight together (or after ``latency``, whichever comes first), so a test can ask "do N
calls reach the server at once?" without any timing assumption. ``GET /stats`` reports the counts
as JSON, for a server running in another process (:func:`serving`, what the throughput benchmark
uses so the server's CPU never counts as the runner's).

A real server runs on machines of its own; this one shares the runner's cores, so what it spends
per call is taken from the runner being measured. It therefore speaks just the HTTP/1.1 its clients
send (a request line, headers, a ``Content-Length`` body; keep-alive unless ``Connection: close``)
on a bare :class:`asyncio.Protocol`, with its replies' bytes made once: about a fifth of the CPU
per call of the same server on aiohttp's.
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
from types import TracebackType
from typing import Any, Self
from urllib.request import urlopen

import attrs

MODEL = "latency-model"
#: The answer every call gets: a regex that parses in every dialect of the paper lists.
ANSWER = "<reasoning>a guess</reasoning>\n<ans>a*</ans>"
_MODELS = {"object": "list", "data": [{"id": MODEL, "object": "model"}]}
_REASONS = {200: "OK", 400: "Bad Request", 404: "Not Found"}


@attrs.frozen
class ServerStats:
    """What the server saw: calls answered, the most it held at once, and the CPU seconds its
    process has spent so far (what the loopback server takes from the cores the runner shares)."""

    calls: int
    peak: int
    cpu: float = 0.0


class LatencyServer:
    """The loopback latency server, bound to ``port`` (a free one by default) of 127.0.0.1 for
    ``async with``; ``backlog`` is the listen queue, long enough for thousands of connections
    opened at once."""

    def __init__(
        self, latency: float, *, release_at: int | None = None, port: int = 0, backlog: int = 4096
    ) -> None:
        self.latency = latency
        self.release_at = release_at
        self.in_flight = 0
        self.peak = 0
        self.calls = 0
        self.port = 0
        self._port = port
        self._backlog = backlog
        self._released = asyncio.Event()
        self._server: asyncio.Server | None = None
        self.connections: set[_Connection] = set()
        self._answers: dict[int, bytes] = {}

    @property
    def base_url(self) -> str:
        """The API root clients are given."""
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def stats(self) -> ServerStats:
        """Calls answered so far, the peak in flight and this process's CPU seconds."""
        return ServerStats(self.calls, self.peak, time.process_time())

    async def __aenter__(self) -> Self:
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(
            lambda: _Connection(self), "127.0.0.1", self._port, backlog=self._backlog
        )
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        assert self._server is not None
        self._server.close()
        for connection in list(self.connections):
            connection.close()
        await self._server.wait_closed()

    async def chat(self, body: bytes) -> tuple[int, bytes]:
        """The status and body of the answer to a chat request's ``body``, once it is due."""
        try:
            n = int(json.loads(body).get("n", 1))
        except (ValueError, TypeError, AttributeError):
            return 400, b'{"error": {"message": "the body is not a JSON object with an int n"}}'
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
        answer = self._answers.get(n)
        if answer is None:
            answer = self._answers[n] = json.dumps(_completion(n)).encode()
        return 200, answer

    def at_once(self, method: str, path: str) -> tuple[int, bytes] | None:
        """The answer to a request that needs no waiting (the model list, the stats); None for a
        chat call."""
        if (method, path) == ("GET", "/v1/models"):
            return 200, json.dumps(_MODELS).encode()
        if (method, path) == ("GET", "/stats"):
            return 200, json.dumps(attrs.asdict(self.stats)).encode()
        if (method, path) == ("POST", "/v1/chat/completions"):
            return None
        return 404, b'{"error": {"message": "no such route"}}'


class _Connection(asyncio.Protocol):
    """One client connection: its requests answered in turn (clients of this server send the next
    request on a connection only once the last one is answered)."""

    def __init__(self, server: LatencyServer) -> None:
        self._server = server
        self._buffer = bytearray()
        self._transport: asyncio.Transport | None = None
        self._answering: asyncio.Task[None] | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self._transport = transport
        self._server.connections.add(self)

    def connection_lost(self, error: Exception | None) -> None:
        self._server.connections.discard(self)
        if self._answering is not None:
            self._answering.cancel()

    def close(self) -> None:
        """Close the connection, cutting a call in flight."""
        if self._transport is not None:
            self._transport.close()

    def data_received(self, data: bytes) -> None:
        self._buffer += data
        self._next()

    def _next(self) -> None:
        """Take the next whole request from the buffer, unless one is being answered."""
        if self._answering is not None or self._transport is None:
            return
        end = self._buffer.find(b"\r\n\r\n")
        if end < 0:
            return
        head = self._buffer[:end].decode("latin-1").split("\r\n")
        fields = dict(
            (name.strip().lower(), value.strip())
            for name, _, value in (line.partition(":") for line in head[1:])
        )
        try:
            length = int(fields.get("content-length", "0"))
        except ValueError:
            self._reply(400, b'{"error": {"message": "a bad Content-Length"}}', keep=False)
            return
        if len(self._buffer) < end + 4 + length:
            return
        body = bytes(self._buffer[end + 4 : end + 4 + length])
        del self._buffer[: end + 4 + length]
        method, path, *_ = (*head[0].split(" "), "", "")
        keep = fields.get("connection", "").lower() != "close"
        now = self._server.at_once(method, path)
        if now is not None:
            self._reply(*now, keep=keep)
            return
        self._answering = asyncio.ensure_future(self._chat(body, keep))

    async def _chat(self, body: bytes, keep: bool) -> None:
        status, answer = await self._server.chat(body)
        self._answering = None
        self._reply(status, answer, keep=keep)

    def _reply(self, status: int, body: bytes, *, keep: bool) -> None:
        assert self._transport is not None
        lines = [
            f"HTTP/1.1 {status} {_REASONS[status]}",
            "Content-Type: application/json",
            f"Content-Length: {len(body)}",
            *([] if keep else ["Connection: close"]),
        ]
        self._transport.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        if keep:
            self._next()
        else:
            self._transport.close()


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
