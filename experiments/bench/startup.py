"""What a user feels first: the first run after installing, and the start-up of every run after.

Each repeat makes an empty numba cache directory (``NUMBA_CACHE_DIR``, a fresh install as far as
compiled kernels go) and runs, in fresh interpreters:

1. ``cli learn`` on the ZIP code target (python dialect, clustered): the first run, then again on
   the cache the first left (warm);
2. ``cli regex`` comparing two Simple regexes, warm;
3. the imports alone of the two commands' modules.

It reports medians over the repeats of wall and CPU seconds (this process's children), side by side,
the learning time ``cli learn`` itself reports (``--json``), and the targets: the first learn within
3× the warm one's wall time; ``cli regex`` within 0.6 s of CPU; ``cli learn``'s wall time beyond the
learning time it reports within 0.6 s. ``--experiment`` also runs README command 1 (``cli experiment``, the
quick plan) twice into fresh run directories, first on an empty cache then warm (a few minutes),
against its target of 1.5×. Ratios are measured within one repeat, so a loaded machine slows both
sides alike. Run: ``python -m cli bench startup [--repeat 3] [--experiment]``.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import attrs
import click

from automata.jit.compile_time import MESSAGE

_ROOT = Path(__file__).resolve().parents[2]
LEARN = [
    "learn",
    "--target",
    "[0-9]{5}(-[0-9]{4})?",
    "--dialect",
    "python",
    "--clustered",
    "--json",
]
REGEX = ["regex", "(a b* + c)*", "--dialect", "simple", "--against", "(a + b + c)*"]
IMPORTS = "import cli.main, cli.{0}"
FIRST_RUN_TARGET = 3.0
EXPERIMENT_TARGET = 1.5
CPU_TARGET = 0.6


@attrs.frozen
class Timing:
    """One child process: wall and CPU seconds, whether it compiled, and what it printed."""

    wall: float
    cpu: float
    compiled: bool
    stdout: str


def timed(argv: list[str], cache: Path, cwd: Path = _ROOT) -> Timing:
    """Run ``argv`` in a fresh interpreter with ``cache`` as numba's cache directory."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "PYTHONPATH": str(_ROOT)}
    env.pop("REGEX_CEGIS_KERNELS", None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, *argv], env=env, cwd=cwd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode not in (0, 1):
        raise click.ClickException(f"{' '.join(argv)} failed:\n{done.stderr}")
    return Timing(wall, cpu, MESSAGE in done.stderr, done.stdout)


def one_repeat(experiment: bool) -> dict[str, Timing]:
    """Every measurement of one repeat, on its own empty cache."""
    with tempfile.TemporaryDirectory() as folder:
        cache = Path(folder) / "numba"
        cache.mkdir()
        result = {
            "learn, first run": timed(["-m", "cli", *LEARN], cache),
            "learn, warm": timed(["-m", "cli", *LEARN], cache),
            "regex, warm": timed(["-m", "cli", *REGEX], cache),
            "imports of cli learn": timed(["-c", IMPORTS.format("learn")], cache),
            "imports of cli regex": timed(["-c", IMPORTS.format("regex")], cache),
        }
        if experiment:
            for label in ("experiment, first run", "experiment, warm"):
                out = Path(folder) / label.replace(", ", "-").replace(" ", "-")
                result[label] = timed(["-m", "cli", "experiment", "--out", str(out)], cache)
    return result


def _learning_seconds(timing: Timing) -> float:
    return float(json.loads(timing.stdout.strip().splitlines()[-1])["seconds"])


def summarize(repeats: list[dict[str, Timing]]) -> dict[str, Any]:
    """Medians over repeats of every measurement, the per-repeat ratios, and the targets."""
    rows = {
        label: {
            "wall": statistics.median(r[label].wall for r in repeats),
            "cpu": statistics.median(r[label].cpu for r in repeats),
            "compiled": sum(r[label].compiled for r in repeats),
        }
        for label in repeats[0]
    }
    first_ratio = statistics.median(
        r["learn, first run"].wall / r["learn, warm"].wall for r in repeats
    )
    overhead = statistics.median(
        r["learn, warm"].wall - _learning_seconds(r["learn, warm"]) for r in repeats
    )
    learned = statistics.median(_learning_seconds(r["learn, first run"]) for r in repeats)
    summary: dict[str, Any] = {
        "rows": rows,
        "learn first/warm wall": first_ratio,
        "learn wall beyond learning (warm)": overhead,
        "learn time reported (first run)": learned,
        "regex CPU (warm)": rows["regex, warm"]["cpu"],
    }
    if "experiment, first run" in rows:
        summary["experiment first/warm wall"] = statistics.median(
            r["experiment, first run"].wall / r["experiment, warm"].wall for r in repeats
        )
    return summary


def render(summary: dict[str, Any], repeats: int) -> str:
    """The table and the targets as text."""
    lines = [f"{'':30}  {'wall':>8}  {'CPU':>8}  compiled (of {repeats})"]
    for label, row in summary["rows"].items():
        lines.append(f"{label:30}  {row['wall']:7.2f}s  {row['cpu']:7.2f}s  {row['compiled']}")
    lines.append("")
    lines.append(
        f"medians over {repeats} repeats, each on an empty numba cache; ratios within a repeat"
    )
    lines.append(
        f"learn reports {summary['learn time reported (first run)']:.2f} s of learning on its first run"
    )
    lines.append("targets:")
    checks = [
        ("first cli learn / warm (wall)", summary["learn first/warm wall"], FIRST_RUN_TARGET, "×"),
        ("cli regex CPU, warm", summary["regex CPU (warm)"], CPU_TARGET, " s"),
        (
            "cli learn wall time beyond its learning, warm",
            summary["learn wall beyond learning (warm)"],
            CPU_TARGET,
            " s",
        ),
    ]
    if "experiment first/warm wall" in summary:
        checks.append(
            (
                "first cli experiment / warm (wall)",
                summary["experiment first/warm wall"],
                EXPERIMENT_TARGET,
                "×",
            )
        )
    for name, value, target, unit in checks:
        verdict = "met" if value <= target else "MISSED"
        lines.append(f"  {name}: ≤ {target:g}{unit}: {verdict} ({value:.2f}{unit})")
    return "\n".join(lines)


@click.command()
@click.option(
    "--repeat",
    type=click.IntRange(min=1),
    default=3,
    show_default=True,
    help="repeats, each on a fresh cache",
)
@click.option(
    "--experiment",
    is_flag=True,
    help="also time README command 1 (the quick experiment), first and warm",
)
@click.option(
    "--json",
    "json_path",
    type=click.Path(path_type=Path),
    default=None,
    help="also write the results here",
)
def main(repeat: int, experiment: bool, json_path: Path | None) -> None:
    """First-run and warm timings of the commands a new user runs first."""
    repeats = []
    for i in range(repeat):
        repeats.append(one_repeat(experiment))
        click.echo(f"  repeat {i + 1}/{repeat} done", err=True)
    summary = summarize(repeats)
    click.echo(render(summary, repeat))
    if json_path is not None:
        raw = [{label: attrs.asdict(t) for label, t in r.items()} for r in repeats]
        json_path.write_text(json.dumps({"summary": summary, "repeats": raw}, indent=1))


if __name__ == "__main__":
    main()
