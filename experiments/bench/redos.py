"""``python -m cli bench redos``: the static ReDoS verdicts, and the peers', against timed truth.

The corpus (:mod:`experiments.bench.redos_corpus`): generated families of known class and degree,
the NL-RX-Turk, KB13 and StructuredRegex targets as printed for Python, and ``learn_regex``
outputs. The ground truth is Python's ``re`` timed in a subprocess (:mod:`experiments.bench.
redos_timing`): a regex is super-linear when the static attack, recheck's attack, or a pumped
family of failing inputs makes it grow faster than linearly; exponential when the growth is.
Non-linear is the positive class. The table gives, for ours and each peer installed
(:mod:`experiments.bench.redos_peers`; none is required): precision, recall, accuracy of the
exponential-vs-polynomial class on the true positives it flags, degree within ±0.5 of the timed
slope (polynomial truths whose timing left the small pump counts; those that reached the target
before, where a slope is not a degree, are counted on their own line), the share of its attacks
confirmed on ``re``, verdicts it could not give,
and its time per regex (median, p95; wall clock, and for ours also the CPU time, which other work on
a shared machine does not inflate). Per source, the share that is linear as printed, statically
and by timing, and the regexes where ours and the timing disagree.
"""

from __future__ import annotations

import statistics
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import attrs
import click

from automata.redos import Attack, Verdict, check
from automata.redos.confirm import DENSE
from experiments.bench.redos_corpus import Entry, datasets, families
from experiments.bench.redos_peers import PeerAnswer, answers, available
from experiments.bench.redos_timing import Growth, grown, pumped_family, screened

#: Static verdicts and peers are compared as one column each.
OURS = "ours"


@attrs.frozen
class Truth:
    """What timing ``re`` showed: super-linear or not, exponential, the fitted slope of the
    growth that showed it, which input showed it, the largest pump count timed, and whether the
    slope can be read as a degree (:func:`automata.redos.confirm.asymptotic`)."""

    superlinear: bool
    exponential: bool
    slope: float | None
    shown_by: str
    largest: int = 0
    asymptotic: bool = False


@attrs.frozen
class Claim:
    """One tool's answer on one regex: flagged (None: no verdict), class and degree when given,
    whether its attack was confirmed on ``re`` (None: no attack timed), and seconds it took (wall
    clock, and CPU time of this process when it ran here)."""

    flagged: bool | None
    kind: str | None
    degree: int | None
    confirmed: bool | None
    seconds: float
    cpu_seconds: float | None = None


def _ours(entry: Entry) -> tuple[Verdict, float, float]:
    """Our verdict, with the wall-clock and CPU seconds it took."""
    started, cpu = time.perf_counter(), time.process_time()
    verdict = check(entry.pattern, semantics=entry.semantics)
    return verdict, time.perf_counter() - started, time.process_time() - cpu


def _fits(growth: Growth | None, kind: str) -> bool:
    """Whether ``growth`` confirms an attack of class ``kind``."""
    if growth is None:
        return False
    return growth.exponential if kind == "exponential" else growth.superlinear


def _truth(
    entry: Entry, attacks: Sequence[tuple[str, Attack, Growth | None]], target: float
) -> Truth:
    """Super-linear when an attack already timed grew so, else when the most suspect input of the
    pumped family does."""
    for name, _, growth in attacks:
        if growth is not None and growth.superlinear:
            return _shown(growth, name)
    suspect = screened(
        entry.pattern, entry.semantics, pumped_family(entry.pattern, entry.semantics)
    )
    growth = None if suspect is None else grown(entry.pattern, entry.semantics, suspect, target)
    if growth is not None and growth.superlinear:
        return _shown(growth, "pumped family")
    return Truth(False, False, None, "")


def _shown(growth: Growth, name: str) -> Truth:
    """The super-linear truth that ``growth`` of the input ``name`` shows."""
    largest = max(n for n, _ in growth.trials)
    return Truth(True, growth.exponential, growth.slope, name, largest, growth.asymptotic)


def _recheck_attack(answer: PeerAnswer | None) -> Attack | None:
    """recheck's attack as ours: each pump's prefix is the text before it (after the previous
    pump)."""
    if answer is None or answer.attack is None or not answer.attack[0]:
        return None
    pumps, suffix = answer.attack
    prefixes = [prefix for prefix, _ in pumps]
    pieces = tuple(zip([pump for _, pump in pumps], [*prefixes[1:], ""], strict=True))
    return Attack(prefixes[0], pieces, suffix)


def _rate(hits: int, total: int) -> str:
    return f"{hits / total:.3f}" if total else "-"


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[int(q * (len(ordered) - 1))] if ordered else 0.0


def _column(claims: list[Claim], truths: list[Truth]) -> dict[str, str]:
    """The table column of one tool."""
    pairs = list(zip(claims, truths, strict=True))
    flagged = [(c, t) for c, t in pairs if c.flagged]
    positives = [t for t in truths if t.superlinear]
    true_pos = [(c, t) for c, t in flagged if t.superlinear]
    classed = [(c, t) for c, t in true_pos if c.kind in ("exponential", "polynomial")]
    right_class = sum((c.kind == "exponential") == t.exponential for c, t in classed)
    sloped = [(c, t) for c, t in classed if not t.exponential and c.degree and t.slope is not None]
    degreed = [(c, t) for c, t in sloped if t.asymptotic]
    right_degree = sum(abs(t.slope - c.degree) <= 0.5 for c, t in degreed)  # type: ignore[operator]
    timed = [c for c in claims if c.confirmed is not None]
    ms = [c.seconds * 1000 for c in claims]
    cpu = [c.cpu_seconds * 1000 for c in claims if c.cpu_seconds is not None]
    return {
        "flagged": f"{len(flagged)}",
        "precision": _rate(len(true_pos), len(flagged)),
        "recall": _rate(len(true_pos), len(positives)),
        "class accuracy": f"{_rate(right_class, len(classed))} of {len(classed)}",
        "degree ±0.5 of slope": f"{_rate(right_degree, len(degreed))} of {len(degreed)}",
        f"slope not a degree (n ≤ {DENSE})": f"{len(sloped) - len(degreed)}",
        "attacks confirmed": f"{sum(bool(c.confirmed) for c in timed)}/{len(timed)}",
        "no verdict": f"{sum(c.flagged is None for c in claims)}",
        "median ms": f"{statistics.median(ms):.2f}" if ms else "-",
        "p95 ms": f"{_percentile(ms, 0.95):.2f}",
        "CPU median / p95 ms": f"{statistics.median(cpu):.2f} / {_percentile(cpu, 0.95):.2f}"
        if cpu
        else "-",
    }


@click.command()
@click.option(
    "--seconds",
    default=1.0,
    show_default=True,
    help="Grow each timed input until one trial takes this long (CPU time).",
)
@click.option(
    "--per-source",
    default=50,
    show_default=True,
    type=click.IntRange(min=0),
    help="Distinct printed targets sampled per dataset (0: all).",
)
@click.option(
    "--learned", default=6, show_default=True, type=click.IntRange(min=0),
    help="learn_regex outputs (StructuredRegex example sets).",
)  # fmt: skip
@click.option(
    "--peers-dir",
    type=click.Path(path_type=Path, file_okay=False),
    default=None,
    help="A folder whose node_modules holds recheck, redos-detector, safe-regex (else node's own).",
)
@click.option("--quick", is_flag=True, help="Families and 5 targets per dataset, 1 learned.")
def main(
    seconds: float, per_source: int, learned: int, peers_dir: Path | None, quick: bool
) -> None:
    """Print the ReDoS benchmark table."""
    corpus = families() + datasets(5 if quick else per_source, 1 if quick else learned)
    peers = available(peers_dir)
    sources = Counter(e.source for e in corpus)
    click.echo(
        f"corpus: {len(corpus)} regexes ("
        + ", ".join(f"{k} {v}" for k, v in sources.items())
        + "); truth: Python re timed in a subprocess"
    )
    missing = [p for p in ("recheck", "redos-detector", "safe-regex") if p not in peers]
    if missing:
        click.echo(f"peers not installed (skipped): {', '.join(missing)}")
    click.echo("regexploit: not run (pip; reports only cubic and worse)")
    peer_answers: dict[str, list[PeerAnswer | None]] = {}
    for name in peers:
        scripts = [e.javascript for e in corpus]
        found = answers(name, [s for s in scripts if s is not None], peers_dir)
        given = iter(found)
        peer_answers[name] = [None if s is None else next(given) for s in scripts]
    claims: dict[str, list[Claim]] = {name: [] for name in (OURS, *peers)}
    truths: list[Truth] = []
    verdicts: list[Verdict] = []
    for index, entry in enumerate(corpus):
        verdict, took, cpu = _ours(entry)
        verdicts.append(verdict)
        timed: list[tuple[str, Attack, Growth | None]] = []
        if verdict.attack is not None:
            growth = grown(entry.pattern, entry.semantics, verdict.attack, seconds)
            timed.append(("static attack", verdict.attack, growth))
        recheck = peer_answers.get("recheck", [None] * len(corpus))[index]
        recheck_attack = _recheck_attack(recheck)
        if recheck_attack is not None:
            growth = grown(entry.pattern, entry.semantics, recheck_attack, seconds)
            timed.append(("recheck attack", recheck_attack, growth))
        truth = _truth(entry, timed, seconds)
        truths.append(truth)
        ours_growth = timed[0][2] if verdict.attack is not None else None
        flagged = None if verdict.verdict == "unknown" else not verdict.linear
        claims[OURS].append(
            Claim(
                flagged,
                verdict.verdict if flagged else None,
                verdict.degree,
                None if verdict.attack is None else _fits(ours_growth, verdict.verdict),
                took,
                cpu,
            )
        )
        for name in peers:
            answer = peer_answers[name][index]
            growth = next((g for n, _, g in timed if n == "recheck attack"), None)
            claims[name].append(
                Claim(None, None, None, None, 0.0)
                if answer is None
                else Claim(
                    answer.flagged,
                    answer.kind,
                    answer.degree,
                    None
                    if name != "recheck" or answer.attack is None
                    else _fits(growth, answer.kind or ""),
                    answer.ms / 1000,
                )
            )
    _table(claims, truths)
    _known(corpus, verdicts)
    _sources(corpus, verdicts, truths)
    _disagreements(corpus, verdicts, truths)
    _degrees(corpus, claims[OURS], truths)


def _table(claims: dict[str, list[Claim]], truths: list[Truth]) -> None:
    positives = sum(t.superlinear for t in truths)
    click.echo(
        f"timed truth: {positives} super-linear ({sum(t.exponential for t in truths)} exponential)"
        f" of {len(truths)}"
    )
    columns = {name: _column(c, truths) for name, c in claims.items()}
    rows = list(next(iter(columns.values())))
    width = max(map(len, rows)) + 2
    click.echo(" " * width + "".join(f"{name:>16}" for name in columns))
    for row in rows:
        click.echo(f"{row:<{width}}" + "".join(f"{col[row]:>16}" for col in columns.values()))


def _known(corpus: list[Entry], verdicts: list[Verdict]) -> None:
    known = [(e, v) for e, v in zip(corpus, verdicts, strict=True) if e.known is not None]
    right = sum(e.known == (v.verdict, v.degree) for e, v in known)
    click.echo(f"families: static class and degree as constructed on {right}/{len(known)}")


def _sources(corpus: list[Entry], verdicts: list[Verdict], truths: list[Truth]) -> None:
    click.echo("linear as printed (static / timed):")
    for source in dict.fromkeys(e.source for e in corpus):
        rows = [
            (v, t) for e, v, t in zip(corpus, verdicts, truths, strict=True) if e.source == source
        ]
        static = sum(v.linear for v, _ in rows) / len(rows)
        timed = sum(not t.superlinear for _, t in rows) / len(rows)
        unknown = sum(v.verdict == "unknown" for v, _ in rows)
        click.echo(f"  {source:<16} {static:.3f} / {timed:.3f}  of {len(rows)}, unknown {unknown}")


def _disagreements(corpus: list[Entry], verdicts: list[Verdict], truths: list[Truth]) -> None:
    for entry, verdict, truth in zip(corpus, verdicts, truths, strict=True):
        if verdict.verdict != "unknown" and (not verdict.linear) != truth.superlinear:
            said = "linear" if verdict.linear else f"{verdict.verdict} {verdict.degree or ''}"
            timed = (
                f"super-linear by the {truth.shown_by} (slope {truth.slope})"
                if truth.superlinear
                else "linear"
            )
            click.echo(
                f"  disagree: {entry.pattern!r} ({entry.semantics}): ours {said}; timed {timed}"
            )


def _degrees(corpus: list[Entry], claims: list[Claim], truths: list[Truth]) -> None:
    for entry, claim, truth in zip(corpus, claims, truths, strict=True):
        if claim.confirmed is False:
            click.echo(f"  not confirmed: {entry.pattern!r} ({entry.semantics}): ours {claim.kind}")
        if claim.degree and claim.degree > 1 and truth.slope is not None and not truth.exponential:
            if not truth.asymptotic:
                click.echo(
                    f"  slope not a degree: {entry.pattern!r} ({entry.semantics}): ours"
                    f" {claim.degree}; timed slope {truth.slope:.2f} by the {truth.shown_by},"
                    f" the target reached at n = {truth.largest}, where lower-order terms bend it"
                )
            elif abs(truth.slope - claim.degree) > 0.5:
                click.echo(
                    f"  degree: {entry.pattern!r} ({entry.semantics}): ours {claim.degree};"
                    f" timed slope {truth.slope:.2f} by the {truth.shown_by}"
                )


if __name__ == "__main__":
    main()
