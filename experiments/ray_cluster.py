"""The units of an experiment on a Ray cluster (``python -m cli experiment --ray ADDRESS``).

A sweep that outgrows one machine runs on the cluster a lab already has: the runner connects with
``ray.init(address=...)`` and sends each unit there, while everything else stays with it (the
*driver*): the run directory and its lock, the fingerprints, the manifest, the progress line and
the report. Workers never touch the run directory, so the nodes need no shared filesystem:

* A unit is sent with the complete lines of its records file. The worker runs it exactly as the
  local runner does (:func:`~experiments.execute.run_symbolic_unit`,
  :func:`~experiments.execute.run_llm_unit`) into a scratch directory holding that file, and
  returns the lines it appended (:class:`Outcome`). The driver alone appends them to the unit's
  file, so the records are byte for byte the local runner's, one writer per file.
* A symbolic unit is a Ray task taking one CPU; an LLM unit runs on one of ``workers`` Ray actors,
  each with its own event loop and its share of every server entry's concurrency
  (:func:`experiments.model_workers.shares`: the shares sum to the entry's concurrency, so no server
  has more calls in flight than the plan allows, across the cluster). Each actor keeps a scratch
  call log, seeded with the run's reusable calls (one object in Ray's store, put once), and returns
  the calls it logged with each unit it ends; the driver copies them into ``calls.sqlite3``, so a
  resumed run, local or on Ray, pays for no call twice.
* A worker process that dies (a node lost, the OOM killer, ``os._exit`` in a learner) has returned
  nothing, so the driver has written nothing of that attempt: Ray runs the unit again (a task's
  retries, an actor's restart and its calls' retries) from the same records, and the unit is
  neither lost nor doubled. When the retries are spent the unit stays unfinished, resumable, as
  when a local worker process dies.

A unit that raises returns what it wrote before raising, then its error, which the runner logs to
``errors.jsonl`` as it does for a local unit. What is lost with a dead attempt is only its work:
the epochs it ran are run again, and its model calls are asked again unless another unit's
outcome had already carried them back. ``ray`` is imported only here, and only when asked for.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import tempfile
import time
import traceback
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import attrs

from experiments.errors import ExperimentError, ServerFailed, UnitRaised
from experiments.execute import run_llm_unit, run_symbolic_unit, unit_result
from experiments.model_workers import shares, worker_count
from experiments.plan import Plan, ServerSpec
from experiments.units import Unit
from llm.calllog import CallLog, CallRow

JSON = dict[str, Any]
#: How often Ray runs a unit again after its worker process died, before leaving it unfinished.
RETRIES = 3
#: Connections tried when a ``ray://`` head's client server fails to start the process that would
#: serve this client (its proxy forks one per client; under load the fork can die at birth, a
#: zombie or a gRPC poller error in its log), and the seconds before the second try (doubling).
CONNECT_ATTEMPTS = 4
CONNECT_BACKOFF = 1.0
#: What Ray's client says when the head failed to start that process.
_SERVER_START_FAILED = "Initialization failure from server"
_SCRATCH_LOG = "calls.sqlite3"


class RayUnavailable(ExperimentError):
    """``--ray`` asked for without the ``ray`` extra installed, or a cluster that cannot be reached."""


@attrs.frozen
class Outcome:
    """What one attempt at a unit returns to the driver: the record lines it appended (bytes, as
    written), the calls it logged (for the run's call log), how many calls it had answered, and the
    error it ended with, if any (``server_failed`` or ``raised``, with its text)."""

    appended: bytes
    calls: tuple[CallRow, ...] = ()
    answered: int = 0
    error: tuple[str, str] | None = None


def _ray() -> Any:
    """The ``ray`` module, or :class:`RayUnavailable` in one line when the extra is not installed."""
    try:
        import ray
    except ImportError:
        raise RayUnavailable(
            "--ray needs Ray, which is not installed: pip install -e '.[ray]'"
        ) from None
    return ray


@contextlib.contextmanager
def connected(address: str) -> Iterator[Any]:
    """Ray, connected to the cluster at ``address`` (as ``ray.init`` takes it: ``auto``, ``local``
    to start one on this machine, ``ray://HOST:10001``) unless this process already is; a
    connection made here is shut down when the block ends. A head whose client server failed to
    start this client's server process is tried again, up to :data:`CONNECT_ATTEMPTS` times."""
    ray = _ray()
    if ray.is_initialized():
        yield ray
        return
    own = {"include_dashboard": False} if address == "local" else {}
    for attempt in range(CONNECT_ATTEMPTS):
        try:
            ray.init(address=address, log_to_driver=False, **own)
            break
        except (ConnectionError, RuntimeError, ValueError) as error:
            if attempt + 1 == CONNECT_ATTEMPTS or _SERVER_START_FAILED not in str(error):
                hint = _token_hint(address)
                raise RayUnavailable(
                    f"--ray {address}: cannot connect to Ray: {_summary(error)}{hint}"
                ) from None
            ray.shutdown()
            time.sleep(CONNECT_BACKOFF * 2**attempt)
    try:
        yield ray
    finally:
        ray.shutdown()


def _summary(error: Exception) -> str:
    """The error in one line: its first line, and its last when they differ (Ray's client puts
    the server's traceback after a first line such as "Initialization failure from server:")."""
    lines = [line.strip() for line in str(error).strip().splitlines() if line.strip()]
    if not lines:
        return type(error).__name__
    return lines[0] if len(lines) == 1 else f"{lines[0]} … {lines[-1]}"


def _token_hint(address: str) -> str:
    """What to try when a ``ray://`` connection fails without token authentication asked for:
    heads started by ``ray start`` on Ray 2.59 and later require a token, and a client that sends
    none only times out."""
    if not address.startswith("ray://") or os.environ.get("RAY_AUTH_MODE"):
        return ""
    return (
        "; if the cluster requires token authentication (the default for `ray start` from"
        " Ray 2.59), set RAY_AUTH_MODE=token and the cluster's token (RAY_AUTH_TOKEN, or the"
        " file ~/.ray/auth_token)"
    )


def complete_lines(path: Path) -> bytes:
    """The unit's records as the worker starts from them: every complete line (a torn last line
    is what a kill leaves, and cut before anything is appended, as the local runner does)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return b""
    return data[: data.rfind(b"\n") + 1]


def _append(path: Path, kept: int, appended: bytes) -> None:
    """Cut ``path`` to its first ``kept`` bytes and append ``appended``, synced to disk."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("ab") as out:
        out.truncate(kept)
        out.write(appended)
        out.flush()
        os.fsync(out.fileno())


def _scratch_records(unit: Unit, scratch: Path, records: bytes) -> Path:
    path = unit.records(scratch)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(records)
    return path


def _failure(error: BaseException) -> tuple[str, str]:
    if isinstance(error, ServerFailed):
        return ("server_failed", str(error))
    text = "".join(traceback.format_exception(error))
    return ("raised", f"{type(error).__name__}: {error}\n{text}")


def symbolic_attempt(unit: Unit, plan: Plan, records: bytes) -> Outcome:
    """In a Ray worker: run the symbolic ``unit`` from ``records`` in a scratch directory."""
    with tempfile.TemporaryDirectory(prefix="regex-cegis-unit-") as folder:
        path = _scratch_records(unit, Path(folder), records)
        error = None
        try:
            run_symbolic_unit(unit, plan, Path(folder))
        except Exception as raised:  # noqa: BLE001 - the driver logs it, as for a local unit
            error = _failure(raised)
        return Outcome(path.read_bytes()[len(records) :], error=error)


class LLMHost:
    """A Ray actor's body: LLM units as tasks on its event loop, against a server pool over its
    share of the servers and a scratch call log seeded with the run's reusable calls."""

    def __init__(
        self,
        plan: Plan,
        servers: tuple[ServerSpec, ...],
        served: dict[str | None, str | None],
        seed_calls: list[CallRow],
    ) -> None:
        self._plan = plan
        self._servers = servers
        self._served = served
        self._scratch = tempfile.TemporaryDirectory(prefix="regex-cegis-llm-")
        self._log_path = Path(self._scratch.name) / _SCRATCH_LOG
        with CallLog(self._log_path) as log:
            log.copy_in(seed_calls)
            self._returned = log.rows_after()[0]  # the seeded calls are the driver's already
        self._stack = contextlib.AsyncExitStack()
        self._pool_for: Callable[[str | None], Awaitable[Any]] | None = None
        self._opening = asyncio.Lock()

    async def run(self, unit: Unit, records: bytes) -> Outcome:
        """Run (or resume) ``unit`` from ``records``; the lines it appended and the calls logged
        since the last outcome this actor returned."""
        pool_for = await self._pools()
        scratch = Path(self._scratch.name) / "units"
        path = _scratch_records(unit, scratch, records)
        answered = 0

        def count() -> None:
            nonlocal answered
            answered += 1

        error = None
        try:
            client = attrs.evolve(await pool_for(unit.arm.model), on_answer=count)
            await run_llm_unit(unit, self._plan, scratch, client, self._served.get(unit.arm.model))
        except Exception as raised:  # noqa: BLE001 - the driver logs it, as for a local unit
            error = _failure(raised)
        appended = path.read_bytes()[len(records) :]
        path.unlink()
        with CallLog(self._log_path) as log:
            self._returned, calls = log.rows_after(self._returned)
        return Outcome(appended, tuple(calls), answered, error)

    async def _pools(self) -> Callable[[str | None], Awaitable[Any]]:
        """The server pools of this actor, opened by the first unit."""
        from experiments.servers import server_pools  # the HTTP edge, as in the runner

        async with self._opening:
            if self._pool_for is None:
                pools: Callable[
                    [str | None], Awaitable[Any]
                ] = await self._stack.enter_async_context(
                    server_pools(self._servers, self._log_path)
                )
                self._pool_for = pools
            return self._pool_for

    async def close(self) -> None:
        """Close the server pools and delete the scratch directory."""
        await self._stack.aclose()
        self._scratch.cleanup()


Launch = Callable[[Unit], Awaitable[JSON]]


class Cluster:
    """The driver's side: :meth:`symbolic` and :meth:`llm` run one unit on the cluster, write what
    it returned into ``run_dir`` and return its closing record, as a local launch does."""

    def __init__(self, ray: Any, plan: Plan, run_dir: Path, call_log: Path) -> None:
        self._ray = ray
        self._plan = plan
        self._run_dir = run_dir
        self._call_log = call_log
        self._symbolic = ray.remote(num_cpus=1, max_retries=RETRIES)(symbolic_attempt)
        self._hosts: list[Any] = []
        self._free: list[int] = []
        self._slot_freed = asyncio.Condition()
        self._seed: Any = None  # the calls the LLM actors start from (see start_llm)
        self._counted: Callable[[str], None] = lambda key: None

    async def symbolic(self, unit: Unit) -> JSON:
        """Run the symbolic ``unit`` as a Ray task."""
        records = complete_lines(unit.records(self._run_dir))
        return await self._settle(unit, records, self._symbolic.remote(unit, self._plan, records))

    def start_llm(
        self,
        servers: tuple[ServerSpec, ...],
        served: dict[str | None, str | None],
        workers: int,
        counted: Callable[[str], None],
    ) -> None:
        """Start ``workers`` actors for the LLM units (no more than every server entry can give a
        slot to), each with its share of ``servers``; ``counted`` hears of every answered call."""
        with CallLog(self._call_log) as log:
            # kept here for the actors' lives: a restarted actor is built from it again
            self._seed = seed = self._ray.put(log.rows_after(reusable=True)[1])
        host = self._ray.remote(num_cpus=1, max_restarts=RETRIES, max_task_retries=RETRIES)(LLMHost)
        for share in shares(servers, worker_count(workers, servers)):
            options = {"max_concurrency": sum(s.concurrency for s in share) + 1}
            self._hosts.append(host.options(**options).remote(self._plan, share, served, seed))
            self._free.append(sum(s.concurrency for s in share))
        self._counted = counted

    async def llm(self, unit: Unit) -> JSON:
        """Run the LLM ``unit`` on the actor with the most free slots (waiting for one)."""
        async with self._slot_freed:
            while max(self._free) == 0:
                await self._slot_freed.wait()
            chosen = max(range(len(self._hosts)), key=lambda k: self._free[k])
            self._free[chosen] -= 1
        try:
            records = complete_lines(unit.records(self._run_dir))
            return await self._settle(unit, records, self._hosts[chosen].run.remote(unit, records))
        finally:
            async with self._slot_freed:
                self._free[chosen] += 1
                self._slot_freed.notify()

    async def _settle(self, unit: Unit, records: bytes, attempt: Any) -> JSON:
        """Await ``attempt``; write what it returned; the unit's closing record, or its error."""
        errors = self._ray.exceptions
        try:
            outcome: Outcome = await _awaited(attempt)
        except errors.RayTaskError:
            raise  # the attempt raised outside the unit (a module the node lacks, say): an error
        except errors.RayError as error:  # its worker, actor or node died, the retries spent
            raise BrokenProcessPool(
                f"a Ray worker died and its retries are spent: {error}"
            ) from None
        path = unit.records(self._run_dir)
        if outcome.appended or path.exists():
            _append(path, len(records), outcome.appended)
        if outcome.calls:
            with CallLog(self._call_log) as log:
                await asyncio.to_thread(log.copy_in, list(outcome.calls))
        for _ in range(outcome.answered):
            self._counted(unit.key)
        if outcome.error is not None:
            kind, text = outcome.error
            raise ServerFailed(text) if kind == "server_failed" else UnitRaised(text)
        result = unit_result(unit, self._run_dir)
        if result is None:
            raise RuntimeError(f"unit {unit.key} ended without its closing record")
        return result

    async def close(self) -> None:
        """Close the LLM actors (their pools and scratch directories) and end them."""
        closing = (_awaited(host.close.remote()) for host in self._hosts)
        await asyncio.gather(*closing, return_exceptions=True)
        for host in self._hosts:
            self._ray.kill(host)


def _awaited(ref: Any) -> asyncio.Future[Any]:
    """The value of the Ray object ``ref`` on this loop (through its future, which a ``ray://``
    client's references have too)."""
    return asyncio.wrap_future(ref.future())


@contextlib.asynccontextmanager
async def cluster(
    address: str, plan: Plan, run_dir: Path, call_log: Path
) -> AsyncIterator[Cluster]:
    """The cluster at ``address`` for ``plan``'s units into ``run_dir`` (call log ``call_log``);
    raises :class:`RayUnavailable` when Ray is not installed or cannot connect."""
    with connected(address) as ray:
        running = Cluster(ray, plan, run_dir, call_log)
        try:
            yield running
        finally:
            await running.close()
