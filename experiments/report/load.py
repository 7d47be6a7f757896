"""Reading a run directory back: the manifest joined with each unit's records.

Everything the report shows is recomputed from these files; nothing is carried over from the
runner's memory. A unit without its closing ``run`` record is *unfinished* and reported as such,
never counted as a failure.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs

from cegis.state import ACCEPTED
from experiments.units import MANIFEST

JSON = dict[str, Any]


@attrs.frozen
class UnitResult:
    """One unit: its manifest line, its closing run record (None while unfinished), its epochs,
    and its hardening record (A-CEGIS's full run; None for other settings or before it ends)."""

    unit: JSON
    run: JSON | None
    epochs: tuple[JSON, ...]
    hardening: JSON | None = None

    @property
    def finished(self) -> bool:
        """Whether the run reached an outcome."""
        return self.run is not None

    @property
    def success(self) -> bool:
        """Whether the teacher accepted a hypothesis."""
        return self.run is not None and self.run["outcome"] in ACCEPTED

    @property
    def star_depth(self) -> int:
        """The StarDepth the paper's tables file the target under (the listed one when known)."""
        listed = self.unit.get("listed_star_depth")
        return int(listed if listed is not None else self.unit["star_depth"])

    @property
    def states(self) -> int:
        """The #States the paper's heatmaps file the target under (the listed one when known)."""
        listed = self.unit.get("listed_states")
        return int(listed if listed is not None else self.unit["states"])

    @property
    def tokens(self) -> int:
        """Prompt plus completion tokens of the whole run, hardening included."""
        spent = 0
        for totals in (self.run["totals"] if self.run else {}, self.hardening["tokens"] if self.hardening else {}):
            spent += int(totals.get("prompt_tokens", 0)) + int(totals.get("completion_tokens", 0))
        return spent

    @property
    def examples(self) -> int:
        """Labeled examples the run accumulated (a clustered line counts as one)."""
        return int(self.run["examples"]) if self.run else 0

    def seen_by_epoch(self) -> list[tuple[int, float | None, float | None]]:
        """For each epoch: examples the proposal was made from, its accuracy and Diff Ratio."""
        seen = 0
        out = []
        for epoch in self.epochs:
            seen += len(epoch["initial"])
            out.append((seen, epoch.get("accuracy"), epoch.get("diff_ratio")))
            seen += len(epoch["added"])
        return out


def load_run(run_dir: Path) -> tuple[UnitResult, ...]:
    """Every unit of the run directory with its records, in manifest order."""
    manifest = run_dir / MANIFEST
    if not manifest.exists():
        raise FileNotFoundError(f"{run_dir} holds no {MANIFEST}: not a run directory of `python -m cli experiment`")
    results = []
    for line in manifest.read_text(encoding="utf-8").splitlines():
        unit = json.loads(line)
        results.append(UnitResult(unit, *_records(run_dir / unit["records"])))
    return tuple(results)


def _records(path: Path) -> tuple[JSON | None, tuple[JSON, ...], JSON | None]:
    if not path.exists():
        return None, (), None
    run = None
    hardening = None
    epochs = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line torn by a kill; the runner cuts it before resuming
        if record.get("type") == "run":
            run = record
        elif record.get("type") == "epoch":
            epochs.append(record)
        elif record.get("type") == "hardening":
            hardening = record
    return run, tuple(epochs), hardening
