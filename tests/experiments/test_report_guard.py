"""The report's guard table measures what SEVerA's Table 8 and Eq. 21 define, on an experiment run
against a loopback model: the fallback trigger rate per run, success without the fallback runs
(left out of numerator and denominator), and conformance over the K draws of each proposal."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import attrs
import pytest

from cegis.llm.settings import SETTINGS, Guard, setting_named
from experiments.plan import load_plan, plan_from_data
from experiments.progress import Progress
from experiments.report import write_report
from experiments.runner import run_experiment
from tests.cegis.llm.scripted_server import Action, Reply, ScriptedServer
from tests.experiments.runner_support import plan_data, synchronous

PLANS = Path(__file__).resolve().parents[2] / "experiments" / "plans"
K = setting_named("guarded-stateless").guard.draws  # type: ignore[union-attr]


class _TwoTasks(ScriptedServer):
    """Answers the target ``a b*`` of one task of :mod:`tests.experiments.runner_support`; for the
    other (whose only positive is ``ab``) ``b``, which breaks the guard's contract at every draw."""

    def __init__(self) -> None:
        super().__init__(())

    def _action(self, body: dict[str, Any]) -> Action:
        data = str(body["messages"][-1]["content"]).split("TRAINING DATA", 1)[1].splitlines()[1:]
        positives = {line.rsplit(", ", 1)[0] for line in data if line.endswith(", 1")}
        return Reply.answer("b" if positives == {"ab"} else "a b*")


def _row(report: str, arm: str) -> dict[str, str]:
    lines = report.split("## Guarded learner (SEVerA)", 1)[1].strip().splitlines()
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    row = next(line for line in lines if line.startswith(f"| {arm} |"))
    return dict(zip(header, (cell.strip() for cell in row.strip("|").split("|"))))


@synchronous
async def test_the_guard_table_counts_triggers_per_run_and_conformance_over_k_draws(
    tmp_path: Path,
) -> None:
    data = plan_data(tmp_path, ())
    data["arms"] = [
        {"name": "guarded", "learner": "llm", "setting": "guarded", "epochs": 2},
        {"name": "stateless", "learner": "llm", "setting": "guarded-stateless", "epochs": 2},
    ]
    async with _TwoTasks() as server:
        data["servers"] = [{"base_url": server.base_url, "concurrency": 1}]
        await run_experiment(
            plan_from_data(data), tmp_path / "run", progress=Progress(4, out=io.StringIO())
        )
    report = write_report(tmp_path / "run").read_text(encoding="utf-8")
    for arm in ("guarded", "stateless"):
        row = _row(report, arm)
        # one run per task: the model's answer wins one; every draw fails the other, whose final
        # output is the fallback's (and the fallback learns the 1-string language exactly)
        assert row["runs"] == "2" and row["fallback trigger rate (runs)"] == "50.0% (1/2)"
        assert row["success"] == "100.0% (2/2)"
        assert (
            row["success without fallback runs"] == "100.0% (1/1)"
        )  # the fallback run leaves both counts
    stateful, stateless = _row(report, "guarded"), _row(report, "stateless")
    assert stateful["conformance over K draws"] == "—" and stateful[
        "draws per proposal"
    ].startswith("until one conforms")
    # all K drawn: the won task's one proposal conforms K times, the other's proposals never
    proposals = int(stateless["proposals"])
    assert (
        stateless["draws per proposal"] == f"all K = {K}"
        and int(stateless["draws"]) == K * proposals
    )
    assert stateless["conformance over K draws"] == f"{K / (K * proposals):.3f}"


def test_the_stateless_guard_at_temperature_0_is_refused_naming_the_field() -> None:
    stateless = setting_named("guarded-stateless")
    with pytest.raises(ValueError, match=r"sampling\.temperature > 0"):
        attrs.evolve(stateless, sampling=attrs.evolve(stateless.sampling, temperature=0.0))
    assert attrs.evolve(
        stateless,
        guard=Guard(stateful=False, draws=1),
        sampling=attrs.evolve(stateless.sampling, temperature=0.0),
    )


def test_the_shipped_plans_sample_stateless_guards_and_report_conformance_over_all_k() -> None:
    guarded = [
        (path.name, SETTINGS[arm.setting])
        for path in sorted(PLANS.glob("*.toml"))
        for arm in load_plan(path).arms
        if arm.setting is not None and SETTINGS[arm.setting].guard is not None
    ]
    stateless = [(name, s) for name, s in guarded if s.guard is not None and not s.guard.stateful]
    assert stateless, "no shipped plan runs the stateless guard (SEVerA Table 9)"
    for name, setting in stateless:
        assert setting.sampling.temperature is None or setting.sampling.temperature > 0, name
    assert any(s.guard is not None and s.guard.draw_all for _, s in guarded), (
        "no shipped plan reports conformance"
    )
