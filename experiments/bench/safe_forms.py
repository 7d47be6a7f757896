"""``bench safe-forms``: the share of the datasets' targets that print linear, before and after.

Each target of NL-RX-Turk, KB13 and StructuredRegex is printed for the flavour as written and as
its safe form (:func:`automata.safe.safe_form`); the table gives the share whose ReDoS verdict is
linear both ways, the non-linear ones left with no reason (should be 0), and the time the safe form
took per target (median, p95).
"""

from __future__ import annotations

import statistics
from collections.abc import Callable

import click

from automata.redos import ENGINES, SEMANTICS, Engine, Semantics
from automata.safe import DEFAULT_SECONDS, linear_shares
from experiments.data_dir import DEFAULT_DATA_DIR
from experiments.datasets.deepregex import python_targets
from experiments.datasets.structured_regex import load_structured_regex
from regexlang.ast import Regex


def _deepregex(name: str) -> Callable[[], list[Regex]]:
    return lambda: [task.regex() for task in python_targets(DEFAULT_DATA_DIR / name).tasks]


def _structured() -> list[Regex]:
    folder = DEFAULT_DATA_DIR / "structured-regex"
    return [problem.task.regex() for problem in load_structured_regex(folder)]


DATASETS: dict[str, Callable[[], list[Regex]]] = {
    "nl-rx-turk": _deepregex("nl-rx-turk"),
    "kb13": _deepregex("kb13"),
    "structured-regex": _structured,
}


@click.command()
@click.option("--flavor", type=click.Choice(ENGINES), default="python", show_default=True)
@click.option("--match", type=click.Choice(SEMANTICS), default="fullmatch", show_default=True)
@click.option("--seconds", default=DEFAULT_SECONDS, show_default=True, help="Budget per target.")
@click.option("--show", default=0, show_default=True, help="Print this many non-linear forms.")
def main(flavor: Engine, match: Semantics, seconds: float, show: int) -> None:
    """Print the linear share of each dataset's targets before and after the safe printer."""
    click.echo(f"{'dataset':18} {'printed':>7} {'before':>7} {'after':>7} {'no reason':>9}"
               f" {'median ms':>9} {'p95 ms':>7}")  # fmt: skip
    for name, load in DATASETS.items():
        shares = linear_shares(load(), flavor, match, seconds)
        ms = sorted(t * 1000 for t in shares.seconds)
        p95 = ms[int(0.95 * (len(ms) - 1))] if ms else 0.0
        median = statistics.median(ms) if ms else 0.0
        click.echo(
            f"{name:18} {len(shares.forms):7} {shares.linear_before:7.3f} "
            f"{shares.linear_after:7.3f} {shares.unexplained:9} {median:9.1f} {p95:7.1f}"
        )
        left = [form for form in shares.forms if not form.verdict.linear]
        for form in left[:show]:
            click.echo(f"    {form.text}  [{form.verdict.verdict}] {form.reason}")


if __name__ == "__main__":
    main()
