"""At most ``at_once`` units are starting at a time: a unit holds its start until its first call
leaves (``on_call`` of the watched client, told before the call) or it ends, raising included."""

from __future__ import annotations

import asyncio

import pytest

from experiments.servers import Watched
from experiments.starting import Starting
from llm.chat import Message
from llm.results import Failed
from tests.experiments.runner_support import synchronous
from tests.llm.test_servers import FakeServer


@synchronous
async def test_a_unit_starts_once_fewer_than_at_once_others_are_starting() -> None:
    starting = Starting(at_once=2)
    events: list[str] = []
    call = {name: asyncio.Event() for name in "abc"}

    async def unit(name: str) -> None:
        async with starting.unit() as started:
            events.append(f"{name} starts")
            await call[name].wait()
            started()
            started()  # a second call of it changes nothing
            events.append(f"{name} called")
            await asyncio.sleep(0.01)

    units = [asyncio.create_task(unit(name)) for name in "abc"]
    await asyncio.sleep(0.01)
    assert events == ["a starts", "b starts"]  # c waits for a start
    call["b"].set()
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    assert events[2:] == ["b called", "c starts"]  # b's first call freed its start for c
    call["a"].set()
    call["c"].set()
    await asyncio.gather(*units)


@synchronous
async def test_a_unit_that_raises_before_its_first_call_frees_its_start() -> None:
    starting = Starting(at_once=1)
    with pytest.raises(ValueError, match="broken"):
        async with starting.unit():
            raise ValueError("broken")
    async with asyncio.timeout(1):
        async with starting.unit():
            pass


@synchronous
async def test_the_watched_client_tells_of_a_call_before_it_leaves() -> None:
    server = FakeServer(Failed("bad_request", "the model's own failure, not the server's"))
    seen: list[tuple[str, int]] = []
    client = Watched(
        server,
        on_answer=lambda: seen.append(("answered", server.calls)),
        on_call=lambda: seen.append(("call", server.calls)),
    )
    assert isinstance(await client.complete([Message("user", "x")]), Failed)
    assert seen == [("call", 0), ("answered", 1)]
