"""The server pool: per-server concurrency limits, failover away from a dead server (and back after
its cooldown), and a request's own errors returned without failover."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Sequence

from llm.chat import Message, SamplingParams
from llm.results import Choice, Completion, Failed, Result
from llm.servers import ServerPool
from tests.cegis.llm.scripted_server import Reply, Rule, ScriptedServer
from tests.experiments.runner_support import synchronous
from tests.llm.support import MESSAGES, fast_retries, make_client

OK = Completion(model="m", choices=(Choice("<ans>a</ans>", finish_reason="stop"),))


class FakeServer:
    """A chat client that answers ``answer`` after ``gate`` opens, counting calls in flight."""

    def __init__(self, answer: Result = OK, gate: asyncio.Event | None = None) -> None:
        self.answer = answer
        self.gate = gate
        self.calls = 0
        self.in_flight = 0
        self.most_in_flight = 0

    async def complete(
        self,
        messages: Sequence[Message],
        params: SamplingParams = SamplingParams(),
        *,
        sample_index: int = 0,
    ) -> Result:
        self.calls += 1
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        try:
            if self.gate is not None:
                await self.gate.wait()
            else:
                await asyncio.sleep(0)
            return self.answer
        finally:
            self.in_flight -= 1


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds


@synchronous
async def test_each_server_takes_at_most_its_concurrency() -> None:
    gate = asyncio.Event()
    big, small = FakeServer(gate=gate), FakeServer(gate=gate)
    pool = ServerPool([("big", big, 3), ("small", small, 1)])
    calls = [asyncio.create_task(pool.complete(MESSAGES, sample_index=i)) for i in range(12)]
    for _ in range(20):
        await asyncio.sleep(0)
    assert (big.in_flight, small.in_flight) == (3, 1)  # the rest wait for a slot
    gate.set()
    results = await asyncio.gather(*calls)
    assert all(r is OK for r in results)
    assert (big.most_in_flight, small.most_in_flight) == (3, 1)
    assert big.calls + small.calls == 12 and small.calls >= 1
    assert [s.calls for s in pool.stats] == [big.calls, small.calls]


@synchronous
async def test_a_dead_servers_work_goes_to_the_other_until_its_cooldown_ends() -> None:
    clock = Clock()
    dead, alive = FakeServer(Failed("connection", "refused")), FakeServer()
    pool = ServerPool(
        [("dead", dead, 8), ("alive", alive, 1)], cooldown=30.0, clock=clock, sleep=clock.sleep
    )
    results = [await pool.complete(MESSAGES, sample_index=i) for i in range(5)]
    assert all(r is OK for r in results)
    assert (
        dead.calls == 1 and alive.calls == 5
    )  # tried once (it had the most free slots), then avoided
    clock.now += 31.0
    await pool.complete(MESSAGES)
    assert dead.calls == 1  # back after its cooldown, but suspect: tried last, not first
    assert pool.stats[0].failures == 1 and pool.stats[1].failures == 0


@synchronous
async def test_a_suspect_server_takes_calls_when_the_trusted_one_is_full_and_is_trusted_again() -> (
    None
):
    clock = Clock()
    gate = asyncio.Event()
    flaky, steady = FakeServer(Failed("connection", "refused")), FakeServer(gate=gate)
    pool = ServerPool(
        [("flaky", flaky, 8), ("steady", steady, 1)], cooldown=30.0, clock=clock, sleep=clock.sleep
    )
    first = asyncio.create_task(pool.complete(MESSAGES, sample_index=0))
    for _ in range(5):
        await asyncio.sleep(0)
    assert (flaky.calls, steady.in_flight) == (1, 1)  # the flaky one failed, the call moved on
    clock.now += 31.0
    flaky.answer = OK  # it is back
    assert await pool.complete(MESSAGES, sample_index=1) is OK  # steady is full: flaky is tried
    assert flaky.calls == 2
    gate.set()
    assert await first is OK
    assert await pool.complete(MESSAGES, sample_index=2) is OK
    assert flaky.calls == 3  # answered once, trusted again: the most free slots win


@synchronous
async def test_a_requests_own_error_is_its_answer_and_all_dead_fails_after_the_rounds() -> None:
    clock = Clock()
    refused = Failed("bad_request", "context too long", status=400)
    first, second = FakeServer(refused), FakeServer()
    assert await ServerPool([("a", first, 4), ("b", second, 1)]).complete(MESSAGES) is refused
    assert second.calls == 0
    down = Failed("server_error", "503", status=503)
    a, b = FakeServer(down), FakeServer(down)
    pool = ServerPool(
        [("a", a, 1), ("b", b, 1)], cooldown=5.0, rounds=2, clock=clock, sleep=clock.sleep
    )
    assert await pool.complete(MESSAGES) is down
    assert (a.calls, b.calls) == (2, 2) and clock.now >= 5.0  # waited for a server to come back


@synchronous
async def test_over_http_a_refused_port_sends_every_call_to_the_live_server() -> None:
    with socket.socket() as closed:  # a port nothing listens on
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    async with ScriptedServer((Rule("Training", (Reply.answer("a b*"),)),)) as live:
        async with (
            make_client(f"http://127.0.0.1:{port}/v1", retry=fast_retries(2)) as dead_client,
            make_client(live.base_url, model="scripted-model") as live_client,
        ):
            pool = ServerPool([("dead", dead_client, 4), ("live", live_client, 1)])
            results = await asyncio.gather(
                *(pool.complete(MESSAGES, sample_index=i) for i in range(4))
            )
    assert all(isinstance(r, Completion) and "a b*" in r.content for r in results)
    assert live.chat_calls == 4
    dead_stats, live_stats = pool.stats
    assert (
        dead_stats.failures >= 1
        and dead_stats.failures == dead_stats.calls
        and live_stats.failures == 0
    )


class Slow(FakeServer):
    """A server whose every call takes ``seconds`` of the clock and then fails with ``answer``."""

    def __init__(self, clock: Clock, seconds: float, answer: Result) -> None:
        super().__init__(answer)
        self.clock, self.seconds = clock, seconds

    async def complete(
        self,
        messages: Sequence[Message],
        params: SamplingParams = SamplingParams(),
        *,
        sample_index: int = 0,
    ) -> Result:
        self.clock.now += self.seconds
        return await super().complete(messages, params, sample_index=sample_index)


@synchronous
async def test_the_pools_deadline_bounds_the_whole_call_over_rounds_and_cooldowns() -> None:
    # One server whose calls each use the whole per-call deadline: without a pool deadline the
    # second round comes after the cooldown, 60 + 30 + 60 s in all (147 s were seen).
    clock = Clock()
    hanging = Slow(clock, 60.0, Failed("deadline", "call_deadline 60 s reached"))
    pool = ServerPool(
        [("one", hanging, 1)],
        cooldown=30.0,
        rounds=2,
        deadline=60.0,
        clock=clock,
        sleep=clock.sleep,
    )
    result = await pool.complete(MESSAGES)
    assert isinstance(result, Failed) and result.reason == "deadline" and "60 s" in result.message
    assert hanging.calls == 1 and clock.now == 60.0


@synchronous
async def test_within_the_deadline_the_pool_still_fails_over_and_waits_for_a_cooldown() -> None:
    clock = Clock()
    flaky = Slow(clock, 10.0, Failed("server_error", "503", status=503))
    pool = ServerPool(
        [("one", flaky, 1)], cooldown=30.0, rounds=2, deadline=60.0, clock=clock, sleep=clock.sleep
    )
    assert (await pool.complete(MESSAGES)) is flaky.answer
    assert flaky.calls == 2 and clock.now == 50.0  # 10 s, a 30 s cooldown, 10 s: within 60 s


@synchronous
async def test_a_call_still_running_at_the_pools_deadline_is_cut() -> None:
    never = FakeServer(
        gate=asyncio.Event()
    )  # answers only when the gate opens, which it never does
    pool = ServerPool([("one", never, 1)], deadline=0.05)
    result = await pool.complete(MESSAGES)
    assert isinstance(result, Failed) and result.reason == "deadline" and never.calls == 1
