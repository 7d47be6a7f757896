"""``python -m cli bench <name>``: the performance benchmarks of ``experiments``.

Each benchmark is a ``click`` command in its own ``experiments/bench_*.py`` module, runnable on its
own with ``python -m experiments.bench_<name>``; this group only gives them one front door.
"""

from __future__ import annotations

import click

from experiments import bench_automata, bench_llm, bench_oracle


@click.group()
def bench() -> None:
    """Performance benchmarks against reference implementations."""


bench.add_command(bench_automata.main, name="automata")
bench.add_command(bench_oracle.main, name="oracle")
bench.add_command(bench_llm.main, name="llm")
