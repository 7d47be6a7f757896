"""One thread for the work of LLM units that share one event loop.

A unit's computing runs off the loop, in threads (``asyncio.to_thread``), but it is mostly Python:
it shares one GIL with the loop, and every runnable thread is one more the loop waits behind at each
switch. With the default pool (six threads on two cores) a wave of units answered at once kept
the loop waiting for most of a second. Each time a worker lets the GIL go (a SQLite statement, a
disk write) while another thread wants it, it pays for getting it back, about 0.1 ms of CPU on a
busy machine: with a second worker thread nearly every such release was contended. One thread
(256 in flight, L = 2 s, Agentic, in one session) against two: CPU per call 2.97 against 3.37 ms
on the Simple list and 3.32 against 3.63 on the Extended one, loop lag p99 5.0 against 8.4 ms, the
same wall time; Standard to 3,000 examples kept its wall time (24.8 against 24.6 s on Simple) and
its lag p99 under 35 ms.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

#: Threads the running loop lends its units' work while :func:`few_threads` is in effect.
UNIT_THREADS = 1


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
