"""The top-level ``click`` group: every command lives in its own module and is imported lazily.

The group is what both entry points run (``python -m cli`` and the ``regex-cegis`` console
script), so what they must share is done here: ``-h`` beside ``--help`` and ``--version`` on every
command (:mod:`cli.lazy`), the working directory on the import path (``python -m`` puts it there,
a console script does not, so ``--learner my_learners:Lengths`` finds the same module either way),
and standard output that a reader may close early or that may be full (:mod:`cli.pipes`).
"""

from __future__ import annotations

import os
import sys
from typing import Any

import click

from cli.errors import OutputLost
from cli.lazy import CONTEXT, LazyCommand, LazyGroup, version_option
from cli.pipes import output_lost, tolerate_closed_stdout

COMMANDS = {
    "experiment": LazyCommand(
        "cli.experiment:experiment",
        "Run an experiment file (default: the built-in quick one) and report.",
    ),
    "report": LazyCommand(
        "cli.report:report", "Rewrite a run directory's report from its records."
    ),
    "learn": LazyCommand(
        "cli.learn:learn", "Learn a regex from a target or from labeled examples."
    ),
    "regex": LazyCommand(
        "cli.regex:regex", "Parse a regex, show its metrics, compare it with another."
    ),
    "optimize": LazyCommand(
        "cli.optimize:optimize",
        "Optimize a setting's strategy text for a model with GEPA (the gepa extra).",
    ),
    "redos": LazyCommand(
        "cli.redos:redos", "Whether a regex backtracks super-linearly, with a timed attack."
    ),
    "bench": LazyCommand(
        "cli.bench:bench", "Performance benchmarks against reference implementations."
    ),
    "warmup": LazyCommand(
        "cli.warmup:warmup", "Compile every numba kernel now (once per install)."
    ),
    "serve-local": LazyCommand(
        "cli.serve_local:serve_local",
        "Serve a small local model (the local-model extra) on 127.0.0.1.",
    ),
    "corpus-stats": LazyCommand(
        "cli.corpus_stats:corpus_stats_command",
        "How much of each shared corpus parses, and why not.",
    ),
}


class MainGroup(LazyGroup):
    """The group that, whatever its command's end (``--help`` and ``--version`` of the group
    itself included, which end before any command runs), says so when standard output lost
    output."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        tolerate_closed_stdout()
        try:
            return super().main(*args, **kwargs)
        except SystemExit:
            lost = output_lost()
            if lost is None:
                raise
            OutputLost(lost).show()  # lost output outranks the exit code
            raise SystemExit(OutputLost.exit_code) from None


@click.group(cls=MainGroup, lazy=COMMANDS, context_settings=CONTEXT)
@version_option
def main() -> None:
    """Counterexample-guided regex learning: tools, benchmarks and experiments."""
    working_directory_importable()


def working_directory_importable() -> None:
    """Put the working directory first on the import path, as ``python -m`` does (an empty entry)."""
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
