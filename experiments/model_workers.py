"""LLM units spread over worker processes, each with its own event loop, sharing each server's
concurrency exactly.

One event loop and one GIL cap a runner at what one core can do per call (parsing replies,
building prompts, writing records), however many calls the servers could take. With ``workers``
above 1 the runner spawns that many processes; each runs the units it is sent as tasks on its own
loop, against its own :class:`~llm.servers.ServerPool` whose servers carry that worker's *share* of
every entry's concurrency (:func:`shares`: the shares of an entry sum to its concurrency, so no
server ever has more calls in flight than the plan allows, across processes). The runner keeps
the orchestration: it starts units in its order (longest first) on the worker with the most free
slots, counts each answered call for the progress line, and gets each unit's closing record back.

Everything a unit writes is what the single-process runner writes: its records file (one writer
per unit, so processes never interleave) and the shared call log (SQLite in WAL mode with a busy
timeout: several processes append and look up the same file, so a resumed run pays for no call
twice whichever process made it). A worker that dies leaves its running units unfinished
(resumable), as a dying symbolic worker does.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import threading
import traceback
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import attrs

from cegis.gc_pause import collections_kept_short
from experiments.errors import ServerFailed, UnitRaised
from experiments.execute import run_llm_unit
from experiments.plan import Plan, ServerSpec
from experiments.starting import Starting
from experiments.unit_threads import few_threads
from experiments.units import Unit

JSON = dict[str, Any]
_SPAWN = multiprocessing.get_context("spawn")


def shares(servers: tuple[ServerSpec, ...], workers: int) -> list[tuple[ServerSpec, ...]]:
    """Each worker's servers: every entry with its concurrency split over ``workers`` (the first
    ones take one more when it does not divide), so the shares of an entry sum to it exactly.
    ``workers`` must not exceed the smallest entry's concurrency (:func:`worker_count`)."""
    return [
        tuple(
            attrs.evolve(s, concurrency=s.concurrency // workers + (k < s.concurrency % workers))
            for s in servers
        )
        for k in range(workers)
    ]


def worker_count(asked: int, servers: tuple[ServerSpec, ...]) -> int:
    """How many worker processes to run: ``asked``, but no more than every server entry can give
    one slot to."""
    return max(1, min(asked, *(s.concurrency for s in servers)))


@attrs.define
class _Worker:
    process: Any
    conn: Connection
    slots: int
    busy: int = 0
    waiting: dict[str, asyncio.Future[JSON]] = attrs.field(factory=dict)
    dead: bool = False


class ModelWorkers:
    """The worker processes of one run: :meth:`run` sends a unit to one with a free slot."""

    def __init__(
        self,
        plan: Plan,
        run_dir: Path,
        log_path: Path,
        servers: tuple[ServerSpec, ...],
        served: dict[str | None, str | None],
        workers: int,
        on_call: Callable[[str], None],
    ) -> None:
        """Spawn ``workers`` processes for ``plan``'s units into ``run_dir``, sharing the call log
        ``log_path``; ``on_call`` hears of each answered call with its unit's key."""
        self._loop = asyncio.get_running_loop()
        self._on_call = on_call
        self._free = asyncio.Condition()
        self._workers: list[_Worker] = []
        for share in shares(servers, workers):
            mine, theirs = _SPAWN.Pipe(duplex=True)
            process = _SPAWN.Process(
                target=_serve, args=(theirs, plan, run_dir, log_path, share, served), daemon=True
            )
            process.start()
            theirs.close()
            worker = _Worker(process, mine, sum(s.concurrency for s in share))
            self._workers.append(worker)
            threading.Thread(
                target=self._listen, args=(worker,), name="model-worker-reader", daemon=True
            ).start()

    async def run(self, unit: Unit) -> JSON:
        """Run ``unit`` in the worker with the most free slots (waiting for one); its closing
        record. Raises :class:`ServerFailed` as the unit did, :class:`UnitRaised` for any other
        error, ``BrokenProcessPool`` when its worker died."""
        async with self._free:
            while True:
                alive = [w for w in self._workers if not w.dead]
                if not alive:
                    raise BrokenProcessPool("every model worker process died")
                worker = max(alive, key=lambda w: w.slots - w.busy)
                if worker.busy < worker.slots:
                    break
                await self._free.wait()
            worker.busy += 1
        done: asyncio.Future[JSON] = self._loop.create_future()
        worker.waiting[unit.key] = done
        try:
            worker.conn.send(("unit", unit))
            return await done
        finally:
            worker.waiting.pop(unit.key, None)
            async with self._free:
                worker.busy -= 1
                self._free.notify()

    def _listen(self, worker: _Worker) -> None:
        """In a thread: hand each message of ``worker`` to the loop; its end breaks its units."""
        while True:
            try:
                message = worker.conn.recv()
            except (EOFError, OSError):
                self._loop.call_soon_threadsafe(self._died, worker)
                return
            self._loop.call_soon_threadsafe(self._received, worker, message)

    def _received(self, worker: _Worker, message: tuple[Any, ...]) -> None:
        kind, key, value = message
        if kind == "call":
            self._on_call(key)
            return
        done = worker.waiting.get(key)
        if done is None or done.done():
            return
        if kind == "done":
            done.set_result(value)
        elif kind == "server_failed":
            done.set_exception(ServerFailed(value))
        else:
            done.set_exception(UnitRaised(value))

    def _died(self, worker: _Worker) -> None:
        worker.dead = True
        for done in worker.waiting.values():
            if not done.done():
                done.set_exception(BrokenProcessPool("a model worker process died"))

    async def close(self) -> None:
        """Stop the workers once their units ended, and wait for them to exit."""
        for worker in self._workers:
            if not worker.dead:
                try:
                    worker.conn.send(("stop", "", None))
                except OSError:
                    pass
        await asyncio.gather(*(asyncio.to_thread(w.process.join) for w in self._workers))


def _serve(
    conn: Connection,
    plan: Plan,
    run_dir: Path,
    log_path: Path,
    servers: tuple[ServerSpec, ...],
    served: dict[str | None, str | None],
) -> None:
    """A worker process: run each unit it is sent as a task on its own loop until told to stop."""
    with collections_kept_short():
        asyncio.run(_worker(conn, plan, run_dir, log_path, servers, served))


async def _worker(
    conn: Connection,
    plan: Plan,
    run_dir: Path,
    log_path: Path,
    servers: tuple[ServerSpec, ...],
    served: dict[str | None, str | None],
) -> None:
    from experiments.servers import server_pools  # the HTTP edge, as in the runner

    loop = asyncio.get_running_loop()
    inbox: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()

    def listen() -> None:
        while True:
            try:
                kind, unit = conn.recv()[:2]
            except (EOFError, OSError):
                kind, unit = "stop", None
            loop.call_soon_threadsafe(inbox.put_nowait, (kind, unit))
            if kind == "stop":
                return

    threading.Thread(target=listen, name="model-worker-inbox", daemon=True).start()
    running: set[asyncio.Task[None]] = set()
    with few_threads():  # as in the runner's own loop
        async with server_pools(servers, log_path) as pool_for:
            starting = Starting()  # as in the runner's own loop

            async def one(unit: Unit) -> None:
                def answered() -> None:
                    conn.send(("call", unit.key, None))

                try:
                    async with starting.unit() as started:
                        client = attrs.evolve(
                            await pool_for(unit.arm.model), on_answer=answered, on_call=started
                        )
                        result = await run_llm_unit(
                            unit, plan, run_dir, client, served.get(unit.arm.model)
                        )
                except ServerFailed as error:
                    conn.send(("server_failed", unit.key, str(error)))
                except Exception as error:  # noqa: BLE001 - the runner logs it, as for a local unit
                    text = "".join(traceback.format_exception(error))
                    conn.send(("raised", unit.key, f"{type(error).__name__}: {error}\n{text}"))
                else:
                    conn.send(("done", unit.key, result))

            while True:
                kind, unit = await inbox.get()
                if kind == "stop":
                    break
                task = asyncio.create_task(one(unit))
                running.add(task)
                task.add_done_callback(running.discard)
            if running:
                await asyncio.gather(*running)
