"""Symbolic units in worker processes, so that one that dies fails only itself.

Symbolic units are CPU-bound, so the runner spreads them over ``concurrency`` spawned processes
(not forked: the runner may hold threads and numba state a fork would copy). A process pool breaks
as a whole when one of its workers dies (``os._exit`` in a user's learner, the OOM killer), failing
every unit in it and not saying which one killed it; :class:`SymbolicWorkers` keeps that to the
units in flight (it holds at most ``concurrency`` at once), runs each of them again alone in a
process of its own, and fails only the one that dies there too, with :class:`UnitDied` (its
records kept, so the next run tries it again). The healthy ones resume from their records and
finish. An exception that would not survive the trip back is sent as :class:`UnitRaised` text
(:func:`experiments.execute.run_symbolic_unit_in_worker`). Workers exit when the runner dies,
however it dies, and the first to compile kernels has the runner say so once.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.synchronize import Event as EventType
from pathlib import Path
from typing import Any

import attrs

from automata.jit import compile_time
from experiments.errors import UnitDied
from experiments.execute import run_symbolic_unit_in_worker
from experiments.plan import Plan
from experiments.units import Unit

_SPAWN = multiprocessing.get_context("spawn")


@attrs.define
class SymbolicWorkers:
    """``size`` worker processes for symbolic units, holding at most ``size`` units at once, so a
    worker that dies (``os._exit`` in a user's learner, the OOM killer) breaks a pool with only the
    units in flight in it. Which of them killed it is unknown: each is run again alone, in a
    process of its own, and only the one that dies there too fails (:class:`UnitDied`); the others
    finish, resumed from their records, and the units after them get a new pool."""

    size: int
    compiling: EventType | None = None
    _pool: ProcessPoolExecutor = attrs.field(init=False)
    _slots: asyncio.Semaphore = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        self._pool = worker_pool(self.size, self.compiling)
        self._slots = asyncio.Semaphore(self.size)

    async def run(self, unit: Unit, *, plan: Plan, run_dir: Path) -> dict[str, Any]:
        """``unit``'s closing record, run in a worker; raises as the unit did, or
        :class:`UnitDied` when it kills the process it runs alone in."""
        loop = asyncio.get_running_loop()
        async with self._slots:
            pool = self._pool
            try:
                return await loop.run_in_executor(
                    pool, run_symbolic_unit_in_worker, unit, plan, run_dir
                )
            except BrokenProcessPool:
                if self._pool is pool:  # the first unit to hear of the death renews the pool
                    self._pool = worker_pool(self.size, self.compiling)
                    pool.shutdown(wait=False)
            alone = worker_pool(1, self.compiling)
            try:
                return await loop.run_in_executor(
                    alone, run_symbolic_unit_in_worker, unit, plan, run_dir
                )
            except BrokenProcessPool:
                raise UnitDied(
                    "its worker process died while it ran alone (os._exit in the learner, a crash"
                    " or the OOM killer); its records are kept and the same command runs it again"
                ) from None
            finally:
                await asyncio.to_thread(alone.shutdown)

    async def close(self) -> None:
        """Stop the worker processes, waiting for them to exit."""
        await asyncio.to_thread(self._pool.shutdown)


def worker_pool(workers: int, compiling: EventType | None = None) -> ProcessPoolExecutor:
    """Spawned (not forked: the parent may hold threads and numba state a fork would copy) worker
    processes that exit when the runner dies, however it dies; they set ``compiling`` (from
    :func:`compiles_announced`) when they start compiling kernels instead of saying so themselves."""
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=_SPAWN,
        initializer=_start_worker,
        initargs=(os.getpid(), compiling),
    )


@contextlib.contextmanager
def compiles_announced() -> Iterator[EventType]:
    """An event for :func:`worker_pool`'s workers; once one sets it (noticed within 0.2 s, or when the
    block ends), this process says :data:`automata.jit.compile_time.MESSAGE`, once however many compile."""
    compiling = _SPAWN.Event()
    finished = threading.Event()

    def watch() -> None:
        while not (compiling.wait(0.2) or finished.is_set()):
            pass
        if compiling.is_set():  # read after the workers are done, when it is set at all
            compile_time.announce()

    watcher = threading.Thread(target=watch, name="announce-compiling", daemon=True)
    watcher.start()
    try:
        yield compiling
    finally:
        finished.set()
        watcher.join()


def _start_worker(parent: int, compiling: EventType | None) -> None:
    _exit_with(parent)
    if compiling is not None:
        compile_time.report_to(compiling.set)


def _exit_with(parent: int) -> None:
    """In a worker: exit as soon as ``parent`` is no longer this process's parent. A killed runner
    cannot tell its workers; they would wait on their task pipe forever (and keep the resource
    tracker, which waits for them, alive too)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, name="exit-with-runner", daemon=True).start()
