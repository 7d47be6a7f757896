"""A few LLM units starting at a time on one event loop, so the first calls leave at once.

Before its first model call a unit makes five or six trips to the loop's threads (the target's
compile, its records file, the evaluation set, the first examples, the prompt). When 256 units
started together, their trips took turns in the threads' queue and no call left until nearly every
unit had made nearly every trip: the first call of the Simple list at L = 0.25 s went out 7–10 s
into the run, and a wave of units starting mid-run stalled the calls for seconds again. Through
:class:`Starting`, a unit starts only while fewer than ``at_once`` others are starting; it has
started when it sends its first call (or ends without one). Started units' work keeps the queue's
turns, so a unit that is starting never waits behind more than a few others' setup.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable

from experiments.unit_threads import UNIT_THREADS


class Starting:
    """At most ``at_once`` units between their launch and their first model call."""

    def __init__(self, at_once: int = UNIT_THREADS) -> None:
        self._slots = asyncio.Semaphore(at_once)

    @contextlib.asynccontextmanager
    async def unit(self) -> AsyncIterator[Callable[[], None]]:
        """Wait for a free start, then hold it for the ``async with`` block or until the callable
        it yields (call it as the first model call leaves) is called."""
        await self._slots.acquire()
        held = True

        def started() -> None:
            nonlocal held
            if held:
                held = False
                self._slots.release()

        try:
            yield started
        finally:
            started()
