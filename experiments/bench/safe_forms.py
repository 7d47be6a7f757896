"""``bench safe-forms``: the share of the datasets' targets that users get printed linear.

Each target of NL-RX-Turk, KB13 and StructuredRegex (over its task's alphabet) is printed for the
flavour through the function ``learn --flavor`` and ``learn_regex`` print with
(:func:`cegis.symbolic.passive.pasteable`), once as written (``--print plain``) and once as users get
it by default (its safe form when that print is not linear). The table gives the share whose ReDoS
verdict is linear both ways, the prints replaced by a safe form, the non-linear ones left and how
many of those carry the warning line and a reason (all should), and the time: the whole default
print (median, p95) and what the safe form adds to the print as written, in CPU seconds of this
process (the machine's load does not stretch them).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence

import attrs
import click

from cegis.redos_check import checked, warning
from cegis.symbolic.passive import printed_for
from experiments.data_dir import DEFAULT_DATA_DIR
from experiments.datasets.deepregex import python_targets
from experiments.datasets.structured_regex import load_structured_regex
from regexlang.ast import Regex
from regexlang.charset import CharSet
from regexlang.errors import RegexError
from regexlang.flavors import ANCHORINGS, Anchoring, Flavor

#: The flavours whose engines backtrack, the ones a safe form is printed for.
BACKTRACKING: tuple[Flavor, ...] = ("python", "pcre", "javascript")
Target = tuple[Regex, CharSet]


def _deepregex(name: str) -> Callable[[], list[Target]]:
    def load() -> list[Target]:
        tasks = python_targets(DEFAULT_DATA_DIR / name).tasks
        return [(task.regex(), task.alphabet) for task in tasks]

    return load


def _structured() -> list[Target]:
    problems = load_structured_regex(DEFAULT_DATA_DIR / "structured-regex")
    return [(problem.task.regex(), problem.task.alphabet) for problem in problems]


DATASETS: dict[str, Callable[[], list[Target]]] = {
    "nl-rx-turk": _deepregex("nl-rx-turk"),
    "kb13": _deepregex("kb13"),
    "structured-regex": _structured,
}


@attrs.frozen
class Pasted:
    """One target as users get it: whether its print as written and its default print are
    linear, whether the default is a safe form, whether a non-linear default carries a warning
    with a reason (why no linear form, or why no verdict), its text, and the seconds of the
    default print and of the plain one."""

    plain_linear: bool
    linear: bool
    rewritten: bool
    explained: bool
    text: str
    seconds: float
    plain_seconds: float


def pasted(tree: Regex, universe: CharSet, flavor: Flavor, anchored: Anchoring | None) -> Pasted:
    """``tree`` printed for ``flavor`` as written and by default (see the module doc)."""
    started = time.process_time()
    text = printed_for(tree, flavor, anchored, universe)
    printed = time.process_time()
    plain = checked(tree, text, flavor, anchored, universe, "plain")
    checked_plain = time.process_time()
    safe = checked(tree, text, flavor, anchored, universe, "safe")
    ended = time.process_time()
    assert plain.verdict is not None and safe.verdict is not None  # a backtracking flavour
    unknown = safe.verdict.verdict == "unknown"  # its warning gives the reason
    return Pasted(
        plain.verdict.linear,
        safe.verdict.linear,
        safe.plain is not None,
        safe.verdict.linear or (warning(safe) is not None and bool(safe.reason or unknown)),
        safe.text,
        (printed - started) + (ended - checked_plain),
        checked_plain - started,
    )


def _ms(seconds: Sequence[float], share: float) -> float:
    ordered = sorted(seconds)
    return 1000 * ordered[int(share * (len(ordered) - 1))] if ordered else 0.0


@click.command()
@click.option("--flavor", type=click.Choice(BACKTRACKING), default="python", show_default=True)
@click.option(
    "--anchored", type=click.Choice(ANCHORINGS), default=None,
    help="As for learn (default: what the flavour's usual call needs).",
)  # fmt: skip
@click.option("--every", default=1, show_default=True, type=click.IntRange(min=1),
              help="Print every n-th target only (a quicker sample).")  # fmt: skip
@click.option("--show", default=0, show_default=True, help="Print this many non-linear prints.")
@click.option("--dataset", "datasets", multiple=True, type=click.Choice(tuple(DATASETS)),
              help="Only this dataset (repeatable; default: all).")  # fmt: skip
def main(
    flavor: Flavor, anchored: Anchoring | None, every: int, show: int, datasets: tuple[str, ...]
) -> None:
    """Print the linear share of each dataset's targets as printed, plain and by default."""
    click.echo(f"{'dataset':16} {'printed':>7} {'plain':>6} {'safe':>6} {'rewritten':>9}"
               f" {'left':>5} {'warned':>6} {'median ms':>9} {'p95 ms':>7}"
               f" {'added median ms':>15} {'added p95 ms':>12}")  # fmt: skip
    for name in datasets or tuple(DATASETS):
        load = DATASETS[name]
        rows: list[Pasted] = []
        for tree, universe in load()[::every]:
            try:
                rows.append(pasted(tree, universe, flavor, anchored))
            except RegexError:  # nothing to print for the flavour: not a print users get
                continue
        left = [row for row in rows if not row.linear]
        added = [max(row.seconds - row.plain_seconds, 0.0) for row in rows]
        n = max(len(rows), 1)
        click.echo(
            f"{name:16} {len(rows):7} {sum(r.plain_linear for r in rows) / n:6.3f}"
            f" {sum(r.linear for r in rows) / n:6.3f} {sum(r.rewritten for r in rows):9}"
            f" {len(left):5} {sum(r.explained for r in left):6}"
            f" {statistics.median([r.seconds for r in rows] or [0.0]) * 1000:9.2f}"
            f" {_ms([r.seconds for r in rows], 0.95):7.1f}"
            f" {statistics.median(added or [0.0]) * 1000:15.2f} {_ms(added, 0.95):12.1f}"
        )
        for row in left[:show]:
            click.echo(f"    {row.text}")


if __name__ == "__main__":
    main()
