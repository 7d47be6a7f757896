"""The top-level ``click`` group: every command lives in its own module and is imported lazily."""

from __future__ import annotations

import click

from cli.lazy import LazyCommand, LazyGroup

COMMANDS = {
    "experiment": LazyCommand("cli.experiment:experiment", "Run an experiment file (default: the built-in quick one) and report."),
    "report": LazyCommand("cli.report:report", "Rewrite a run directory's report from its records."),
    "learn": LazyCommand("cli.learn:learn", "Learn a regex from a target or from labeled examples."),
    "regex": LazyCommand("cli.regex:regex", "Parse a regex, show its metrics, compare it with another."),
    "bench": LazyCommand("cli.bench:bench", "Performance benchmarks against reference implementations."),
    "warmup": LazyCommand("cli.warmup:warmup", "Compile every numba kernel now (once per install)."),
    "serve-local": LazyCommand("cli.serve_local:serve_local", "Serve a small local model (the local-model extra) on 127.0.0.1."),
    "corpus-stats": LazyCommand("cli.corpus_stats:corpus_stats_command", "How much of each shared corpus parses, and why not."),
}


@click.group(cls=LazyGroup, lazy=COMMANDS)
def main() -> None:
    """Counterexample-guided regex learning: tools, benchmarks and experiments."""
