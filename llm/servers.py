"""Several OpenAI-compatible servers behind one chat client, for users with many vLLM replicas.

A :class:`ServerPool` has the one method a learner needs (``complete``, see
:class:`cegis.llm.drafts.ChatClient`) and spreads calls over its servers: each server takes at most its
``concurrency`` calls at once, and a call goes to the server with the most free slots. A call that
fails for a reason that says the *server* is unwell (connection refused or dropped, timeouts, 5xx,
an overall deadline) marks that server down for ``cooldown`` seconds and is sent to another one; a
failure that says the *request* is wrong (bad request, auth, context overflow) is the call's answer.
When every server is down the call waits for the first to come back, and fails only after each has
been tried ``rounds`` times. All servers share one call log, so a resumed experiment answers from
the log whichever server answered first.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Sequence

import attrs

from llm.protocol import ChatClient
from llm.chat import Message, SamplingParams
from llm.results import Failed, Result

#: Failure reasons that blame the server, not the request: try another server.
SERVER_TROUBLE = frozenset({"connection", "timeout", "server_error", "deadline", "malformed_response", "not_found"})


@attrs.define
class _Server:
    name: str
    client: ChatClient
    slots: asyncio.Semaphore
    capacity: int
    down_until: float = 0.0
    calls: int = 0
    failures: int = 0

    @property
    def free(self) -> int:
        return self.slots._value  # noqa: SLF001 - asyncio exposes no public counter


@attrs.frozen
class ServerStats:
    """How many calls a server answered and how many failed over to another."""

    name: str
    calls: int
    failures: int


class ServerPool:
    """Chat calls spread over several servers, with per-server concurrency and failover."""

    def __init__(
        self,
        servers: Sequence[tuple[str, ChatClient, int]],
        *,
        cooldown: float = 30.0,
        rounds: int = 2,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        if not servers:
            raise ValueError("a server pool needs at least one server")
        self._servers = [_Server(name, client, asyncio.Semaphore(n), n) for name, client, n in servers]
        self._cooldown = cooldown
        self._rounds = rounds
        self._clock = clock
        self._sleep = sleep

    @property
    def stats(self) -> tuple[ServerStats, ...]:
        """Calls and failures per server so far."""
        return tuple(ServerStats(s.name, s.calls, s.failures) for s in self._servers)

    async def complete(
        self, messages: Sequence[Message], params: SamplingParams = SamplingParams(), *, sample_index: int = 0
    ) -> Result:
        """Send the call to the least busy healthy server, failing over while servers are unwell."""
        last: Result | None = None
        tried: dict[str, int] = {}
        while True:
            server = await self._pick(tried)
            if server is None:
                assert last is not None
                return last
            tried[server.name] = tried.get(server.name, 0) + 1
            async with server.slots:
                server.calls += 1
                result = await server.client.complete(messages, params, sample_index=sample_index)
            if not (isinstance(result, Failed) and result.reason in SERVER_TROUBLE):
                return result
            server.failures += 1
            server.down_until = self._clock() + self._cooldown
            last = result

    async def _pick(self, tried: dict[str, int]) -> _Server | None:
        """The server to try next, waiting for one to come back when all are down; None once
        every server has had its rounds."""
        while True:
            candidates = [s for s in self._servers if tried.get(s.name, 0) < self._rounds]
            if not candidates:
                return None
            now = self._clock()
            healthy = [s for s in candidates if s.down_until <= now]
            if healthy:
                return max(healthy, key=lambda s: (s.free, -s.calls))
            await self._sleep(max(0.0, min(s.down_until for s in candidates) - now))
