"""Benchmark of the learners in the seed paper's loop: ``python -m cli bench learners``.

Each learner runs in :func:`cegis.loop.run` against the exact teacher on the paper's lists
(``cegml/regex_list.json``: all 175 Simple and 60 Extended targets by default), on the 821 KB13
targets in the extended dialect (``cegml/KB13_extrx.txt``; the *development* set: several of the
symbolic learner's hypothesis families were added for named KB13 targets, so its rows read
``kb13-dev``), on 40 NL-RX regexes converted to the extended dialect
(:mod:`experiments.datasets.nlrx_extended`; held out until the anchored-rules family was added for
three of them, so its rows read ``nl-rx-dev``), and on held-out targets no one tuned to: 40 other
NL-RX regexes (``nl-rx-new``, another draw) and 40 StructuredRegex regexes over printable ASCII
(:mod:`experiments.datasets.structured_regex`), and on 20 repeated words beside a literal
(``(w)+|v``, ``((w){k})+|v``: :mod:`experiments.datasets.repeats`, drawn by its own seeded
generator), for several seeds, in these protocols. ``--datasets heldout`` runs four more rows of
208 targets apart from all of these (:mod:`experiments.bench.heldout`), not in the default run:

* ``paper``: at most 8 initial random examples, 12 epochs of at most 250 clustered counterexamples
  drawn from loop-free paths (the seed paper's Appendix D);
* ``shortest``: one shortest clustered counterexample per epoch, at most 100 epochs (how few
  labeled examples a learner needs);
* ``plain``: as ``paper`` with plain counterexamples (single strings), not in the default run.

The table is grouped by StarDepth: success rate; at success the median labeled examples (a
clustered line counts as one) and epochs; membership queries; median and p95 wall time per run, p95
CPU time per run (what a loaded machine does not inflate) and per epoch of a run (``cpu/ep``: the
shortest protocol's runs last up to 100 epochs); and the median ratio of the learned regex's printed
length to the target's canonical print. Runs are spread over a process pool whose workers each run
:func:`experiments.warmup.warm` first, so a run's time is its own, steady state: loading and
compiling kernels is a process's start-up, which ``bench startup`` measures. Run:

    python -m experiments.bench.learners [--learners symbolic,rpni]
        [--datasets simple,extended,kb13,nl-rx,nl-rx-new,structured-regex,repeats,heldout]
        [--seeds 3] [--protocols paper,shortest,plain] [--quick] [--workers 2]
"""

from __future__ import annotations

import asyncio
import json
import statistics
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Literal, cast

import attrs
import click

from cegis import registry
from cegis.config import Budgets, LoopConfig
from cegis.gc_pause import settle
from cegis.loop import run
from experiments.bench import heldout
from experiments.data_dir import DEFAULT_DATA_DIR
from experiments.datasets import Task, load_kb13_extrx, load_paper_list
from experiments.datasets.nlrx_extended import load_nl_rx_extended
from experiments.datasets.repeats import repeated_units
from experiments.datasets.structured_regex import load_structured_regex
from experiments.progress import reporting
from experiments.units import loop_task
from experiments.warmup import warm
from oracle.exact import ExactTeacher, TeacherConfig
from regexlang import unparse
from regexlang.metrics import text_length

Protocol = Literal["paper", "shortest", "plain"]
PROTOCOLS: dict[Protocol, LoopConfig] = {
    "paper": LoopConfig(
        TeacherConfig(batch=250, mode="paths", clustered=True), Budgets(epochs=12), evaluate=False
    ),
    "shortest": LoopConfig(
        TeacherConfig(batch=1, mode="shortest", clustered=True), Budgets(epochs=100), evaluate=False
    ),
    "plain": LoopConfig(
        TeacherConfig(batch=250, mode="paths", clustered=False), Budgets(epochs=12), evaluate=False
    ),
}
DEFAULT_DATASETS = (
    "simple",
    "extended",
    "kb13",
    "nl-rx",
    "nl-rx-new",
    "structured-regex",
    "repeats",
)
DATASETS = (*DEFAULT_DATASETS, *heldout.ROWS)
#: Names that stand for several rows.
ALIASES = {"heldout": heldout.ROWS}
#: How a dataset is named in the table: KB13 was the development set, and the first 40 NL-RX
#: targets became one when the anchored-rules family was added for three of them; ``nl-rx-new``
#: is 40 NL-RX targets drawn apart from those, that nothing was tuned on (and a long row name is
#: shortened to the column).
LABELS = {"kb13": "kb13-dev", "nl-rx": "nl-rx-dev", "heldout-structured-regex": "heldout-sregex"}
#: Held-out targets per held-out dataset.
HELD_OUT = 40


@attrs.frozen
class Job:
    """One run: a learner on a task under a protocol and seed."""

    learner: str
    dataset: str
    task: Task
    protocol: Protocol
    seed: int


@attrs.frozen
class Result:
    """What one run measured."""

    job: Job
    success: bool
    outcome: str
    examples: int
    epochs: int
    membership_queries: int
    seconds: float
    length_ratio: float | None
    hypothesis: str | None = None  # the last proposal's text (to compare what two versions learn)
    learner_seconds: float = (
        0.0  # of ``seconds``, the learner's (the rest is the teacher's and the loop's)
    )
    cpu_seconds: float = (
        0.0  # the process's CPU time for the run: comparable across runs on a loaded machine
    )


def load(dataset: str, data: Path) -> tuple[Task, ...]:
    """The tasks of ``dataset`` (``simple`` and ``extended``: every regex of each cell)."""
    if dataset == "kb13":
        return load_kb13_extrx(data / "cegml" / "KB13_extrx.txt")
    if dataset == "nl-rx":
        return load_nl_rx_extended(data / "nl-rx-turk", size=HELD_OUT)
    if dataset == "nl-rx-new":  # another draw, less the targets of the first
        seen = {task.target for task in load("nl-rx", data)}
        return tuple(
            t
            for t in load_nl_rx_extended(data / "nl-rx-turk", size=HELD_OUT, seed=1)
            if t.target not in seen
        )
    if dataset == "repeats":
        return repeated_units()
    if dataset in heldout.ROWS:
        return heldout.load_held_out(dataset, data)
    if dataset == "structured-regex":
        return tuple(
            p.task for p in load_structured_regex(data / "structured-regex", "teste")[:HELD_OUT]
        )
    return load_paper_list(
        "simplyrx" if dataset == "simple" else "extrx",
        data / "cegml" / "regex_list.json",
        per_cell=None,
    )


def run_job(job: Job) -> Result:
    """Run ``job`` to its end in this process."""
    config = attrs.evolve(PROTOCOLS[job.protocol], seed=job.seed)
    task = job.task
    teacher = ExactTeacher.from_regex(
        task.target, task.dialect, universe=task.alphabet, config=config.teacher_config
    )
    learner = registry.build(job.learner)
    settle()  # as the run does first, but before the clock starts: what earlier runs left is not timed
    started, cpu = time.perf_counter(), time.process_time()
    state = asyncio.run(run(loop_task(task), learner, teacher, config))
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    success = state.outcome == "equivalent"
    hypothesis = state.hypothesis
    canonical = unparse(
        task.regex(), task.dialect, task.alphabet
    )  # not the dataset's raw, over-parenthesized text
    ratio = (
        text_length(hypothesis) / max(1, text_length(canonical))
        if success and hypothesis is not None
        else None
    )
    return Result(
        job,
        success,
        str(state.outcome),
        len(state.examples),
        state.epoch,
        state.cost.learner.membership_queries,
        seconds,
        ratio,
        hypothesis,
        state.cost.learner.seconds,
        cpu,
    )


def result_json(result: Result) -> dict[str, object]:
    """One run as a JSON record: the job (target, dataset, protocol, seed) and what it measured."""
    job = result.job
    return {
        "learner": job.learner,
        "dataset": job.dataset,
        "target": job.task.target,
        "protocol": job.protocol,
        "seed": job.seed,
        "star_depth": job.task.metrics.star_depth,
        **attrs.asdict(result, filter=lambda a, _: a.name != "job"),
    }


def jobs(
    learners: Sequence[str],
    datasets: Sequence[str],
    seeds: int,
    protocols: Sequence[Protocol],
    quick: bool,
    data: Path,
) -> list[Job]:
    """Every run of the benchmark (with ``quick``: every fifth task of each dataset)."""
    out = []
    for dataset in datasets:
        tasks = load(dataset, data)
        for task in tasks[:: 5 if quick else 1]:
            for learner in learners:
                for protocol in protocols:
                    for seed in range(seeds):
                        out.append(Job(learner, dataset, task, protocol, seed))
    return out


def _median(values: Iterable[float]) -> float | None:
    items = list(values)
    return statistics.median(items) if items else None


def _p95(values: Iterable[float]) -> float | None:
    items = sorted(values)
    return items[min(len(items) - 1, int(0.95 * len(items)))] if items else None


def _fmt(value: float | None, digits: int = 1) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def table(results: Sequence[Result]) -> str:
    """The report: one row per learner, dataset, protocol and StarDepth, plus an 'all' row."""
    groups: dict[tuple[str, str, str, str], list[Result]] = defaultdict(list)
    for r in results:
        for depth in (str(r.job.task.metrics.star_depth), "all"):
            groups[(r.job.learner, r.job.dataset, r.job.protocol, depth)].append(r)
    head = (
        f"{'learner':<9} {'dataset':<16} {'protocol':<8} {'depth':>5} {'runs':>5} "
        f"{'success':>8} {'examples':>8} {'epochs':>6} "
        f"{'MQ':>7} {'t p50':>6} {'t p95':>6} {'cpu p95':>7} {'cpu/ep':>6} {'len x':>5}"
    )
    lines = [head, "-" * len(head)]
    for key in sorted(groups, key=lambda k: (k[0], DATASETS.index(k[1]), k[2], k[3])):
        rows = groups[key]
        won = [r for r in rows if r.success]
        lines.append(
            f"{key[0]:<9} {LABELS.get(key[1], key[1]):<16} {key[2]:<8} {key[3]:>5} {len(rows):>5} "
            f"{100 * len(won) / len(rows):>7.1f}% {_fmt(_median(r.examples for r in won)):>8} "
            f"{_fmt(_median(r.epochs for r in won)):>6} {_fmt(_median(r.membership_queries for r in rows), 0):>7} "
            f"{_fmt(_median(r.seconds for r in rows), 2):>6} {_fmt(_p95(r.seconds for r in rows), 2):>6} "
            f"{_fmt(_p95(r.cpu_seconds for r in rows), 2):>7} "
            f"{_fmt(_p95(r.cpu_seconds / max(1, r.epochs) for r in rows), 2):>6} "
            f"{_fmt(_median(r.length_ratio for r in won if r.length_ratio is not None), 2):>5}"
        )
    return "\n".join(lines)


def failures(results: Sequence[Result], limit: int = 20) -> str:
    """The failed runs, a few per learner, to see what is left."""
    failed = [r for r in results if not r.success]
    lines = [f"{len(failed)} failed runs" + (f" (first {limit})" if len(failed) > limit else "")]
    for r in failed[:limit]:
        j = r.job
        lines.append(
            f"  {j.learner} {j.dataset} {j.protocol} seed {j.seed} {r.outcome:<10} {j.task.target}"
        )
    return "\n".join(lines)


def slowest(results: Sequence[Result], limit: int = 10) -> str:
    """The slowest runs: where the time of the benchmark goes."""
    lines = [f"slowest {min(limit, len(results))} runs"]
    for r in sorted(results, key=lambda r: -r.seconds)[:limit]:
        j = r.job
        lines.append(
            f"  {r.seconds:7.1f} s {j.learner} {j.dataset} {j.protocol} seed {j.seed} {r.outcome:<10} {j.task.target}"
        )
    return "\n".join(lines)


@click.command()
@click.option(
    "--learners",
    default=None,
    help="comma-separated learner names (default: the best passive learner)",
)
@click.option(
    "--datasets",
    default=",".join(DEFAULT_DATASETS),
    show_default=True,
    help="comma-separated rows; heldout: its four rows",
)
@click.option("--seeds", type=int, default=3, show_default=True)
@click.option("--protocols", default="paper,shortest", show_default=True)
@click.option("--quick", is_flag=True, help="every fifth task of each dataset")
@click.option("--workers", type=int, default=2, show_default=True)
@click.option(
    "--data", type=click.Path(path_type=Path), default=DEFAULT_DATA_DIR, show_default=True
)
@click.option(
    "--results",
    type=click.Path(path_type=Path),
    default=None,
    help="append one JSON line per run as it ends (the job, success, the learned regex, wall, learner and CPU seconds)",
)
def main(
    learners: str | None,
    datasets: str,
    seeds: int,
    protocols: str,
    quick: bool,
    workers: int,
    data: Path,
    results: Path | None,
) -> None:
    """Run the learners on the benchmark lists and print the table by StarDepth."""
    names = learners.split(",") if learners else [registry.default_passive()]
    for name in names:
        registry.REGISTRY[name]  # fail early on an unknown name
    chosen = [row for d in datasets.split(",") if d for row in ALIASES.get(d, (d,))]
    unknown = set(chosen) - set(DATASETS) | set(protocols.split(",")) - set(PROTOCOLS)
    if unknown:
        raise click.BadParameter(f"unknown dataset or protocol: {', '.join(sorted(unknown))}")
    todo = jobs(
        names, chosen, seeds, [cast(Protocol, p) for p in protocols.split(",")], quick, data
    )
    started = time.perf_counter()
    done: list[Result] = []
    with ProcessPoolExecutor(
        max_workers=workers, initializer=warm
    ) as pool:  # runs measured warm: start-up is `bench startup`'s
        finished = (
            future.result() for future in as_completed([pool.submit(run_job, job) for job in todo])
        )
        for result in reporting(finished, len(todo), noun="runs", succeeded=lambda r: r.success):
            done.append(result)
            if results is not None:
                with results.open("a", encoding="utf-8") as out:
                    out.write(json.dumps(result_json(done[-1])) + "\n")
    print(table(done))
    print(failures(done))
    print(slowest(done))
    print(f"{len(done)} runs in {time.perf_counter() - started:.0f} s on {workers} workers")


if __name__ == "__main__":
    main()
