"""Run every unit of an experiment with bounded concurrency, resumably, and say how it went.

``run_experiment(plan, run_dir)`` writes the manifest, skips units whose records are complete,
and runs the rest: symbolic units in ``plan.concurrency`` worker processes (they are CPU-bound;
with a concurrency of 1, in the runner's own process),
LLM units as tasks on one event loop that share a :class:`~llm.servers.ServerPool` over the
configured servers and one SQLite call log (``calls.sqlite3`` in the run directory, in ``record``
mode, so a resumed experiment pays for no call twice); the servers are checked before any unit
runs, and a server that fails mid-run leaves its units unfinished (:mod:`experiments.servers`), as
does a model worker process that dies. A unit that raises, or whose symbolic worker process dies
under it, is logged to ``errors.jsonl`` with its traceback and the run goes on; a token budget
stops launching new LLM units once spent, or once a server left some call's usage unreported (the
tokens spent are then unknown, and a budget counts no estimate), and the runner says so. Running
the same command again continues where it stopped.

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
import functools
import json
import os
import shutil
import traceback
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import attrs

from cegis.gc_pause import collections_kept_short
from cegis.state import ACCEPTED
from experiments.errors import ConfigurationChanged, ServerFailed, ServerUnusable, UnitRaised
from experiments.execute import run_llm_unit, run_symbolic_unit, unit_result
from experiments.fingerprint import differences, fingerprint
from experiments.lock import run_directory_lock
from experiments.plan import Plan, ServerSpec, arm_setting, loop_config
from experiments.progress import Progress
from experiments.ray_cluster import Cluster, cluster
from experiments.starting import Starting
from experiments.symbolic_workers import SymbolicWorkers, compiles_announced
from experiments.unit_file import UnitFile, read_unit_file, refuse_damage
from experiments.unit_threads import few_threads
from experiments.units import MANIFEST, Unit, available_datasets, units, write_manifest
from llm.calllog import CallLog
from llm.errors import CallLogError, ConfigError

ERRORS = "errors.jsonl"
CALL_LOG = "calls.sqlite3"
#: What ``restart`` deletes: everything a run wrote but the call log (a cache of identical requests).
RESULTS = ("records", MANIFEST, "plan.json", ERRORS, "report.md", "figures")


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
    """The tokens a unit spent as its servers reported them (a lower bound while some call's usage
    went unreported: :func:`_unreported`)."""
    return int(totals.get("prompt_tokens", 0)) + int(totals.get("completion_tokens", 0))


def _unreported(totals: dict[str, Any]) -> int:
    """The unit's calls whose reply reported no usable token counts: their tokens are unknown."""
    return int(totals.get("unreported_calls", 0))


def _budget_unkept(budget: int, unknown: dict[str, int]) -> str:
    """Why a ``token_budget`` cannot be kept once units spent tokens no server reported: a budget
    compares the servers' own counts, never an estimate standing in for them (README: budgets)."""
    first, calls = next(iter(unknown.items()))
    more = f" (and {len(unknown) - 1} more unit(s))" if len(unknown) > 1 else ""
    return (
        f"token budget of {budget:,} cannot be kept: the server reported no usable token usage for"
        f" {calls} call(s) of {first}{more}, so the tokens spent are unknown; drop token_budget,"
        " or use a server that reports usage"
    )


async def run_experiment(
    plan: Plan,
    run_dir: Path,
    *,
    servers: tuple[ServerSpec, ...] | None = None,
    progress: Progress | None = None,
    restart: bool = False,
    llm_workers: int = 1,
    ray: str | None = None,
) -> RunSummary:
    """Run (or continue) every unit of ``plan`` into ``run_dir``; with ``restart``, delete the
    results already there first (raises :class:`ConfigurationChanged` when they are another
    configuration's and ``restart`` is not given, :class:`RunDirectoryBusy` when another runner
    holds the directory). ``llm_workers``: processes the LLM units are spread over (each server
    entry's concurrency shared exactly between them, :mod:`experiments.model_workers`; on Ray, the
    actors they are spread over). ``ray``: the address of a Ray cluster to run the units on
    (:mod:`experiments.ray_cluster`; the run directory stays with this process)."""
    run_dir.mkdir(parents=True, exist_ok=True)
    with run_directory_lock(run_dir):
        return await _run_locked(plan, run_dir, servers, progress, restart, llm_workers, ray)


async def _run_locked(
    plan: Plan,
    run_dir: Path,
    servers: tuple[ServerSpec, ...] | None,
    progress: Progress | None,
    restart: bool,
    llm_workers: int = 1,
    ray: str | None = None,
) -> RunSummary:
    if restart:
        _delete_results(run_dir)
    datasets = available_datasets(plan)
    skipped = [spec.name for spec in plan.datasets if spec not in {found for found, _ in datasets}]
    all_units = list(units(plan, datasets))
    files = {
        unit.key: read_unit_file(unit.records(run_dir), unit.manifest_json()) for unit in all_units
    }
    refuse_damage([damage for records in files.values() for damage in records.damage])
    _check_fingerprints(plan, run_dir, all_units, files)
    write_manifest(run_dir, all_units)
    (run_dir / "plan.json").write_text(
        json.dumps(attrs.asdict(plan), default=str, indent=2), encoding="utf-8"
    )
    track = progress or Progress(len(all_units))
    pending: list[Unit] = []
    before = [0, 0, 0, 0]
    unknown: dict[str, int] = {}  # units whose tokens a server left unreported: their calls
    for unit in all_units:
        closing = unit_result(unit, run_dir, files[unit.key])
        if closing is None:
            pending.append(unit)
        else:
            before[0] += 1
            before[1] += closing["outcome"] in ACCEPTED
            before[2] += _tokens(closing["totals"])
            unreported = _unreported(closing["totals"])
            before[3] += unreported
            if unreported:
                unknown[unit.key] = unreported
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
    async with _on_cluster(ray if pending else None, plan, run_dir) as cluster, track.ticking():
        orphaned = await _run_symbolic(symbolic, plan, run_dir, track, cluster)
        if orphaned:
            stopped = f"a worker process died ({len(orphaned)} units left unfinished); run the same command to continue"
        if model:
            stopped_llm, interrupted = await _run_llm(
                model,
                plan,
                run_dir,
                model_servers(plan, servers),
                served,
                track,
                llm_workers,
                cluster,
                unknown,
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


@contextlib.asynccontextmanager
async def _on_cluster(
    address: str | None, plan: Plan, run_dir: Path
) -> AsyncIterator[Cluster | None]:
    """The Ray cluster at ``address`` the units run on; None (run here) without one."""
    if address is None:
        yield None
        return
    async with cluster(address, plan, run_dir, run_dir / CALL_LOG) as running:
        yield running


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
    if isinstance(error, UnitRaised):  # raised in another process: its line, then its traceback
        said, _, trace = str(error).partition("\n")
        entry = {"unit": unit.key, "error": said, "traceback": trace.splitlines(keepends=True)}
    else:
        entry = {
            "unit": unit.key,
            "error": f"{type(error).__name__}: {error}",
            "traceback": traceback.format_exception(error),
        }
    with (run_dir / ERRORS).open("a", encoding="utf-8") as out:
        out.write(json.dumps(entry) + "\n")


async def _guarded(
    unit: Unit, run_dir: Path, track: Progress, work: Awaitable[dict[str, Any]]
) -> dict[str, Any] | None:
    """Await one unit's work, counting its outcome; returns its closing record (None when it
    raised). An exception is logged, never raised, but for a failing server's (the unit stays
    unfinished)."""
    try:
        result = await work
    except (ServerFailed, BrokenProcessPool):
        raise
    except Exception as error:  # noqa: BLE001 - one broken unit must not end the experiment
        _log_error(run_dir, unit, error)
        track.unit_failed()
        return None
    totals = result["totals"]
    track.unit_finished(result["outcome"] in ACCEPTED, _tokens(totals), _unreported(totals))
    return result


async def _run_symbolic(
    pending: list[Unit], plan: Plan, run_dir: Path, track: Progress, cluster: Cluster | None = None
) -> tuple[str, ...]:
    """Run the symbolic units (as tasks on ``cluster``, when given); returns those a dying worker
    left unfinished (on a cluster, the units whose retries are spent). Here a worker that dies
    fails only the unit that killed it (:class:`SymbolicWorkers`)."""
    if not pending:
        return ()
    if plan.concurrency == 1 and cluster is None:  # no worker process: run them here, in turn
        for unit in pending:
            await _guarded(
                unit, run_dir, track, asyncio.to_thread(run_symbolic_unit, unit, plan, run_dir)
            )
        return ()
    orphaned: list[str] = []

    async def one(unit: Unit, launch: Callable[[Unit], Awaitable[dict[str, Any]]]) -> None:
        try:
            await _guarded(unit, run_dir, track, launch(unit))
        except BrokenProcessPool:
            track.unit_interrupted()
            orphaned.append(unit.key)

    if cluster is not None:
        await asyncio.gather(*(one(u, cluster.symbolic) for u in pending))
    else:
        with compiles_announced() as compiling:
            workers = SymbolicWorkers(plan.concurrency, compiling)
            try:
                await asyncio.gather(
                    *(
                        one(u, functools.partial(workers.run, plan=plan, run_dir=run_dir))
                        for u in pending
                    )
                )
            finally:
                await workers.close()
    return tuple(key for key in (u.key for u in pending) if key in orphaned)


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
    workers: int,
    cluster: Cluster | None,
    unknown: dict[str, int],
) -> tuple[str | None, tuple[str, ...]]:
    """Run the LLM units (in ``workers`` processes when above 1); returns why units were left
    unstarted, if so, and the units a failing server or a dead worker left unfinished.
    ``unknown``: the finished units whose tokens a server left unreported, with their calls (a
    token budget cannot be kept past them)."""
    lost = _count_in_log(run_dir / CALL_LOG, CallLog.unanswered)
    if lost:
        track.note(
            f"{lost} model call(s) were sent by an earlier run that stopped before their answers came; the units"
            " that need them send them again (a server may have billed the first sending)"
        )
    slots = asyncio.Semaphore(sum(s.concurrency for s in servers))
    stopped: list[str] = []
    interrupted: list[str] = []
    calls = CallCount(pending, plan)
    track.calls_left = calls.left

    def counted(key: str) -> None:
        calls.made(key)
        track.call_made()

    async with _launcher(plan, run_dir, servers, served, workers, counted, cluster) as launch:

        async def one(unit: Unit) -> None:
            async with slots:
                budget = plan.token_budget
                if budget is not None and unknown:
                    stopped.append(_budget_unkept(budget, unknown))
                    return
                if budget is not None and track.tokens >= budget:
                    stopped.append(
                        f"token budget of {budget:,} spent; run the same command to continue"
                    )
                    return
                if interrupted:
                    return
                try:
                    closing = await _guarded(unit, run_dir, track, launch(unit))
                    calls.ended(unit)
                    if closing is not None and _unreported(closing["totals"]):
                        unknown[unit.key] = _unreported(closing["totals"])
                except (ServerFailed, BrokenProcessPool) as error:
                    track.unit_interrupted()
                    interrupted.append(unit.key)
                    why = (
                        f"a model server failed mid-run ({error})"
                        if isinstance(error, ServerFailed)
                        else "a model worker process died"
                    )
                    stopped.append(f"{why}; run the same command to continue")

        await asyncio.gather(*(one(u) for u in longest_first(pending, plan)))
    return (stopped[0] if stopped else None), tuple(interrupted)


@contextlib.asynccontextmanager
async def _launcher(
    plan: Plan,
    run_dir: Path,
    servers: tuple[ServerSpec, ...],
    served: dict[str | None, str | None],
    workers: int,
    counted: Callable[[str], None],
    cluster: Cluster | None = None,
) -> AsyncIterator[Callable[[Unit], Awaitable[dict[str, Any]]]]:
    """What runs one LLM unit and returns its closing record: a task on this loop, a unit sent
    to one of ``workers`` processes (:mod:`experiments.model_workers`) or to one of ``workers``
    actors on ``cluster``; ``counted`` hears of every answered call with its unit's key."""
    if cluster is not None:
        cluster.start_llm(servers, served, workers, counted)
        yield cluster.llm
        return
    if workers > 1:
        from experiments.model_workers import ModelWorkers

        processes = ModelWorkers(
            plan, run_dir, run_dir / CALL_LOG, servers, served, workers, counted
        )
        try:
            yield processes.run
        finally:
            await processes.close()
        return
    from experiments.servers import server_pools  # the HTTP edge loads only when a model is asked

    # units run here: no full collection walks all their examples, and few threads vie with the loop
    with collections_kept_short(), few_threads():
        async with server_pools(servers, run_dir / CALL_LOG) as pool_for:
            starting = Starting()

            async def launch(unit: Unit) -> dict[str, Any]:
                async with starting.unit() as started:
                    client = attrs.evolve(
                        await pool_for(unit.arm.model),
                        on_answer=lambda: counted(unit.key),
                        on_call=started,
                    )
                    return await run_llm_unit(
                        unit, plan, run_dir, client, served.get(unit.arm.model)
                    )

            yield launch


def most_calls(unit: Unit, plan: Plan) -> int:
    """The most model calls ``unit`` can make (every epoch's draw rounds, and its hardening's);
    an epoch without a budget counts once."""
    setting = arm_setting(unit.arm)
    if setting is None:
        return 0
    epochs = loop_config(plan, unit.arm, unit.seed).budgets.epochs or 1
    per_round = setting.candidates if setting.candidate_source == "calls" else 1
    return (epochs + setting.hardening_cycles) * setting.attempts * per_round


def longest_first(pending: list[Unit], plan: Plan) -> list[Unit]:
    """``pending`` in the order to start them: the units expected to take longest first (the most
    calls, then the deepest stars and the most states), so the hardest targets, which use every
    epoch, do not start last and make the run's tail."""

    def expected(unit: Unit) -> tuple[int, int, int]:
        metrics = unit.task.listed or unit.task.metrics
        return (most_calls(unit, plan), metrics.star_depth, metrics.states)

    return sorted(pending, key=expected, reverse=True)


@attrs.define
class CallCount:
    """Model calls made per unit, and the calls the unfinished ones are still expected to make:
    for an arm some of whose units ended, their mean; before that, the most a unit can make."""

    pending: list[Unit]
    plan: Plan
    _made: dict[str, int] = attrs.field(init=False, factory=dict)
    _ended: dict[str, list[int]] = attrs.field(init=False, factory=dict)
    _running: set[str] = attrs.field(init=False, factory=set)

    def __attrs_post_init__(self) -> None:
        self._running = {unit.key for unit in self.pending}

    def made(self, key: str) -> None:
        """The unit ``key`` made one more call."""
        self._made[key] = self._made.get(key, 0) + 1

    def ended(self, unit: Unit) -> None:
        """``unit`` ended; its calls now stand for its arm's."""
        self._running.discard(unit.key)
        self._ended.setdefault(unit.arm.name, []).append(self._made.get(unit.key, 0))

    def left(self) -> float:
        """Calls the unfinished units are still expected to make."""
        total = 0.0
        for unit in self.pending:
            if unit.key not in self._running:
                continue
            ended = self._ended.get(unit.arm.name)
            expected = sum(ended) / len(ended) if ended else most_calls(unit, self.plan)
            total += max(0.0, expected - self._made.get(unit.key, 0))
        return total


def model_servers(plan: Plan, servers: tuple[ServerSpec, ...] | None) -> tuple[ServerSpec, ...]:
    """The servers LLM units ask: the given ones, else the plan's, else ``$OPENAI_BASE_URL`` or the default."""
    if servers or plan.servers:
        return servers or plan.servers
    try:
        return (ServerSpec(os.environ.get("OPENAI_BASE_URL", "http://localhost:8000/v1")),)
    except ConfigError as error:
        raise ServerUnusable(f"OPENAI_BASE_URL: {error}") from None
