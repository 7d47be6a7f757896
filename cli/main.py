"""The top-level ``click`` group; each command lives in its own module and is registered here."""

from __future__ import annotations

import click

from cli.bench import bench
from cli.regex import regex
from experiments.corpus_stats import main as corpus_stats


@click.group()
def main() -> None:
    """Counterexample-guided regex learning: tools, benchmarks and experiments."""


main.add_command(regex)
main.add_command(bench)
main.add_command(corpus_stats, name="corpus-stats")
