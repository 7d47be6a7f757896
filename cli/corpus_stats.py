"""``python -m cli corpus-stats``: how much of each shared regex corpus parses, and why not."""

from __future__ import annotations

import json
from pathlib import Path

import click

from cli.errors import BadInput
from cli.lazy import CONTEXT
from experiments.bench.corpus_stats import corpora, corpus_stats, report
from experiments.data_dir import DEFAULT_DATA_DIR


@click.command(context_settings=CONTEXT)
@click.argument(
    "data_dir", type=click.Path(path_type=Path), default=DEFAULT_DATA_DIR, envvar="REGEX_CEGIS_DATA"
)
def corpus_stats_command(data_dir: Path) -> None:
    """Print parse statistics of the regex corpora in DATA_DIR (default ../shared/data)."""
    if not data_dir.is_dir():
        raise BadInput(
            f"no data directory at {data_dir}; see the README's Data section for where to get the files"
        )
    try:
        found = corpora(data_dir)
    except OSError as error:
        raise BadInput(
            f"cannot read a corpus in {data_dir}: {error.strerror}: {error.filename}"
        ) from None
    except (json.JSONDecodeError, UnicodeDecodeError, KeyError, TypeError) as error:
        raise BadInput(f"a corpus file in {data_dir} is malformed: {error}") from None
    click.echo(report(corpus_stats(corpus) for corpus in found))
