"""``python -m cli report RUN_DIR``: rewrite a run directory's report from its records."""

from __future__ import annotations

from pathlib import Path

import click

from cli.errors import BadInput
from experiments.report import write_report


@click.command()
@click.argument("run_dir", type=click.Path(path_type=Path))
def report(run_dir: Path) -> None:
    """Write RUN_DIR/report.md (and figures with the plots extra) from the JSON Lines records."""
    try:
        path = write_report(run_dir)
    except FileNotFoundError as error:
        raise BadInput(str(error)) from None
    click.echo(f"report: {path}")
