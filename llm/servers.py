"""Several OpenAI-compatible servers behind one chat client, for users with many vLLM replicas.

A :class:`ServerPool` has the one method a learner needs (``complete``, see
:class:`cegis.llm.drafts.ChatClient`) and spreads calls over its servers: each server takes at most its
``concurrency`` calls at once, and a call goes to the server with the most free slots. A call that
fails for a reason that says the *server* is unwell (connection refused or dropped, timeouts, 5xx,
an overall deadline) marks that server down for ``cooldown`` seconds and is sent to another one; a
failure that says the *request* is wrong (bad request, auth, context overflow) is the call's answer.
A server back from its cooldown stays *suspect* until it answers a call: it is tried last, when no
trusted server has a free slot, so a dead server is not picked first again merely because it has
the most free slots.
When every server is down the call waits for the first to come back, and fails only after each has
been tried ``rounds`` times, or once ``deadline`` seconds have gone to it (the calls on every server
and the waits for one to come back; waiting for a free slot does not count), so a call takes at
most ``deadline`` however many servers and rounds fail (the experiment runner passes its
``call_timeout``). All servers share one call log, so a resumed experiment answers from the log
whichever server answered first.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Awaitable, Callable, Sequence

import attrs

from llm.chat import Message, SamplingParams
from llm.protocol import ChatClient
from llm.results import Failed, Result

#: Failure reasons that blame the server, not the request: try another server.
SERVER_TROUBLE = frozenset(
    {"connection", "timeout", "server_error", "deadline", "malformed_response", "not_found"}
)


@attrs.define
class _Server:
    name: str
    client: ChatClient
    slots: asyncio.Semaphore
    capacity: int
    down_until: float = 0.0
    calls: int = 0
    failures: int = 0
    suspect: bool = False  # failed, and has not answered a call since

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
        deadline: float | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        if not servers:
            raise ValueError("a server pool needs at least one server")
        self._servers = [
            _Server(name, client, asyncio.Semaphore(n), n) for name, client, n in servers
        ]
        self._cooldown = cooldown
        self._rounds = rounds
        self._deadline = deadline
        self._clock = clock
        self._sleep = sleep

    @property
    def stats(self) -> tuple[ServerStats, ...]:
        """Calls and failures per server so far."""
        return tuple(ServerStats(s.name, s.calls, s.failures) for s in self._servers)

    async def complete(
        self,
        messages: Sequence[Message],
        params: SamplingParams = SamplingParams(),
        *,
        sample_index: int = 0,
    ) -> Result:
        """Send the call to the least busy healthy server, failing over while servers are unwell."""
        last: Result | None = None
        tried: dict[str, int] = {}
        spent = 0.0  # the server's time: calls, and waits for a server to come back
        while True:
            left = math.inf if self._deadline is None else self._deadline - spent
            began = self._clock()
            server = await self._pick(tried, left)
            spent += self._clock() - began
            if server is None:
                assert last is not None
                return last if self._exhausted(tried) else self._past_deadline(last, tried, spent)
            tried[server.name] = tried.get(server.name, 0) + 1
            async with server.slots:
                server.calls += 1
                began = self._clock()
                asked = server.client.complete(messages, params, sample_index=sample_index)
                try:
                    result = await (
                        asked
                        if self._deadline is None
                        else asyncio.wait_for(asked, max(0.0, self._deadline - spent))
                    )
                except TimeoutError:
                    result = Failed(
                        "deadline",
                        f"{server.name}: the pool's call deadline {self._deadline:g} s reached",
                    )
                spent += self._clock() - began
            if not (isinstance(result, Failed) and result.reason in SERVER_TROUBLE):
                server.suspect = False
                return result
            server.failures += 1
            server.suspect = True
            server.down_until = self._clock() + self._cooldown
            last = result

    def _exhausted(self, tried: dict[str, int]) -> bool:
        return all(tried.get(s.name, 0) >= self._rounds for s in self._servers)

    def _past_deadline(self, last: Result, tried: dict[str, int], spent: float) -> Failed:
        """The failure of a call given up before every round: what failed last, then why no
        server was tried again (the deadline passed, or would before one is back)."""
        assert self._deadline is not None  # without a deadline a call ends only when exhausted
        attempts = sum(tried.values())
        status = (
            "" if not isinstance(last, Failed) or last.status is None else f" (HTTP {last.status})"
        )
        failed = (
            f"{last.reason}{status}: {last.message} (its last {last.attempts} HTTP attempt(s))"
            if isinstance(last, Failed)
            else "no answer"
        )
        why = (
            f"call deadline {self._deadline:g} s reached"
            if spent >= self._deadline
            else f"no server is back from its {self._cooldown:g} s cooldown before the call"
            f" deadline of {self._deadline:g} s ({spent:.0f} s spent)"
        )
        return Failed("deadline", f"{failed}; {attempts} server attempt(s); {why}")

    async def _pick(self, tried: dict[str, int], left: float) -> _Server | None:
        """The server to try next, waiting for one to come back when all are down; None once
        every server has had its rounds, or when none is back within ``left`` seconds."""
        while True:
            candidates = [s for s in self._servers if tried.get(s.name, 0) < self._rounds]
            if not candidates or left <= 0:
                return None
            now = self._clock()
            healthy = [s for s in candidates if s.down_until <= now]
            if healthy:  # trusted servers with a free slot first, then suspect ones, then the queue
                return max(
                    healthy,
                    key=lambda s: (
                        s.free > 0 and not s.suspect,
                        s.free > 0,
                        not s.suspect,
                        s.free,
                        -s.calls,
                    ),
                )
            wait = max(0.0, min(s.down_until for s in candidates) - now)
            if wait >= left:
                return None
            await self._sleep(wait)
            left -= self._clock() - now
