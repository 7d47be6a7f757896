"""Benchmark of the experiment runner at a GPU server's concurrency: does a plan that asks for N
calls in flight get them, and what does the runner itself cost per call?

A loopback server (:mod:`experiments.bench.latency_server`, in a process of its own) answers every
call after ``L`` seconds with unbounded concurrency, as vLLM's continuous batching does. For each
paper list and each concurrency the runner runs one LLM arm (Agentic by default) into a fresh run
directory, and the benchmark prints:

* ``units``: the units that finished (units that raised are counted under the row, with the
  first one's error);
* ``calls``, ``wall``: model calls made and the run's wall time;
* ``ideal``: each unit's chain of calls × L, the chains scheduled longest first on the slots: the
  wall time of a runner that costs nothing; ``eff`` = ideal / wall;
* ``peak``: the most calls in flight the server saw;
* ``lag p50/p99``: how late a 50 ms timer on the runner's event loop fires (a stalled loop delays
  every reply's parsing and every next send);
* ``overhead``: the mean of (answer logged − request noted as sent) − L over the call log, as a
  share of L: what the client adds to a call, queueing for the event loop included;
* ``CPU/call``: the runner's CPU seconds (its threads and worker processes) per call;
* ``srv ms``: the loopback server's own CPU per call, taken from the same cores as the runner's
  (a real server runs elsewhere);
* ``calls/s``: calls over wall time, what the runner delivers;
* ``full/s``: calls answered per second from the run's start until fewer units were left than
  slots (until the first unit ended with none waiting): what the runner delivers while it has a
  unit for every slot, before the workload's last units run alone (``-`` when the units never
  outnumber the slots).

With ``--workers N`` the LLM units run in N worker processes (:mod:`experiments.model_workers`);
the loop lag is then the orchestrating process's. Repeated (``--workers 1 --workers 2``), it gives
one row per count in the same invocation, and the calls/s of each count against the first,
beside the most a runner that cost nothing would deliver (calls over the ideal wall time) and the
ratio of their ``full/s``. The chains of the last units leave slots empty, so with few seeds that
ceiling, not the runner, can bound the ratio of calls/s: Simple at 3 seeds is 525 units of 36
calls on 256 slots, and its last 13 units run alone for 36 × L whatever the runner does (at
L = 0.25 s, 256 in flight: 698 calls/s at most); ``full/s`` leaves that tail out.

With ``--kill-one-after T`` each row is a failover trial instead: the plan names two servers of the
same concurrency, one of which is killed T seconds into the run; the row is printed beside the same
run against the survivor alone, with the ratio of their wall times (what the dead server cost:
1.00 is free failover; ``peak`` is the survivor's). Its ``ideal``, ``eff`` and ``full/s`` are
``-``: the run has both servers' slots until the kill and one's after, so no one schedule of
slots is its ideal.

Run (no GPU needed; the lists are the paper's, from ``$REGEX_CEGIS_DATA``)::

    python -m cli bench llm-throughput --latency 2 --concurrency 64 --concurrency 256
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import heapq
import io
import itertools
import json
import resource
import sqlite3
import tempfile
import threading
import time
from collections.abc import AsyncIterator, Iterable, Sequence
from pathlib import Path
from typing import Any

import attrs
import click
import numpy as np

from experiments.bench.latency_server import serving
from experiments.plan import Plan, plan_from_data
from experiments.progress import Progress
from experiments.runner import CALL_LOG, ERRORS, run_experiment

LISTS = {"simple": "simplyrx", "extended": "extrx"}
#: The lag probe's period. The probe runs on the runner's loop and its CPU counts in CPU/call: at
#: 10 ms it cost about 15 ms of CPU a second on this project's 2-core test machine, 0.9 ms per call
#: at L = 2 s and 64 in flight; at 50 ms about a fifth of that, with samples enough for a p99.
TICK = 0.05


@attrs.frozen
class Row:
    """One measured run."""

    label: str
    concurrency: int
    workers: int
    units: int
    calls: int
    wall: float
    ideal: float | None  # None for a failover trial: its slots change when a server dies
    peak: int
    lag_p50: float
    lag_p99: float
    overhead: float  # mean seconds per call beyond L
    cpu: float
    latency: float
    server_cpu: float  # the loopback server's CPU seconds over the run
    errors: tuple[str, ...] = ()  # what the units that raised said (they count in no column)
    full: float | None = None  # calls/s while a unit held every slot (:func:`full_rate`)

    def line(self) -> str:
        """The row as the table prints it."""
        return (
            f"{self.label:<10} {self.concurrency:>5} {self.workers:>3} {self.units:>5}"
            f" {self.calls:>6} {self.wall:>7.1f}"
            f" {_shown(self.ideal, 7, '.1f')} {_shown(self.efficiency, 5, '.2f')} {self.peak:>5}"
            f" {1e3 * self.lag_p50:>6.1f} {1e3 * self.lag_p99:>7.1f}"
            f" {100 * self.overhead / self.latency:>8.2f}% {1e3 * self.cpu / max(self.calls, 1):>8.2f}"
            f" {1e3 * self.server_cpu / max(self.calls, 1):>7.2f} {self.calls_per_second:>8.1f}"
            f" {_shown(self.full, 8, '.1f')}"
        )

    @property
    def efficiency(self) -> float | None:
        """The ideal wall time over the measured one."""
        return None if self.ideal is None else self.ideal / self.wall

    @property
    def calls_per_second(self) -> float:
        """Calls over wall time."""
        return self.calls / self.wall

    @property
    def ceiling(self) -> float | None:
        """Calls over the ideal wall time: what a runner that costs nothing would deliver."""
        return None if self.ideal is None else self.calls / self.ideal


def _shown(value: float | None, width: int, spec: str) -> str:
    """``value`` formatted by ``spec`` in ``width`` columns, ``-`` when there is none."""
    return f"{'-' if value is None else format(value, spec):>{width}}"


HEADER = (
    f"{'list':<10} {'conc':>5} {'wrk':>3} {'units':>5} {'calls':>6} {'wall s':>7} {'ideal s':>7}"
    f" {'eff':>5} {'peak':>5} {'lag50':>6} {'lag99 ms':>7} {'overhead':>9} {'CPU ms/call':>8}"
    f" {'srv ms':>7} {'calls/s':>8} {'full/s':>8}"
)


def ideal_wall(chains: Iterable[int], slots: int, latency: float) -> float:
    """The makespan of the units' call chains (``chains``: calls per unit, each call ``latency``
    seconds, one call of a unit at a time) scheduled longest first on ``slots`` slots."""
    ends = [0.0] * slots
    for calls in sorted(chains, reverse=True):
        heapq.heapreplace(ends, ends[0] + calls * latency)
    return max(ends)


@attrs.define
class _Timed(Progress):
    """A progress line that also keeps when each call was answered and each unit ended."""

    answered: list[float] = attrs.field(factory=list)
    ended: list[float] = attrs.field(factory=list)

    def call_made(self) -> None:
        self.answered.append(self.clock())
        super().call_made()

    def unit_finished(self, success: bool, tokens: int, unreported: int = 0) -> None:
        self.ended.append(self.clock())
        super().unit_finished(success, tokens, unreported)

    def unit_failed(self) -> None:
        self.ended.append(self.clock())
        super().unit_failed()

    def unit_interrupted(self) -> None:
        self.ended.append(self.clock())
        super().unit_interrupted()


def full_rate(
    start: float, answered: Sequence[float], ended: Sequence[float], slots: int
) -> float | None:
    """Calls answered per second from ``start`` until fewer units were left than ``slots``: the
    (N - slots + 1)-th of the N units' end times (``ended``), when the last unit had started and
    the first slot fell empty. None when fewer units than slots ran."""
    if len(ended) < slots:
        return None
    until = sorted(ended)[len(ended) - slots]
    return bisect.bisect_right(sorted(answered), until) / (until - start)


@contextlib.asynccontextmanager
async def loop_lag() -> AsyncIterator[list[float]]:
    """The lateness of a ``TICK`` timer on the running loop, sampled for the ``async with`` block."""
    lags: list[float] = []

    async def tick() -> None:
        while True:
            before = time.perf_counter()
            await asyncio.sleep(TICK)
            lags.append(max(0.0, time.perf_counter() - before - TICK))

    ticking = asyncio.create_task(tick())
    try:
        yield lags
    finally:
        ticking.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await ticking


def bench_plan(
    paper_list: str,
    setting: str,
    seeds: int,
    per_cell: int | None,
    base_urls: Sequence[str],
    concurrency: int,
) -> Plan:
    """One LLM arm of ``setting`` on a paper list against the servers at ``base_urls``, each an
    entry of ``concurrency``."""
    dataset: dict[str, Any] = {"kind": "paper-list", "list": paper_list}
    if per_cell is not None:
        dataset["per_cell"] = per_cell
    return plan_from_data(
        {
            "name": "llm-throughput",
            "seeds": seeds,
            "teacher_profile": "cegml",
            "datasets": [dataset],
            "arms": [{"name": setting, "learner": "llm", "setting": setting}],
            "servers": [{"base_url": url, "concurrency": concurrency} for url in base_urls],
        }
    )


def _chains(run_dir: Path) -> list[int]:
    """Model calls per unit, from the units' closing records."""
    chains = []
    for path in (run_dir / "records").rglob("*.jsonl"):
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            if record["type"] == "run":
                chains.append(int(record["totals"]["calls"]))
    return chains


def _overhead(log: Path, latency: float) -> tuple[int, float]:
    """Calls answered and their mean (logged − sent) − ``latency`` seconds, from the call log."""
    with contextlib.closing(sqlite3.connect(log)) as db:
        calls, logged = db.execute("SELECT COUNT(*), TOTAL(created_at) FROM calls").fetchone()
        (sent,) = db.execute("SELECT TOTAL(sent_at) FROM sent WHERE answered = 1").fetchone()
    return int(calls), (logged - sent) / max(calls, 1) - latency


def unit_errors(run_dir: Path) -> tuple[str, ...]:
    """What each unit that raised said, from the run's error log."""
    log = run_dir / ERRORS
    lines = log.read_text(encoding="utf-8").splitlines() if log.exists() else []
    return tuple(f"{e['unit']}: {e['error']}" for e in map(json.loads, lines))


def _cpu() -> float:
    """CPU seconds of this process and of its reaped children (the runner's worker processes)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


async def measure(
    label: str, plan: Plan, concurrency: int, latency: float, stats: Any, workers: int
) -> Row:
    """Run ``plan`` into a fresh directory and measure it (``stats``: the server's stats reader;
    ``workers``: the runner's LLM worker processes)."""
    with tempfile.TemporaryDirectory(prefix="llm-throughput-") as folder:
        run_dir = Path(folder) / "run"
        server_before = stats()
        quiet = _Timed(0, out=io.StringIO(), clock=time.perf_counter)  # its start is the wall's
        cpu, wall = _cpu(), quiet.started
        async with loop_lag() as lags:
            await run_experiment(plan, run_dir, progress=quiet, llm_workers=workers)
        wall, cpu = time.perf_counter() - wall, _cpu() - cpu
        server = stats()
        calls, overhead = _overhead(run_dir / CALL_LOG, latency)
        chains = _chains(run_dir)
        errors = unit_errors(run_dir)
    p50, p99 = np.percentile(lags, [50, 99]) if lags else (0.0, 0.0)
    return Row(
        label,
        concurrency,
        workers,
        len(chains),
        calls,
        wall,
        ideal_wall(chains, concurrency, latency),
        server.peak,
        float(p50),
        float(p99),
        overhead,
        cpu,
        latency,
        server.cpu - server_before.cpu,
        errors,
        full_rate(quiet.started, quiet.answered, quiet.ended, concurrency),
    )


@attrs.frozen
class Runs:
    """What every measured run of one invocation shares."""

    latency: float
    setting: str
    seeds: int
    per_cell: int | None
    workers: tuple[int, ...]  # the runner's LLM worker processes, one row per count

    def measured(
        self,
        label: str,
        name: str,
        concurrency: int,
        workers: int,
        base_urls: Sequence[str],
        stats: Any,
    ) -> Row:
        """The row of one run of list ``name`` in ``workers`` processes against ``base_urls``
        (``stats``: the reader of the server whose peak is shown)."""
        plan = bench_plan(
            LISTS[name], self.setting, self.seeds, self.per_cell, base_urls, concurrency
        )
        return asyncio.run(measure(label, plan, concurrency, self.latency, stats, workers))


def run_rows(lists: Sequence[str], concurrencies: Sequence[int], runs: Runs) -> Iterable[Row]:
    """One measured row per list, concurrency and worker count, each against a fresh server."""
    for name in lists:
        for concurrency in concurrencies:
            for workers in runs.workers:
                with serving(runs.latency) as server:
                    urls = (server.base_url,)
                    yield runs.measured(name, name, concurrency, workers, urls, server.stats)


def failover_rows(
    lists: Sequence[str], concurrencies: Sequence[int], runs: Runs, kill_after: float
) -> Iterable[tuple[Row, Row]]:
    """Per list and concurrency: the row :func:`run_rows` measures against one server alone, and
    the run against two such servers of which one is killed ``kill_after`` seconds in."""
    for name in lists:
        for concurrency in concurrencies:
            for workers in runs.workers:
                (alone,) = run_rows((name,), (concurrency,), attrs.evolve(runs, workers=(workers,)))
                with serving(runs.latency) as doomed, serving(runs.latency) as survivor:
                    urls = (doomed.base_url, survivor.base_url)
                    killer = threading.Timer(kill_after, doomed.kill)
                    killer.start()
                    try:
                        label = f"{name}+kill"
                        killed = runs.measured(
                            label, name, concurrency, workers, urls, survivor.stats
                        )
                    finally:
                        killer.cancel()
                # two servers' slots until the kill, one's after: no one schedule is ideal
                yield alone, attrs.evolve(killed, ideal=None, full=None)


def speedups(rows: Sequence[Row]) -> list[str]:
    """Per list and concurrency measured with several worker counts: each count's calls/s as a
    multiple of the first count's, its :attr:`Row.ceiling` as a multiple too, and its
    :attr:`Row.full` as a multiple of the first's when both have one."""
    lines: list[str] = []
    for (label, concurrency), group in itertools.groupby(rows, lambda r: (r.label, r.concurrency)):
        first, *others = group
        lines.extend(
            f"{label} at {concurrency}: {r.workers} worker(s) {r.calls_per_second:.1f} calls/s"
            f" = {r.calls_per_second / first.calls_per_second:.2f}x {first.workers}"
            f" ({first.calls_per_second:.1f} calls/s)"
            + (
                ""
                if r.ceiling is None
                else f"; at most {r.ceiling:.1f} calls/s = {r.ceiling / first.calls_per_second:.2f}x"
            )
            + (
                ""
                if r.full is None or first.full is None
                else f"; every slot held: {r.full:.1f} calls/s = {r.full / first.full:.2f}x"
                f" ({first.full:.1f} calls/s)"
            )
            for r in others
        )
    return lines


def _say_errors(row: Row) -> None:
    """Under a row whose run had units that raised: how many, and the first one's error."""
    if row.errors:
        print(
            f"  {len(row.errors)} unit(s) raised and are not in the row; the first: {row.errors[0]}"
        )


@click.command()
@click.option("--latency", "-L", default=2.0, show_default=True, help="seconds per model call")
@click.option(
    "--list",
    "lists",
    type=click.Choice(sorted(LISTS)),
    multiple=True,
    default=("simple", "extended"),
    show_default=True,
    help="paper list(s) to run",
)
@click.option(
    "--concurrency",
    "concurrencies",
    type=click.IntRange(1, 4096),
    multiple=True,
    default=(64, 256),
    show_default=True,
    help="the server entry's concurrency (repeat for several rows)",
)
@click.option("--setting", default="agentic", show_default=True, help="the LLM arm's setting")
@click.option("--seeds", type=click.IntRange(1), default=3, show_default=True)
@click.option(
    "--per-cell", type=click.IntRange(1), default=None, help="targets per list cell (default: all)"
)
@click.option(
    "--workers",
    type=click.IntRange(1),
    multiple=True,
    default=(1,),
    show_default=True,
    help="the runner's LLM worker processes (lag is the orchestrating loop's; repeat for a row each)",
)
@click.option(
    "--kill-one-after",
    type=click.FloatRange(0),
    default=None,
    help="failover trial: two servers, one killed this many seconds in (see the module)",
)
def main(
    latency: float,
    lists: tuple[str, ...],
    concurrencies: tuple[int, ...],
    setting: str,
    seeds: int,
    per_cell: int | None,
    workers: tuple[int, ...],
    kill_one_after: float | None,
) -> None:
    """Print calls, wall, ideal, efficiency, peak in flight, loop lag, overhead and CPU per call."""
    runs = Runs(latency, setting, seeds, per_cell, workers)
    print(
        f"L = {latency:g} s, {setting}, {seeds} seed(s), per cell {per_cell or 'all'},"
        f" {'/'.join(map(str, workers))} LLM worker process(es)"
    )
    if kill_one_after is None:
        print(HEADER)
        rows = []
        for row in run_rows(lists, concurrencies, runs):
            print(row.line(), flush=True)
            _say_errors(row)
            rows.append(row)
        for line in speedups(rows):
            print(line)
        return
    print(f"failover: two servers, one killed {kill_one_after:g} s in, against the survivor alone")
    print(f"{HEADER} {'wall ratio':>10}")
    trials = failover_rows(lists, concurrencies, runs, kill_one_after)
    for alone, killed in trials:
        print(alone.line(), flush=True)
        _say_errors(alone)
        print(f"{killed.line()} {killed.wall / alone.wall:>10.2f}", flush=True)
        _say_errors(killed)


if __name__ == "__main__":
    main()
