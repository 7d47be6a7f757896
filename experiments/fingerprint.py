"""A unit's fingerprint: everything that determines its result, as flat named fields.

A unit's records are its result only under the configuration that wrote them, so the first line of
every unit's file is its fingerprint: the task (its id, target, dialect, alphabet and description,
the dataset content the unit reads), the arm (learner, LLM setting with its sampling, model,
protocol), the model the server says it serves for the arm (``served_model``: a plan that names no
model runs whatever the server serves), the effective teacher profile, the loop config (teacher
settings, budgets, seed) and the project version. The runner compares each existing file's
fingerprint with the plan's before any unit runs and refuses on a difference, naming the fields
(:func:`differences`), so an edited plan never reports old numbers under new settings, and a unit
begun with one model is never continued by another. A served model that is unknown on either side
(no server was asked, or it lists no models) is not compared.
"""

from __future__ import annotations

import json
from importlib import metadata
from typing import Any

import attrs

from experiments.plan import Plan, arm_setting, loop_config
from experiments.units import Unit

Fingerprint = dict[str, Any]


def _installed_version() -> str:
    try:
        return metadata.version("regex-cegis")
    except metadata.PackageNotFoundError:
        return "unknown"


#: The installed version of this project (``unknown`` when run from an uninstalled tree), read once
#: per process: ``importlib.metadata`` scans the import path for it on every call (milliseconds,
#: paid per unit when it was read per fingerprint).
PROJECT_VERSION = _installed_version()


#: The field of the model the server reported, compared only when both sides know it.
SERVED_MODEL = "served_model"


def fingerprint(unit: Unit, plan: Plan, served_model: str | None = None) -> Fingerprint:
    """The unit's fingerprint as flat ``dotted.name → JSON scalar`` fields; ``served_model``: the
    model the server serves for an LLM unit, when known."""
    task = unit.task
    setting = arm_setting(unit.arm)
    nested = {
        "version": PROJECT_VERSION,
        "dataset": unit.dataset,
        "task": {
            "id": task.id,
            "dialect": task.dialect,
            "target": task.target,
            "alphabet": [list(i) for i in task.alphabet.intervals],
            "description": task.description,
        },
        "learner": unit.arm.learner,
        "model": unit.arm.model,
        SERVED_MODEL: served_model,
        "protocol": unit.arm.protocol,
        "teacher_profile": unit.arm.profile or plan.teacher_profile,
        "llm_setting": None if setting is None else attrs.asdict(setting),
        "config": loop_config(plan, unit.arm, unit.seed).to_json(),
    }
    return _flat(json.loads(json.dumps(nested, default=str)))


def _flat(value: Any, prefix: str = "") -> Fingerprint:
    if isinstance(value, dict) and value:
        out: Fingerprint = {}
        for key, item in value.items():
            out |= _flat(item, f"{prefix}.{key}" if prefix else str(key))
        return out
    return {prefix: value}


def differences(recorded: Fingerprint, expected: Fingerprint) -> list[str]:
    """The fields that differ, each as ``name: recorded → expected``."""
    names = sorted(set(recorded) | set(expected))
    if recorded.get(SERVED_MODEL) is None or expected.get(SERVED_MODEL) is None:
        names = [name for name in names if name != SERVED_MODEL]
    return [
        f"{name}: {json.dumps(recorded.get(name))} → {json.dumps(expected.get(name))}"
        for name in names
        if recorded.get(name) != expected.get(name)
    ]
