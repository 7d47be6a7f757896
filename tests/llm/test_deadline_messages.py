"""A call given up before its deadline says what failed and why it was not tried again; before,
one server answering 500 said "call deadline 40 s reached" 14 s into the call."""

from __future__ import annotations

import asyncio

from llm.results import Failed
from llm.retry import RetryPolicy
from llm.servers import ServerPool
from tests.experiments.runner_support import synchronous
from tests.llm.fake_server import Delay, FakeServer, Status
from tests.llm.support import MESSAGES, FakeSleep, make_client
from tests.llm.test_servers import Clock, Slow


@synchronous
async def test_a_pool_that_gives_up_early_names_the_failure_not_a_reached_deadline() -> None:
    clock = Clock()
    failing = Slow(clock, 14.0, Failed("server_error", "boom", status=500, attempts=6))
    pool = ServerPool(
        [("one", failing, 1)],
        cooldown=30.0,
        rounds=2,
        deadline=40.0,
        clock=clock,
        sleep=clock.sleep,
    )
    result = await pool.complete(MESSAGES)
    assert isinstance(result, Failed) and clock.now == 14.0
    assert result.message.startswith("server_error (HTTP 500): boom (its last 6 HTTP attempt(s))")
    assert "no server is back from its 30 s cooldown before the call deadline of 40 s" in (
        result.message
    )
    assert "reached" not in result.message


def test_retries_given_up_before_the_deadline_say_what_failed_first() -> None:
    async def scenario() -> None:
        sleep = FakeSleep()
        async with FakeServer(default=Status(500, "boom")) as server:
            async with make_client(
                server.base_url,
                sleep=sleep,
                clock=sleep.clock,
                retry=RetryPolicy(max_attempts=100),
                call_deadline=10.0,
            ) as client:
                result = await client.complete(MESSAGES)
        assert isinstance(result, Failed) and sleep.now < 10.0
        assert result.message.startswith("server_error (HTTP 500): boom (")
        assert result.message.endswith("the next attempt would begin after the call_deadline 10 s)")
        assert "reached" not in result.message

    asyncio.run(scenario())


def test_a_deadline_reached_during_an_attempt_keeps_what_the_attempts_before_it_got() -> None:
    """Two 500s, then an attempt that hangs past the deadline: the message gives the server's
    status and error and the attempts made (before: only "call_deadline 2 s reached ... would
    begin after the call_deadline", the 500s lost)."""

    async def scenario() -> None:
        sleep = FakeSleep()  # the waits take no time: the third attempt has the rest, 0.5 s or more
        async with FakeServer(default=Status(500, "boom")) as server:
            server.push(Status(500, "boom"), Status(500, "boom"), Delay(5.0, Status(500, "boom")))
            async with make_client(
                server.base_url,
                sleep=sleep,
                clock=sleep.clock,
                retry=RetryPolicy(max_attempts=100),
                call_deadline=2.0,
            ) as client:
                result = await client.complete(MESSAGES)
        assert isinstance(result, Failed) and result.reason == "deadline"
        assert result.status == 500 and result.attempts == 3
        assert result.message == (
            "server_error (HTTP 500): boom (3 attempt(s), the call_deadline 2 s was reached"
            " during the last one)"
        )

    asyncio.run(scenario())
