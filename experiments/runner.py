"""Run every unit of an experiment with bounded concurrency, resumably, and say how it went.

``run_experiment(plan, run_dir)`` writes the manifest, skips units whose records are complete,
and runs the rest: symbolic units in ``plan.concurrency`` worker processes (they are CPU-bound;
with a concurrency of 1, in the runner's own process),
LLM units as tasks on one event loop that share a :class:`~llm.servers.ServerPool` over the
configured servers and one SQLite call log (``calls.sqlite3`` in the run directory, in ``record``
mode, so a resumed experiment pays for no call twice); the servers are checked before any unit
runs, and a server that fails mid-run leaves its units unfinished (:mod:`experiments.servers`), as
does a worker process that dies. A unit that raises is logged to
``errors.jsonl`` with its traceback and the run goes on; a token budget stops launching new LLM
units once spent, and the runner says so. Running the same command again continues where it
stopped.

Before any unit runs, every existing records file is read: one whose fingerprint
(:mod:`experiments.fingerprint`) differs from the plan's stops the invocation with
:class:`ConfigurationChanged` naming the fields (``restart`` deletes the old results first). The
runner holds the directory's lock throughout (:mod:`experiments.lock`): a second runner is refused.
A damaged record line (anything but a torn last line, which is cut) stops it with
:class:`DamagedRecords` naming the file and line.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
import os
import shutil
import threading
import time
import traceback
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.synchronize import Event as EventType
from pathlib import Path
from typing import Any

import attrs

from automata.jit import compile_time
from cegis.state import ACCEPTED
from experiments.errors import ConfigurationChanged, ServerFailed, ServerUnusable
from experiments.execute import run_llm_unit, run_symbolic_unit, unit_result
from experiments.fingerprint import differences, fingerprint
from experiments.lock import run_directory_lock
from experiments.plan import Plan, ServerSpec
from experiments.progress import Progress
from experiments.unit_file import UnitFile, read_unit_file, refuse_damage
from experiments.units import MANIFEST, Unit, available_datasets, units, write_manifest
from llm.calllog import CallLog
from llm.errors import CallLogError
from llm.protocol import ChatClient

ERRORS = "errors.jsonl"
CALL_LOG = "calls.sqlite3"
#: What ``restart`` deletes: everything a run wrote but the call log (a cache of identical requests).
RESULTS = ("records", MANIFEST, "plan.json", ERRORS, "report.md", "figures")
_SPAWN = multiprocessing.get_context("spawn")


@attrs.frozen
class RunSummary:
    """How an invocation of the runner went."""

    units: int
    already_done: int
    ran: int
    succeeded: int
    errors: int
    tokens: int
    stopped: str | None = None  # why units were left unstarted (e.g. the token budget), if any
    skipped_datasets: tuple[str, ...] = ()  # optional datasets whose files are absent
    interrupted: tuple[
        str, ...
    ] = ()  # units a failing server or a dead worker left unfinished (resumable)


def _tokens(totals: dict[str, Any]) -> int:
    return int(totals.get("prompt_tokens", 0)) + int(totals.get("completion_tokens", 0))


async def run_experiment(
    plan: Plan,
    run_dir: Path,
    *,
    servers: tuple[ServerSpec, ...] | None = None,
    progress: Progress | None = None,
    restart: bool = False,
) -> RunSummary:
    """Run (or continue) every unit of ``plan`` into ``run_dir``; with ``restart``, delete the
    results already there first (raises :class:`ConfigurationChanged` when they are another
    configuration's and ``restart`` is not given, :class:`RunDirectoryBusy` when another runner
    holds the directory)."""
    run_dir.mkdir(parents=True, exist_ok=True)
    with run_directory_lock(run_dir):
        return await _run_locked(plan, run_dir, servers, progress, restart)


async def _run_locked(
    plan: Plan,
    run_dir: Path,
    servers: tuple[ServerSpec, ...] | None,
    progress: Progress | None,
    restart: bool,
) -> RunSummary:
    if restart:
        _delete_results(run_dir)
    datasets = available_datasets(plan)
    skipped = [spec.name for spec in plan.datasets if spec not in {found for found, _ in datasets}]
    all_units = list(units(plan, datasets))
    files = {unit.key: read_unit_file(unit.records(run_dir)) for unit in all_units}
    refuse_damage([damage for records in files.values() for damage in records.damage])
    _check_fingerprints(plan, run_dir, all_units, files)
    write_manifest(run_dir, all_units)
    (run_dir / "plan.json").write_text(
        json.dumps(attrs.asdict(plan), default=str, indent=2), encoding="utf-8"
    )
    track = progress or Progress(len(all_units))
    pending: list[Unit] = []
    before = [0, 0, 0]
    for unit in all_units:
        closing = unit_result(unit, run_dir, files[unit.key])
        if closing is None:
            pending.append(unit)
        else:
            before[0] += 1
            before[1] += closing["outcome"] in ACCEPTED
            before[2] += _tokens(closing["totals"])
    track.resume(*before)
    track.show()
    symbolic = [u for u in pending if not u.arm.is_llm]
    model = [u for u in pending if u.arm.is_llm]
    stopped: str | None = None
    interrupted: tuple[str, ...] = ()
    served: dict[str | None, str | None] = {}
    if model:
        served = await _check_servers(plan, servers, model, run_dir, track)
        _check_fingerprints(
            plan, run_dir, all_units, files, served
        )  # now with the models the servers serve
    orphaned = await _run_symbolic(symbolic, plan, run_dir, track)
    if orphaned:
        stopped = f"a worker process died ({len(orphaned)} units left unfinished); run the same command to continue"
    if model:
        stopped_llm, interrupted = await _run_llm(
            model, plan, run_dir, model_servers(plan, servers), served, track
        )
        stopped = stopped or stopped_llm
    interrupted = orphaned + interrupted
    track.show(final=True)
    return RunSummary(
        len(all_units),
        before[0],
        track.done - before[0],
        track.succeeded,
        track.errors,
        track.tokens,
        stopped,
        tuple(skipped),
        interrupted,
    )


def _delete_results(run_dir: Path) -> None:
    for name in RESULTS:
        path = run_dir / name
        if path.is_dir():
            shutil.rmtree(path)
        else:
            path.unlink(missing_ok=True)


def _check_fingerprints(
    plan: Plan,
    run_dir: Path,
    all_units: list[Unit],
    files: dict[str, UnitFile],
    served: dict[str | None, str | None] | None = None,
) -> None:
    """Refuse records written under another configuration, naming the fields that differ; ``served``:
    the model the servers serve for each arm's model, once they were asked."""
    changed: Counter[str] = Counter()
    units_changed = 0
    for unit in all_units:
        records = files[unit.key]
        if records.header is None and not records.epochs and records.run is None:
            continue  # nothing recorded yet (or only a torn first line)
        recorded = {} if records.header is None else records.header["fingerprint"]
        expected = fingerprint(unit, plan, _served(unit, served))
        found = (
            differences(recorded, expected)
            if recorded
            else ["fingerprint: absent (records of an older version)"]
        )
        units_changed += bool(found)
        changed.update(found)
    if not changed:
        return
    lines = [
        f"  {field} ({count} unit{'s' * (count != 1)})" for field, count in changed.most_common(12)
    ]
    more = len(changed) - len(lines)
    raise ConfigurationChanged(
        f"{run_dir} holds results of another configuration ({units_changed} of {len(all_units)} units differ"
        " from the plan; recorded → planned):\n"
        + "\n".join(lines)
        + (f"\n  ... and {more} more" if more else "")
        + "\nRun into another directory with --out DIR, or pass --restart to delete these results and start over."
    )


def _log_error(run_dir: Path, unit: Unit, error: BaseException) -> None:
    entry = {
        "unit": unit.key,
        "error": f"{type(error).__name__}: {error}",
        "traceback": traceback.format_exception(error),
    }
    with (run_dir / ERRORS).open("a", encoding="utf-8") as out:
        out.write(json.dumps(entry) + "\n")


async def _guarded(
    unit: Unit, run_dir: Path, track: Progress, work: Awaitable[dict[str, Any]]
) -> None:
    """Await one unit's work, counting its outcome; an exception is logged, never raised, but for
    a failing server's (the unit stays unfinished)."""
    try:
        result = await work
    except (ServerFailed, BrokenProcessPool):
        raise
    except Exception as error:  # noqa: BLE001 - one broken unit must not end the experiment
        _log_error(run_dir, unit, error)
        track.unit_failed()
        return
    track.unit_finished(result["outcome"] in ACCEPTED, _tokens(result["totals"]))


async def _run_symbolic(
    pending: list[Unit], plan: Plan, run_dir: Path, track: Progress
) -> tuple[str, ...]:
    """Run the symbolic units; returns those a dying worker process left unfinished. A worker that
    dies (``os._exit`` in a user's learner, the OOM killer) breaks the whole pool, and which unit
    killed it is unknown: every unit not yet finished stays unfinished and resumable, never an error."""
    if not pending:
        return ()
    if plan.concurrency == 1:  # no worker process to spawn: run them here, one after another
        for unit in pending:
            await _guarded(
                unit, run_dir, track, asyncio.to_thread(run_symbolic_unit, unit, plan, run_dir)
            )
        return ()
    loop = asyncio.get_running_loop()
    orphaned: list[str] = []

    async def one(unit: Unit, pool: ProcessPoolExecutor) -> None:
        try:
            await _guarded(
                unit,
                run_dir,
                track,
                loop.run_in_executor(pool, run_symbolic_unit, unit, plan, run_dir),
            )
        except BrokenProcessPool:
            track.unit_interrupted()
            orphaned.append(unit.key)

    with compiles_announced() as compiling, worker_pool(plan.concurrency, compiling) as pool:
        await asyncio.gather(*(one(u, pool) for u in pending))
    return tuple(key for key in (u.key for u in pending) if key in orphaned)


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


def _served(unit: Unit, served: dict[str | None, str | None] | None) -> str | None:
    return None if served is None or not unit.arm.is_llm else served.get(unit.arm.model)


async def _check_servers(
    plan: Plan,
    servers: tuple[ServerSpec, ...] | None,
    pending: list[Unit],
    run_dir: Path,
    track: Progress,
) -> dict[str | None, str | None]:
    """Refuse to start when a server the pending units ask cannot be used, unless the run directory
    already holds a call log with recorded calls: a resumed run is then served from it, and any
    unit that needs a new call stays unfinished (as when a server fails mid-run). Returns the model
    served for each arm's model (:func:`experiments.servers.check_servers`; empty when unchecked)."""
    from experiments.servers import check_servers  # the HTTP edge loads only when a model is asked

    try:
        return await check_servers(model_servers(plan, servers), [u.arm.model for u in pending])
    except ServerUnusable as error:
        if not _recorded_calls(run_dir / CALL_LOG):
            raise
        track.note(
            f"{error}; resuming from the call log (units that need a new call stay unfinished)"
        )
        return {}


def _recorded_calls(path: Path) -> bool:
    return _count_in_log(path, len) > 0


def _count_in_log(path: Path, count: Callable[[CallLog], int]) -> int:
    """``count`` of the call log at ``path``; 0 when there is no readable log."""
    if not path.is_file():
        return 0
    try:
        with CallLog(path) as log:
            return count(log)
    except CallLogError:
        return 0


async def _run_llm(
    pending: list[Unit],
    plan: Plan,
    run_dir: Path,
    servers: tuple[ServerSpec, ...],
    served: dict[str | None, str | None],
    track: Progress,
) -> tuple[str | None, tuple[str, ...]]:
    """Run the LLM units; returns why units were left unstarted, if so, and the units a failing
    server left unfinished."""
    from experiments.servers import server_pools  # the HTTP edge loads only when a model is asked

    lost = _count_in_log(run_dir / CALL_LOG, CallLog.unanswered)
    if lost:
        track.note(
            f"{lost} model call(s) were sent by an earlier run that stopped before their answers came; the units"
            " that need them send them again (a server may have billed the first sending)"
        )
    slots = asyncio.Semaphore(sum(s.concurrency for s in servers))
    stopped: list[str] = []
    interrupted: list[str] = []
    async with server_pools(servers, run_dir / CALL_LOG) as pool_for:

        async def one(unit: Unit) -> None:
            async with slots:
                if plan.token_budget is not None and track.tokens >= plan.token_budget:
                    stopped.append(
                        f"token budget of {plan.token_budget:,} spent; run the same command to continue"
                    )
                    return
                if interrupted:
                    return
                try:
                    await _guarded(
                        unit,
                        run_dir,
                        track,
                        _asking(unit, plan, run_dir, pool_for, served.get(unit.arm.model)),
                    )
                except ServerFailed as error:
                    track.unit_interrupted()
                    interrupted.append(unit.key)
                    stopped.append(
                        f"a model server failed mid-run ({error}); run the same command to continue"
                    )

        await asyncio.gather(*(one(u) for u in pending))
    return (stopped[0] if stopped else None), tuple(interrupted)


async def _asking(
    unit: Unit,
    plan: Plan,
    run_dir: Path,
    pool_for: Callable[[str | None], Awaitable[ChatClient]],
    served_model: str | None,
) -> dict[str, Any]:
    return await run_llm_unit(unit, plan, run_dir, await pool_for(unit.arm.model), served_model)


def model_servers(plan: Plan, servers: tuple[ServerSpec, ...] | None) -> tuple[ServerSpec, ...]:
    """The servers LLM units ask: the given ones, else the plan's, else ``$OPENAI_BASE_URL`` or the default."""
    return (
        servers
        or plan.servers
        or (ServerSpec(os.environ.get("OPENAI_BASE_URL", "http://localhost:8000/v1")),)
    )
