"""Few threads for the work of LLM units that share one event loop.

A unit's computing runs off the loop, in threads (``asyncio.to_thread``), but it is mostly Python:
it shares one GIL with the loop, and every runnable thread is one more the loop waits behind at each
switch. With the default pool (six threads on two cores) a wave of units answered at once kept
the loop waiting for most of a second; with two, the loop gets about a third of the GIL while the
other thread can wait on a disk write (Standard, 256 in flight, L = 2 s: loop lag p99 196 -> 96 ms
and 340 -> 65 ms with one thread, at the same wall time).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

#: Threads the running loop lends its units' work while :func:`few_threads` is in effect.
UNIT_THREADS = 2


@contextlib.contextmanager
def few_threads(threads: int = UNIT_THREADS) -> Iterator[None]:
    """Run the block with the running loop's default executor ``threads`` threads wide; a pool of
    the default size follows it."""
    loop = asyncio.get_running_loop()
    pool = ThreadPoolExecutor(threads, thread_name_prefix="llm-unit")
    loop.set_default_executor(pool)
    try:
        yield
    finally:
        loop.set_default_executor(ThreadPoolExecutor())
        pool.shutdown(wait=False)
