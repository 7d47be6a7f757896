"""Reading one unit's records file, checking every line: the runner and the report read through here.

A unit's file holds one ``unit`` line (its fingerprint, :mod:`experiments.fingerprint`), then the
``epoch`` lines and the closing ``run`` line :mod:`cegis.records` appends, and for a hardening
setting one ``hardening`` line. A last line without its newline is what a kill mid-write leaves:
it is *torn*, expected, and cut by the runner before it appends. Any other line that is not valid
UTF-8, not a JSON object, of an unknown type, missing a field the runner or the report reads, or a
second ``run`` line is *damage*, reported with the file and line number; nothing is dropped
silently, because one lost epoch changes a report cell. A file whose header names another unit
(a file copied over this one's) is damage too (:func:`foreign_header`): the runner and the report
read through the same check, so the report never counts as this unit's run what ``experiment``
would refuse.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs

from experiments.errors import DamagedRecords

JSON = dict[str, Any]

#: The fields each record type must carry, with their JSON types, for the runner and the report.
_FIELDS: dict[str, dict[str, type | tuple[type, ...]]] = {
    "unit": {"fingerprint": dict},
    "epoch": {"run": str, "epoch": int, "initial": list, "added": list},
    "run": {"run": str, "outcome": str, "epochs": int, "examples": int, "totals": dict},
    "hardening": {"run": str, "cycles": list, "tokens": dict},
}


@attrs.frozen
class Damage:
    """One damaged line of a records file."""

    path: Path
    line: int
    problem: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.problem}"


@attrs.frozen
class UnitFile:
    """What a unit's records file holds (an absent file holds nothing)."""

    header: JSON | None = None
    epochs: tuple[JSON, ...] = ()
    run: JSON | None = None
    hardening: JSON | None = None
    damage: tuple[Damage, ...] = ()
    torn: bool = False

    def finished(self, *, hardening: bool = False) -> JSON | None:
        """The closing ``run`` record, or None while unfinished (with ``hardening``, also while
        the ``hardening`` line is missing)."""
        return self.run if self.hardening is not None or not hardening else None


#: The fields of a unit's identity (its key: arm, dataset, task, seed) as its manifest line and its
#: header's fingerprint spell them (the arm's name is in the key only).
_IDENTITY = (("dataset", "dataset"), ("task", "task.id"), ("seed", "config.seed"))


def foreign_header(header: JSON, unit: JSON) -> str | None:
    """Why a file whose first line is ``header`` holds another unit's records than the one of the
    manifest line ``unit`` (its key, dataset, task or seed differ), or None when they are its own.

    Only the identity is compared: a header of the same unit under another configuration (an edited
    plan) is the runner's fingerprint check, which names the fields that changed."""
    named = header.get("unit")
    if named is not None and named != unit["unit"]:
        return f"the records of unit {named!r}, not of {unit['unit']!r}"
    recorded = header["fingerprint"]
    for field, name in _IDENTITY:
        if name in recorded and recorded[name] != unit[field]:
            return f"the records of another unit ({name} {recorded[name]!r}, not {unit[field]!r})"
    return None


def read_unit_file(path: Path, unit: JSON | None = None) -> UnitFile:
    """The records of ``path``, every damaged line listed (raises ``OSError`` when unreadable);
    given ``unit``, the unit's manifest line, a header of another unit is damage of line 1."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return UnitFile()
    lines = data.split(b"\n")
    torn = lines[-1] != b""
    found: dict[str, Any] = {"epochs": []}
    damage = []
    for number, raw in enumerate(lines[:-1], start=1):
        record, problem = _record(raw)
        if problem is None and record["type"] == "run" and "run" in found:
            problem = "a second closing run record (two runners wrote this file?)"
        if problem is not None:
            damage.append(Damage(path, number, problem))
        elif record["type"] == "epoch":
            found["epochs"].append(record)
        elif record["type"] == "unit":
            foreign = None if unit is None or "header" in found else foreign_header(record, unit)
            if foreign is not None:
                damage.append(Damage(path, number, foreign))
            found.setdefault("header", record)
        else:
            found[record["type"]] = record
    return UnitFile(
        found.get("header"),
        tuple(found["epochs"]),
        found.get("run"),
        found.get("hardening"),
        tuple(damage),
        torn,
    )


def _record(raw: bytes) -> tuple[JSON, str | None]:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        return {}, f"not UTF-8 text (byte {error.start})"
    try:
        record = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as error:
        return {}, f"not a JSON record ({error})" if isinstance(
            error, json.JSONDecodeError
        ) else "JSON nested too deep"
    if not isinstance(record, dict):
        return {}, "not a JSON object"
    fields = _FIELDS.get(str(record.get("type")))
    if fields is None:
        return record, f"unknown record type {record.get('type')!r}"
    for name, kind in fields.items():
        if not isinstance(record.get(name), kind) or isinstance(record.get(name), bool):
            return record, f"{record['type']} record without a valid {name!r}"
    return record, None


def refuse_damage(
    damage: list[Damage], *, hint: str = "repair or delete those files (a deleted unit runs again)"
) -> None:
    """Raise :class:`DamagedRecords` listing ``damage`` (the first ten lines), if any."""
    if not damage:
        return
    shown = "\n".join(f"  {d}" for d in damage[:10])
    more = f"\n  ... and {len(damage) - 10} more" if len(damage) > 10 else ""
    files = len({d.path for d in damage})
    raise DamagedRecords(
        f"{len(damage)} damaged record line{'s' * (len(damage) != 1)} in {files} file{'s' * (files != 1)}"
        f" (only a torn last line is repaired):\n{shown}{more}\nTo go on, {hint}."
    )
