"""The import contracts of ``setup.cfg`` cover modules nobody listed: a new module that crosses a
layer breaks exactly the contract it crosses, with no edit to the contract.

Each case copies the packages into a temporary directory, adds one module there and runs
``lint-imports`` on the copy (the working tree is never touched)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("regexlang", "automata", "oracle", "llm", "cegis", "experiments", "cli")

BENCHMARKS = "Benchmarks are a leaf: only the command line imports them"
APART = "The symbolic and the LLM learners are independent of each other"
LOOP = "Learners stand on the loop"
ROOMS = "The merging learner's rooms"


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    copy = tmp_path_factory.mktemp("tree")
    for package in PACKAGES:
        shutil.copytree(
            ROOT / package, copy / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    shutil.copy(ROOT / "setup.cfg", copy / "setup.cfg")
    return copy


def broken(tree: Path) -> set[str]:
    """The names of the contracts ``lint-imports`` reports broken on ``tree``."""
    script = (
        "import sys; from importlinter.cli import lint_imports; "
        "sys.exit(lint_imports(no_cache=True, no_logo=True))"
    )
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    summary = done.stdout.partition("dependencies.")[2].partition("Contracts:")[0]
    verdicts = re.findall(
        r"(.+?) (KEPT|BROKEN)", " ".join(summary.replace("-", " ").split())
    )  # names wrap over lines
    assert len(verdicts) >= 6, done.stdout + done.stderr
    names = {name.strip() for name, verdict in verdicts if verdict == "BROKEN"}
    assert (done.returncode == 0) == (not names), done.stdout + done.stderr
    return names


@pytest.mark.parametrize(
    ("module", "imports", "contracts"),
    [
        ("experiments/warmup_extra.py", "experiments.bench.learners", {BENCHMARKS}),
        ("cegis/new_core.py", "cegis.symbolic.merging", {LOOP}),
        ("cegis/records_extra.py", "cegis.llm.learner", {LOOP}),
        ("cegis/symbolic/new_family.py", "cegis.llm.prompts", {APART, LOOP}),
        ("cegis/llm/new_part.py", "cegis.symbolic.lstar", {APART, LOOP}),
        (
            "cegis/symbolic/merging/families/new_family.py",
            "cegis.symbolic.merging.rounds.selection",
            {ROOMS},
        ),
        ("cegis/symbolic/merging/core/new_kernel.py", "cegis.symbolic.merging.candidate", {ROOMS}),
        (
            "cegis/symbolic/merging/stray.py",
            "cegis.symbolic.merging.core.symbols",
            {ROOMS},
        ),  # in no room
    ],
)
def test_a_new_module_that_crosses_a_layer_breaks_its_contract(
    tree: Path, module: str, imports: str, contracts: set[str]
) -> None:
    path = tree / module
    path.write_text(f'"""A module nobody listed."""\n\nimport {imports}\n')
    try:
        names = broken(tree)
    finally:
        path.unlink()
    assert all(any(name.startswith(c) for c in contracts) for name in names), names
    assert all(any(name.startswith(c) for name in names) for c in contracts), names
