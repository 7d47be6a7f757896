"""Few threads for the work of LLM units that share one event loop, the earliest-started unit's
work first.

A unit's computing runs off the loop, in threads (``asyncio.to_thread``), but it is mostly Python:
it shares one GIL with the loop, and every runnable thread is one more the loop waits behind at each
switch. With the default pool (six threads on two cores) a wave of units answered at once kept
the loop waiting for most of a second; with two, the loop gets about a third of the GIL while the
other thread can wait on a disk write (Standard, 256 in flight, L = 2 s: loop lag p99 196 -> 96 ms
and 340 -> 65 ms with one thread, at the same wall time).

The pool takes its work by the unit's start (:func:`starting_unit`), not first come first served.
A unit goes through five or six thread trips before its first call (the target's compile, the
records file, the evaluation set, the first examples, the prompt). With a plain queue, 256 units
started at once took their trips in turns, and no call left until nearly every unit had made
nearly every trip: the first call of a run went out 7–10 s in. Ranked, the first unit makes all its
trips while later ones wait, so calls start within milliseconds and the longest chains (which the
runner starts first) are never held back behind the others' setup.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import heapq
import itertools
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

#: Threads the running loop lends its units' work while :func:`few_threads` is in effect.
UNIT_THREADS = 2

#: When the unit whose work this is started (``time.monotonic``); work outside any unit goes first.
_STARTED: contextvars.ContextVar[float] = contextvars.ContextVar("unit_started", default=0.0)


def starting_unit() -> None:
    """Mark the calling task's work, from here on, as the work of a unit starting now."""
    _STARTED.set(time.monotonic())


class RankedThreads(ThreadPoolExecutor):
    """A thread pool that runs the submitted job of the earliest-started unit first (jobs of one
    unit in the order they came). Each ``submit`` lends the base pool one turn; a turn runs the best
    job waiting when it starts."""

    def __init__(self, threads: int, thread_name_prefix: str = "") -> None:
        super().__init__(threads, thread_name_prefix=thread_name_prefix)
        self._waiting: list[tuple[float, int, Future[Any], Callable[[], Any]]] = []
        self._order = itertools.count()
        self._guard = threading.Lock()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        """Queue ``fn(*args, **kwargs)`` at the rank of the calling context's unit."""
        future: Future[Any] = Future()
        with self._guard:
            job = (_STARTED.get(), next(self._order), future, lambda: fn(*args, **kwargs))
            heapq.heappush(self._waiting, job)
        super().submit(self._turn)
        return future

    def _turn(self) -> None:
        with self._guard:
            _, _, future, job = heapq.heappop(self._waiting)
        if not future.set_running_or_notify_cancel():
            return
        try:
            result = job()
        except BaseException as error:  # noqa: BLE001 - handed to whoever waits on the job
            future.set_exception(error)
        else:
            future.set_result(result)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """As the base pool's; ``cancel_futures`` also cancels the jobs no turn has taken."""
        if cancel_futures:
            with self._guard:
                for _, _, future, _ in self._waiting:
                    future.cancel()
        super().shutdown(wait, cancel_futures=cancel_futures)


@contextlib.contextmanager
def few_threads(threads: int = UNIT_THREADS) -> Iterator[None]:
    """Run the block with the running loop's default executor ``threads`` threads wide and
    ranked by unit start; a pool of the default size follows it."""
    loop = asyncio.get_running_loop()
    pool = RankedThreads(threads, thread_name_prefix="llm-unit")
    loop.set_default_executor(pool)
    try:
        yield
    finally:
        loop.set_default_executor(ThreadPoolExecutor())
        pool.shutdown(wait=False)
