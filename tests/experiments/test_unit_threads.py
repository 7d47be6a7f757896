"""Inside ``few_threads`` a unit's ``to_thread`` work runs in that many threads at most, the work of
the earliest-started unit first; after it the loop's default pool works as before."""

from __future__ import annotations

import asyncio
import operator
import threading
import time

import pytest

from experiments.unit_threads import RankedThreads, few_threads, starting_unit


def _where() -> str:
    time.sleep(0.02)  # long enough that the pool would start a thread per job if it could
    return threading.current_thread().name


def test_to_thread_work_runs_in_the_few_threads_then_in_a_default_pool() -> None:
    async def main() -> tuple[set[str], str]:
        with few_threads(2):
            inside = await asyncio.gather(*(asyncio.to_thread(_where) for _ in range(8)))
        after = await asyncio.to_thread(_where)
        return set(inside), after

    inside, after = asyncio.run(main())
    assert len(inside) == 2 and all(name.startswith("llm-unit") for name in inside)
    assert not after.startswith("llm-unit")


def test_the_earliest_started_units_work_goes_first_and_each_units_in_order() -> None:
    """One thread, held busy while the jobs of two units and the runner's queue: the unit started
    first runs first although its jobs came last, one unit's jobs in the order they came, and
    work outside any unit before all of them."""
    ran: list[str] = []
    gate = threading.Event()

    async def unit(name: str, started: asyncio.Event, go: asyncio.Event) -> None:
        starting_unit()
        started.set()
        await go.wait()
        await asyncio.gather(*(asyncio.to_thread(ran.append, f"{name}{k}") for k in range(2)))

    async def main() -> None:
        with few_threads(1):
            blocker = asyncio.create_task(asyncio.to_thread(gate.wait))
            await asyncio.sleep(0.01)  # the one thread is now taken
            early, late, now = asyncio.Event(), asyncio.Event(), asyncio.Event()
            now.set()
            later = asyncio.Event()
            first = asyncio.create_task(unit("early", early, later))
            await early.wait()
            await asyncio.sleep(0.001)  # the second unit's start is strictly later
            second = asyncio.create_task(unit("late", late, now))
            await asyncio.sleep(0.01)  # its jobs are queued
            later.set()
            await asyncio.sleep(0.01)  # and the first unit's after them
            outside = asyncio.create_task(asyncio.to_thread(ran.append, "runner"))
            await asyncio.sleep(0.01)
            gate.set()
            await asyncio.gather(blocker, first, second, outside)

    asyncio.run(main())
    assert ran == ["runner", "early0", "early1", "late0", "late1"]


def test_a_jobs_error_reaches_its_caller_and_queued_jobs_cancel_on_shutdown() -> None:
    pool = RankedThreads(1)
    gate = threading.Event()
    busy = pool.submit(gate.wait)
    failing = pool.submit(operator.truediv, 1, 0)
    queued = pool.submit(time.sleep, 0)
    pool.shutdown(wait=False, cancel_futures=True)
    gate.set()
    assert busy.result(timeout=5) is True
    assert failing.cancelled() and queued.cancelled()

    pool = RankedThreads(1)
    with pytest.raises(ZeroDivisionError):
        pool.submit(operator.truediv, 1, 0).result(timeout=5)
    assert pool.submit(max, 3, 4).result(timeout=5) == 4
    pool.shutdown()
