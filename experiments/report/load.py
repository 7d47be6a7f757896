"""Reading a run directory back: the manifest joined with each unit's records.

Everything the report shows is recomputed from these files; nothing is carried over from the
runner's memory. A unit without its closing ``run`` record is *unfinished* and reported as such,
never counted as a failure. Damaged record lines are collected, never skipped silently: the report
refuses them unless told to leave their units out. A records file whose header names another unit
(copied over this one's) is damage too, by the runner's own check
(:func:`experiments.unit_file.foreign_header`): counted, it would count one run twice.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs

from cegis.state import ACCEPTED
from experiments.errors import DamagedRecords
from experiments.unit_file import Damage, read_unit_file
from experiments.units import MANIFEST, MANIFEST_COUNT_FIELDS, MANIFEST_TEXT_FIELDS

JSON = dict[str, Any]


@attrs.frozen
class UnitResult:
    """One unit: its manifest line, its closing run record (None while unfinished), its epochs,
    and its hardening record (A-CEGIS's full run; None for other settings or before it ends)."""

    unit: JSON
    run: JSON | None
    epochs: tuple[JSON, ...]
    hardening: JSON | None = None
    damaged: bool = False  # some line of its records file is damaged
    fingerprint: JSON | None = (
        None  # the configuration that wrote the records (experiments.fingerprint)
    )

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
    def tokens(self) -> int | None:
        """Prompt plus completion tokens of the whole run, hardening included; None (unknown) when
        a server left a call's usage unreported, since the sum would then undercount."""
        spent = 0
        for totals in (
            self.run["totals"] if self.run else {},
            self.hardening["tokens"] if self.hardening else {},
        ):
            if totals.get("unreported_calls"):
                return None
            spent += int(totals.get("prompt_tokens", 0)) + int(totals.get("completion_tokens", 0))
        return spent

    @property
    def examples(self) -> int:
        """Labeled examples the run accumulated (a clustered line counts as one)."""
        return int(self.run["examples"]) if self.run else 0

    @property
    def labeled(self) -> int:
        """Labeled examples the learner saw in all: the examples shown plus its membership queries
        (each is a string the teacher labeled for it)."""
        return self.examples + (
            int(self.run["totals"].get("membership_queries", 0)) if self.run else 0
        )

    def seen_by_epoch(self) -> list[tuple[int, float | None, float | None]]:
        """For each epoch: the labeled examples its proposal was made from (the examples shown and
        the membership queries asked so far), its accuracy and Diff Ratio."""
        shown = 0
        out = []
        for epoch in self.epochs:
            shown += len(epoch["initial"])
            totals = epoch.get("totals")
            queries = int(totals.get("membership_queries", 0)) if isinstance(totals, dict) else 0
            out.append((shown + queries, epoch.get("accuracy"), epoch.get("diff_ratio")))
            shown += len(epoch["added"])
        return out


@attrs.frozen
class LoadedRun:
    """A run directory read back: its units, and the damaged lines of its records files."""

    results: tuple[UnitResult, ...]
    damage: tuple[Damage, ...]


def load_run(run_dir: Path) -> LoadedRun:
    """Every unit of the run directory with its records, in manifest order, and every damaged record
    line (raises ``FileNotFoundError`` without a manifest, :class:`DamagedRecords` for a damaged one)."""
    manifest = run_dir / MANIFEST
    if not manifest.exists():
        raise FileNotFoundError(
            f"{run_dir} holds no {MANIFEST}: not a run directory of `python -m cli experiment`"
        )
    results = []
    damage: list[Damage] = []
    for number, line in enumerate(manifest.read_bytes().splitlines(), start=1):
        unit = _manifest_line(line)
        if unit is None:
            raise DamagedRecords(
                f"{manifest}:{number}: not a manifest line; run the experiment again to rewrite it"
            )
        path = run_dir / unit["records"]
        records = read_unit_file(path, unit)
        damage += records.damage
        fingerprint = None if records.header is None else records.header["fingerprint"]
        results.append(
            UnitResult(
                unit,
                records.run,
                records.epochs,
                records.hardening,
                bool(records.damage),
                fingerprint,
            )
        )
    return LoadedRun(tuple(results), tuple(damage))


def _manifest_line(line: bytes) -> JSON | None:
    try:
        unit = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        return None
    if not isinstance(unit, dict):
        return None
    texts = all(isinstance(unit.get(name), str) for name in MANIFEST_TEXT_FIELDS)
    counts = all(type(unit.get(name)) is int for name in MANIFEST_COUNT_FIELDS)
    return unit if texts and counts else None
