"""``python -m cli experiment [FILE]``: run an experiment file (or the built-in quick one) and report.

With no FILE the built-in quick experiment runs: symbolic learners in the counterexample loop on
the generated Simple Regex set and the paper's Extended Regex list, a few minutes on 2 cores, no
model server needed. The run directory (``--out``, default ``runs/<experiment name>``) receives one
JSON Lines file of records per unit, the manifest, and ``report.md`` with its figures; running the
same command again skips finished units and continues unfinished ones. A directory holding results
of another configuration is refused with the fields that differ (``--restart`` deletes them).
"""

from __future__ import annotations

import asyncio
import os
from importlib import resources
from pathlib import Path

import attrs
import click

from cli.errors import BadInput, unwritable
from cli.lazy import CONTEXT
from experiments.datasets import DatasetError
from experiments.errors import ExperimentError
from experiments.plan import Plan, PlanError, ServerSpec, load_plan, plan_from_data
from experiments.report import write_report
from experiments.runner import run_experiment
from llm.errors import ConfigError

BUILT_IN = "quick"


def built_in_plan(name: str) -> Plan:
    """A plan shipped with the package (``experiments/plans/<name>.toml``)."""
    import tomllib

    text = (
        resources.files("experiments").joinpath("plans", f"{name}.toml").read_text(encoding="utf-8")
    )
    return plan_from_data(tomllib.loads(text), default_name=name)


@click.command(context_settings=CONTEXT)
@click.argument("file", required=False, type=click.Path(path_type=Path))
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    help="Run directory (default: runs/<experiment name>).",
)
@click.option(
    "--base-url",
    "base_urls",
    multiple=True,
    metavar="URL",
    help="A model server; repeat for several.",
)
@click.option(
    "--concurrency",
    type=click.IntRange(min=1),
    help="Worker processes for symbolic units (1: run them in this process).",
)
@click.option(
    "--llm-workers",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Processes for LLM units, each server's concurrency shared between them.",
)
@click.option(
    "--ray",
    "ray_address",
    metavar="ADDRESS",
    help="Run the units on a Ray cluster (auto, local, ray://HOST:10001; the ray extra).",
)
@click.option(
    "--seeds", type=click.IntRange(min=1), help="Run seeds 0..N-1 instead of the file's seeds."
)
@click.option(
    "--dataset-limit",
    type=click.IntRange(min=1),
    help="Keep the first N tasks of each dataset (a smoke run).",
)
@click.option(
    "--restart",
    is_flag=True,
    help="Delete the results already in the run directory and start over (the call log stays).",
)
def experiment(
    file: Path | None,
    out: Path | None,
    base_urls: tuple[str, ...],
    concurrency: int | None,
    llm_workers: int,
    ray_address: str | None,
    seeds: int | None,
    dataset_limit: int | None,
    restart: bool,
) -> None:
    """Run every (task, arm, seed) of FILE (default: the built-in quick experiment), then report."""
    try:
        plan = built_in_plan(BUILT_IN) if file is None else load_plan(file)
    except PlanError as error:
        raise BadInput(str(error)) from None
    if concurrency is not None:
        plan = attrs.evolve(plan, concurrency=concurrency)
    if seeds is not None:
        plan = attrs.evolve(plan, seeds=tuple(range(seeds)))
    if dataset_limit is not None:
        plan = attrs.evolve(
            plan, datasets=tuple(attrs.evolve(d, limit=dataset_limit) for d in plan.datasets)
        )
    try:
        servers = tuple(ServerSpec(url) for url in base_urls) or None
    except ConfigError as error:
        raise BadInput(f"--base-url: {error}") from None
    if plan.needs_model and not (servers or plan.servers or os.environ.get("OPENAI_BASE_URL")):
        click.echo(
            "No model server configured: pass --base-url URL, list [[servers]] in the file, or set OPENAI_BASE_URL."
        )
    elif not plan.needs_model:
        click.echo(
            "No model server needed: this experiment runs symbolic learners only. "
            "For the papers' LLM settings pass an experiment file and --base-url URL (see the README)."
        )
    run_dir = out or Path("runs") / plan.name
    if run_dir.exists() and not run_dir.is_dir():
        raise BadInput(f"--out: {run_dir} is a file; name a directory (new or of this experiment)")
    click.echo(f"experiment {plan.name!r} → {run_dir}")
    try:
        summary = asyncio.run(
            run_experiment(
                plan,
                run_dir,
                servers=servers,
                restart=restart,
                llm_workers=llm_workers,
                ray=ray_address,
            )
        )
    except (DatasetError, ExperimentError) as error:
        raise BadInput(str(error)) from None
    except OSError as error:
        raise BadInput(unwritable(run_dir, error)) from None
    errors = f"{summary.errors} errors" + (" (see errors.jsonl)" if summary.errors else "")
    click.echo(
        f"units {summary.units}: {summary.already_done} done before, {summary.ran} run now, "
        f"{summary.succeeded} succeeded, {errors}"
    )
    for name in summary.skipped_datasets:
        click.echo(
            f"skipped dataset {name!r}: its files are absent (see the README's Data section)"
        )
    if summary.stopped:
        click.echo(f"stopped: {summary.stopped}")
    for key in summary.interrupted:
        click.echo(f"unfinished: {key}")
    try:
        report = write_report(run_dir)
    except OSError as error:
        raise BadInput(unwritable(run_dir, error)) from None
    click.echo(f"report: {report}")
    if summary.interrupted:
        count = len(summary.interrupted)
        raise BadInput(f"{count} unit{'s' * (count != 1)} left unfinished: {summary.stopped}")
