"""``python -m cli bench redos``: the ReDoS verdicts against ground truth timed on Python's ``re``.

The corpus: generated families whose class and degree are known by construction (nested loops,
overlapping alternations under a loop, k adjacent overlapping loops, search-only quadratics, and
linear controls), and the NL-RX-Turk targets as ``flavors.render(tree, "python")`` prints them.
For the families the table gives class and degree accuracy of the static verdict, the share of
attacks confirmed on ``re`` in a subprocess (pump grown until a trial takes ``--seconds``), and the
timed growth exponent against the degree; for every regex the static analysis time (median, p95).
For the dataset targets it gives the share that is linear as printed. Peers are not run here.
"""

from __future__ import annotations

import statistics
import time

import click

from automata.redos import Semantics, check
from automata.redos.confirm import confirm
from experiments.data_dir import DEFAULT_DATA_DIR
from experiments.datasets.deepregex import python_targets
from regexlang.errors import NotExpressible
from regexlang.flavors import render

#: (pattern, call, class, degree) known by construction.
FAMILIES: list[tuple[str, Semantics, str, int | None]] = [
    *[
        (f"(?:{c}+)+{e}", "fullmatch", "exponential", None)
        for c, e in [("a", "b"), ("[a-z]", "!"), ("\\d", "x")]
    ],
    *[
        (f"(?:{a}|{b})*{e}", "fullmatch", "exponential", None)
        for a, b, e in [
            ("a", "a", "b"),
            ("a", "aa", "b"),
            (".", "[a-z]", "!"),
            ("\\w", "\\d+", "!"),
        ]
    ],
    *[("".join(["a*"] * k) + "b", "fullmatch", "polynomial", k) for k in (2, 3, 4)],
    *[("".join([".*x"] * (k - 1)) + ".*", "fullmatch", "polynomial", k) for k in (2, 3)],
    ("\\s+$", "search", "polynomial", 2),
    ("(?:ab|cd)*e", "search", "polynomial", 2),
    ("a+b", "search", "polynomial", 2),
    *[
        (p, "fullmatch", "linear", 1)
        for p in [
            "a*b",
            "(?:ab|cd)*e",
            "[a-z]+@[a-z]+\\.com",
            "\\d{3}-\\d{4}",
            "(a|ab)*c",
            "x*y*z*",
        ]
    ],
    ("\\s+$", "fullmatch", "linear", 1),
]


def _timed(pattern: str, semantics: Semantics) -> tuple[float, object]:
    started = time.perf_counter()
    verdict = check(pattern, semantics=semantics)
    return time.perf_counter() - started, verdict


@click.command()
@click.option("--seconds", default=0.2, show_default=True, help="Grow each attack to this long.")
def main(seconds: float) -> None:
    """Print the ReDoS benchmark table."""
    times: list[float] = []
    right_class = right_degree = confirmed = attacks = slope_ok = slopes = 0
    for pattern, semantics, expected, degree in FAMILIES:
        took, verdict = _timed(pattern, semantics)
        times.append(took)
        assert not isinstance(verdict, float)
        right_class += verdict.verdict == expected  # type: ignore[attr-defined]
        right_degree += verdict.degree == degree  # type: ignore[attr-defined]
        if verdict.attack is not None:  # type: ignore[attr-defined]
            attacks += 1
            timing = confirm(pattern, verdict, target=seconds)  # type: ignore[arg-type]
            confirmed += timing.confirmed
            if verdict.degree and timing.slope is not None:  # type: ignore[attr-defined]
                slopes += 1
                slope_ok += abs(timing.slope - verdict.degree) <= 0.5  # type: ignore[attr-defined]
    n = len(FAMILIES)
    click.echo(f"families: {n} regexes")
    click.echo(f"  class accuracy      {right_class / n:.3f}")
    click.echo(f"  degree accuracy     {right_degree / n:.3f}")
    click.echo(f"  attacks confirmed   {confirmed}/{attacks}")
    click.echo(f"  degree within ±0.5 of timed slope  {slope_ok}/{slopes}")
    tasks = python_targets(DEFAULT_DATA_DIR / "nl-rx-turk").tasks
    linear = unknown = printable = 0
    for task in tasks:
        try:
            printed = render(task.regex(), "python")
        except NotExpressible:  # word boundaries: no python spelling in the flavour printer
            continue
        printable += 1
        took, verdict = _timed(printed, "fullmatch")
        times.append(took)
        linear += verdict.verdict == "linear"  # type: ignore[attr-defined]
        unknown += verdict.verdict == "unknown"  # type: ignore[attr-defined]
    click.echo(f"NL-RX-Turk targets printed for python: {printable} of {len(tasks)}")
    click.echo(f"  linear as printed   {linear / max(printable, 1):.3f}  unknown {unknown}")
    ms = sorted(t * 1000 for t in times)
    p95 = ms[int(0.95 * (len(ms) - 1))]
    click.echo(
        f"static analysis per regex: median {statistics.median(ms):.2f} ms, p95 {p95:.2f} ms"
    )


if __name__ == "__main__":
    main()
