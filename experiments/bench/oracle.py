"""Benchmark of the exact teacher's step: deciding equivalence and answering with 250 clustered
counterexamples, the work the learning loop waits for after every hypothesis.

Targets are the seed paper's benchmark lists (``cegml/regex_list.json``): the first 3 regexes of
every (#States, Stardepth) cell, 105 Simple and 60 Extended. Each hypothesis is the seeded one-edit
mutation of :mod:`experiments.bench.automata` (the same cases, so the two benchmarks agree), the
typical near miss of a late learning round. The target is compiled once, outside
the clock, as a teacher does; a step is timed as the best of a few repetitions, and the table
reports p50 and p95 over the targets against the budget (20 ms Simple, 100 ms Extended), how many
mutants differ from their target, and the mean number of counterexamples those get, for every
sampling mode (or the one named) under the chosen teacher profile. Run:

    python -m experiments.bench.oracle [--data ../shared/data] [--mode all] [--profile improved]
                                       [--repeat 3] [--clock wall|cpu]
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import cast

import attrs
import click
import numpy as np

from experiments.bench.automata import Case, load_cases
from experiments.data_dir import DEFAULT_DATA_DIR
from oracle.config import PROFILES, Profile
from oracle.exact import ExactTeacher, TeacherConfig
from oracle.protocol import SAMPLING_MODES, SamplingMode
from regexlang.dialects import Dialect

#: p95 budget of one teacher step, in milliseconds.
BUDGET_MS: dict[Dialect, float] = {"simple": 20.0, "extended": 100.0}


#: Clocks a step can be timed with: wall-clock, or this process's CPU time (steadier on a shared
#: machine, where waiting for a core inflates the wall-clock time of a single-threaded step).
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.process_time}


def step_times(
    cases: list[Case],
    config: TeacherConfig,
    repeat: int,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[list[float], list[int | None]]:
    """Per case: the best-of-``repeat`` step time in seconds, and the counterexamples returned
    (None when the mutant happens to be equivalent to the target)."""
    seconds: list[float] = []
    answered: list[int | None] = []
    for case in cases:
        teacher = ExactTeacher.from_regex(case.text, case.dialect, config=config)
        hypothesis = case.mutant
        best = float("inf")
        for _ in range(repeat):
            started = clock()
            verdict = teacher.check(hypothesis)
            best = min(best, clock() - started)
        seconds.append(best)
        answered.append(None if verdict.equivalent else len(verdict.counterexamples))
    return seconds, answered


@click.command()
@click.option(
    "--data", type=click.Path(path_type=Path), default=DEFAULT_DATA_DIR, show_default=True
)
@click.option(
    "--mode", type=click.Choice(("all", *SAMPLING_MODES)), default="all", show_default=True
)
@click.option("--profile", type=click.Choice(PROFILES), default="improved", show_default=True)
@click.option("--repeat", type=int, default=3, show_default=True)
@click.option("--clock", type=click.Choice(tuple(CLOCKS)), default="wall", show_default=True)
def main(data: Path, mode: str, profile: str, repeat: int, clock: str) -> None:
    """Print p50/p95 of the teacher step per mode and dialect against the budget."""
    cases = load_cases(data)
    modes = SAMPLING_MODES if mode == "all" else (cast(SamplingMode, mode),)
    warm = TeacherConfig(clustered=True, profile=cast(Profile, profile))
    ExactTeacher.from_regex("a b*", "simple", config=warm).check("a b")  # compile the numba kernels
    print(
        f"teacher step: equivalence + {warm.batch} counterexamples, {profile} profile, best of {repeat}, "
        f"{clock} clock"
    )
    print(
        f"{'mode':<28} {'dialect':<9} {'targets':>7} {'differ':>6} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} "
        f"{'budget':>7} {'p95/budget':>10} {'mean CEs':>8}"
    )
    dialects: tuple[Dialect, ...] = ("simple", "extended")
    for sampling in modes:
        config = attrs.evolve(warm, mode=sampling)
        for dialect in dialects:
            chosen = [case for case in cases if case.dialect == dialect]
            seconds, answered = step_times(chosen, config, repeat, CLOCKS[clock])
            ms = 1000 * np.asarray(seconds)
            p50, p95 = np.percentile(ms, [50, 95])
            budget = BUDGET_MS[dialect]
            differ = [n for n in answered if n is not None]
            print(
                f"{config.mode_name:<28} {dialect:<9} {len(chosen):>7} {len(differ):>6} {p50:>8.2f} {p95:>8.2f} "
                f"{ms.max():>8.2f} {budget:>7.0f} {p95 / budget:>10.2f} {np.mean(differ):>8.1f}"
            )


if __name__ == "__main__":
    main()
