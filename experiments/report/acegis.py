"""A-CEGIS trajectory metrics for the arms that learn from a description (paper ``001``).

Each run's hypotheses are re-judged on the test-suite oracle rebuilt from the gold regex, the
description and the suite settings the run recorded in its fingerprint (the suite is deterministic,
so it is the one the run saw), through :func:`experiments.report.trajectory.trajectory`; the
metrics' exact definitions live there. A run that hardened (``acegis-full``) has its repaired
hypotheses appended as hardening turns, read from its ``hardening`` record, so robust success is
that of the hypothesis the run ended with. Beside an arm on NL-RX-Turk whose setting the paper ran,
a row labeled as the paper's shows its figures.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from cegis.llm.settings import SETTINGS
from experiments.errors import DamagedRecords
from experiments.report.load import UnitResult
from experiments.report.published import ACEGIS
from experiments.report.tables import groups, markdown
from experiments.report.trajectory import Trajectory, summarize, trajectory
from oracle.testsuite import SuiteConfig, SuiteOracle
from regexlang.charset import CharSet


def _trajectory(result: UnitResult, description: str) -> Trajectory | None:
    if result.run is None:
        return None
    task = result.run["task"]
    universe = CharSet((lo, hi) for lo, hi in task["universe"])
    suite = SuiteOracle.from_gold(
        result.unit["target"],
        dialect=result.unit["dialect"],
        universe=universe,
        description=description,
        config=_suite_config(result),
    )
    texts: list[str | None] = [epoch["hypothesis"] for epoch in result.epochs]
    cycles = [] if result.hardening is None else result.hardening["cycles"]
    texts += [cycle["repaired"] for cycle in cycles]
    return trajectory(
        texts, suite, dialect=result.unit["dialect"], hardened=len(cycles), probe_final=True
    )


def _suite_config(result: UnitResult) -> SuiteConfig:
    """The suite settings the run recorded (``llm_setting.suite.*`` of its fingerprint)."""
    prefix = "llm_setting.suite."
    recorded = {
        k[len(prefix) :]: v for k, v in (result.fingerprint or {}).items() if k.startswith(prefix)
    }
    if not recorded:
        raise DamagedRecords(
            f"unit {result.unit['unit']} recorded no suite settings (records of an older version): run it again"
        )
    return SuiteConfig(**recorded)


def _paper(figures: dict[str, float], name: str) -> str:
    return f"{figures[name]:.3f}" if name in figures else "—"


def acegis_tables(results: Sequence[UnitResult], descriptions: dict[str, str]) -> str | None:
    """Pass@1, Pass@final, MRR, RER, stability and robust success per A-CEGIS arm, and the
    histogram of the turn of first success; None when no arm is an A-CEGIS setting."""
    rows = []
    histogram_rows = []
    for arm, runs in groups(results, lambda r: r.unit["arm"]).items():
        setting = SETTINGS.get(runs[0].unit.get("setting") or "")
        if setting is None or setting.prompt != "description":
            continue
        trajectories = [
            t
            for r in runs
            if (t := _trajectory(r, descriptions.get(r.unit["task"], ""))) is not None
        ]
        if not trajectories:
            continue
        s = summarize(trajectories)
        rows.append(
            [
                arm,
                s.runs,
                f"{s.pass_at_1:.3f}",
                f"{s.pass_at_final:.3f}",
                f"{s.mrr:.3f}",
                "—" if s.rer is None else f"{s.rer:.2f} ({s.fixes}/{s.breaks})",
                "—" if s.stability is None else f"{s.stability:.3f}",
                "—" if s.robust is None else f"{s.robust:.3f}",
            ]
        )
        paper = ACEGIS.get(setting.name)
        if paper is not None and runs[0].unit["dataset"] == "nl-rx-turk":
            cells = [_paper(paper, name) for name in ("Pass@1", "Pass@final", "MRR", "RER")]
            rows.append([f"↳ paper 001 ({setting.name})", 30, *cells, "—", _paper(paper, "robust")])
        first = Counter(
            next((i + 1 for i, t in enumerate(tr.turns) if t.passed), 0) for tr in trajectories
        )
        turns = max(
            len(tr.turns) - tr.hardened for tr in trajectories
        )  # hardening turns come after success
        histogram_rows.append(
            [arm, *(first.get(t, 0) for t in range(1, turns + 1)), first.get(0, 0)]
        )
    if not rows:
        return None
    width = max(len(r) for r in histogram_rows) - 2
    metrics = markdown(
        ["arm", "runs", "Pass@1", "Pass@final", "MRR", "RER (fixes/breaks)", "stability", "robust"],
        rows,
    )
    histogram = markdown(
        ["arm", *(f"turn {t}" for t in range(1, width + 1)), "never"],
        [row[:-1] + [""] * (width + 1 - len(row[:-1])) + [row[-1]] for row in histogram_rows],
    )
    return metrics + "\n\nTurn of first success (runs):\n\n" + histogram
