"""``python -m cli report RUN_DIR``: rewrite a run directory's report from its records."""

from __future__ import annotations

from pathlib import Path

import click

from cli.errors import BadInput, unwritable
from cli.lazy import CONTEXT
from experiments.errors import ExperimentError
from experiments.report import write_report


@click.command(context_settings=CONTEXT)
@click.argument("run_dir", type=click.Path(path_type=Path))
@click.option(
    "--skip-damaged",
    is_flag=True,
    help="Leave units with damaged record lines out of the report (it says how many).",
)
def report(run_dir: Path, skip_damaged: bool) -> None:
    """Write RUN_DIR/report.md and its figures from the JSON Lines records."""
    try:
        path = write_report(run_dir, skip_damaged=skip_damaged)
    except (FileNotFoundError, ExperimentError) as error:
        raise BadInput(str(error)) from None
    except OSError as error:
        raise BadInput(unwritable(run_dir, error)) from None
    click.echo(f"report: {path}")
