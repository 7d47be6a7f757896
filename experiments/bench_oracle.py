"""Benchmark of the exact teacher's step: deciding equivalence and answering with 250 clustered
counterexamples, the work the learning loop waits for after every hypothesis.

Targets are the seed paper's benchmark lists (``cegml/regex_list.json``): the first 3 regexes of
every (#States, Stardepth) cell, 105 Simple and 60 Extended. Each hypothesis is a deterministic
one-edit mutation of its target (the first literal character becomes the next character of the
universe), the typical near miss of a late learning round. The target is compiled once, outside
the clock, as a teacher does; a step is timed as the best of a few repetitions, and the table
reports p50 and p95 over the targets against the budget (20 ms Simple, 100 ms Extended), how many
mutants differ from their target, and the mean number of counterexamples those get. Run:

    python -m experiments.bench_oracle [--data ../shared/data] [--mode paths] [--repeat 3]
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import cast

import attrs
import click
import numpy as np

from oracle.exact import ExactTeacher, TeacherConfig
from oracle.protocol import SAMPLING_MODES, SamplingMode
from regexlang.ast import UNARY_TYPES, Chars, Concat, Intersection, Optional, Regex, Union, children
from regexlang.charset import CharSet
from regexlang.dialects import Dialect, parse
from regexlang.dialects import universe as dialect_universe

#: p95 budget of one teacher step, in milliseconds.
BUDGET_MS: dict[Dialect, float] = {"simple": 20.0, "extended": 100.0}
_LISTS: dict[Dialect, str] = {"simple": "simplyrx", "extended": "extrx"}
_DEFAULT_DATA = Path(os.environ.get("REGEX_CEGIS_DATA", Path(__file__).resolve().parents[2] / "shared" / "data"))


def targets(data: Path, dialect: Dialect, per_cell: int = 3) -> list[str]:
    """The first ``per_cell`` regexes of every (#States, Stardepth) cell of the benchmark list."""
    groups = json.loads((data / "cegml" / "regex_list.json").read_text())[_LISTS[dialect]]
    return [text for group in groups for cell in group["regex_list"] for text in cell["regex_list"][:per_cell]]


def mutate(regex: Regex, universe: CharSet) -> Regex:
    """One edit: the first literal character (in reading order) becomes the next character of the
    universe; a regex without literals becomes optional."""
    edited, done = _replace_first_literal(regex, universe)
    return edited if done else Optional(regex)


def _replace_first_literal(node: Regex, universe: CharSet) -> tuple[Regex, bool]:
    if isinstance(node, Chars) and node.chars.is_single():
        chars = list(universe)
        following = chars[(chars.index(node.chars.first()) + 1) % len(chars)]
        return Chars(CharSet.of(following)), True
    if isinstance(node, (Concat, Union, Intersection)):
        parts = list(children(node))
        for i, part in enumerate(parts):
            parts[i], done = _replace_first_literal(part, universe)
            if done:
                return type(node)(tuple(parts)), True
    elif isinstance(node, UNARY_TYPES):
        inner, done = _replace_first_literal(node.inner, universe)
        if done:
            return attrs.evolve(node, inner=inner), True
    return node, False


def step_times(
    dialect: Dialect, texts: list[str], config: TeacherConfig, repeat: int
) -> tuple[list[float], list[int | None]]:
    """Per target: the best-of-``repeat`` step time in seconds, and the counterexamples returned
    (None when the mutation happens to be equivalent to the target)."""
    sigma = dialect_universe(dialect)
    seconds: list[float] = []
    answered: list[int | None] = []
    for text in texts:
        teacher = ExactTeacher.from_regex(text, dialect, config=config)
        hypothesis = mutate(parse(text, dialect), sigma)
        best = float("inf")
        for _ in range(repeat):
            started = time.perf_counter()
            verdict = teacher.check(hypothesis)
            best = min(best, time.perf_counter() - started)
        seconds.append(best)
        answered.append(None if verdict.equivalent else len(verdict.counterexamples))
    return seconds, answered


@click.command()
@click.option("--data", type=click.Path(path_type=Path), default=_DEFAULT_DATA, show_default=True)
@click.option("--mode", type=click.Choice(SAMPLING_MODES), default="paths", show_default=True)
@click.option("--repeat", type=int, default=3, show_default=True)
def main(data: Path, mode: str, repeat: int) -> None:
    """Print p50/p95 of the teacher step per dialect against the budget."""
    config = TeacherConfig(mode=cast(SamplingMode, mode), clustered=True, batch=250)
    ExactTeacher.from_regex("a b*", "simple", config=config).check("a b")  # compile the numba kernels
    print(f"teacher step: equivalence + {config.batch} counterexamples ({config.mode_name}), best of {repeat}")
    print(
        f"{'dialect':<9} {'targets':>7} {'differ':>6} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} {'budget':>7} "
        f"{'p95/budget':>10} {'mean CEs':>8}"
    )
    dialects: tuple[Dialect, ...] = ("simple", "extended")
    for dialect in dialects:
        texts = targets(data, dialect)
        seconds, answered = step_times(dialect, texts, config, repeat)
        ms = 1000 * np.asarray(seconds)
        p50, p95 = np.percentile(ms, [50, 95])
        budget = BUDGET_MS[dialect]
        differ = [n for n in answered if n is not None]
        print(
            f"{dialect:<9} {len(texts):>7} {len(differ):>6} {p50:>8.2f} {p95:>8.2f} {ms.max():>8.2f} {budget:>7.0f} "
            f"{p95 / budget:>10.2f} {np.mean(differ):>8.1f}"
        )


if __name__ == "__main__":
    main()
