"""``python -m cli bench <name>``: the performance benchmarks of ``experiments``.

Each benchmark is a ``click`` command in its own ``experiments/bench/*.py`` module, runnable on its
own with ``python -m experiments.bench.<name>``; this group only gives them one front door, and
imports a benchmark (and its reference peers, dev-only packages) only when it runs.
"""

from __future__ import annotations

import click

from cli.lazy import CONTEXT, LazyCommand, LazyGroup

BENCHMARKS = {
    "automata": LazyCommand(
        "experiments.bench.automata:main", "Automata operations against pyformlang and peers."
    ),
    "oracle": LazyCommand(
        "experiments.bench.oracle:main",
        "The exact teacher's step: equivalence and counterexamples.",
    ),
    "learners": LazyCommand(
        "experiments.bench.learners:main",
        "Every learner in the paper's loop on the paper's lists and KB13.",
    ),
    "examples": LazyCommand(
        "experiments.bench.examples:main",
        "Learning from labeled strings (StructuredRegex, practical targets) against grex.",
    ),
    "llm": LazyCommand(
        "experiments.bench.llm:main",
        "Client overhead against a loopback server; replay throughput.",
    ),
    "llm-throughput": LazyCommand(
        "experiments.bench.llm_throughput:main",
        "The runner at a GPU server's concurrency against a loopback latency server.",
    ),
    "safe-forms": LazyCommand(
        "experiments.bench.safe_forms:main", "Dataset targets that print linear, before and after."
    ),
    "redos": LazyCommand(
        "experiments.bench.redos:main", "ReDoS verdicts against timed ground truth on re."
    ),
    "startup": LazyCommand(
        "experiments.bench.startup:main", "First run on an empty kernel cache, and warm start-up."
    ),
}


@click.group(cls=LazyGroup, lazy=BENCHMARKS, context_settings=CONTEXT)
def bench() -> None:
    """Performance benchmarks against reference implementations."""
