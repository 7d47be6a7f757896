"""Inside ``few_threads`` a unit's ``to_thread`` work runs in that many threads at most; after it
the loop's default pool works as before."""

from __future__ import annotations

import asyncio
import threading
import time

from experiments.unit_threads import few_threads


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
