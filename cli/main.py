"""The top-level ``click`` group: every command lives in its own module and is imported lazily."""

from __future__ import annotations

import click

from cli.lazy import LazyCommand, LazyGroup

COMMANDS = {
    "regex": LazyCommand("cli.regex:regex", "Parse a regex, show its metrics, compare it with another."),
    "bench": LazyCommand("cli.bench:bench", "Performance benchmarks against reference implementations."),
    "corpus-stats": LazyCommand("cli.corpus_stats:corpus_stats_command", "How much of each shared corpus parses, and why not."),
}


@click.group(cls=LazyGroup, lazy=COMMANDS)
def main() -> None:
    """Counterexample-guided regex learning: tools, benchmarks and experiments."""
