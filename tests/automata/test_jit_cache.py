"""Kernels work, with one warning, where numba finds no place to cache them (a read-only install
run by a user without a writable home)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

_ROOT = Path(__file__).resolve().parents[2]

# Imports every kernel module, runs the small compiler's kernel (the cheapest to compile), reports.
_PROBE = """
import warnings
warnings.simplefilter("always")
with warnings.catch_warnings(record=True) as caught:
    import automata, automata.counting, automata.sampling, automata.determinize
    from automata.compile import from_text
    from automata.ops import equivalence_witness
    witness = equivalence_witness(from_text("(a|b)*a", "python"), from_text("(a|b)*b", "python"))
print(witness.string, witness.accepted_by)
print(sum("cannot cache" in str(w.message) for w in caught))
"""


def _run(**env: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE],
        env={**os.environ, "PYTHONPATH": str(_ROOT), **env},
        cwd=_ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.split("\n")


def test_no_usable_cache_directory_means_one_warning_and_working_kernels() -> None:
    # IPython's locator is the only one numba may try, and it declines every ordinary source file:
    # numba's own "no locator available" case, without touching file permissions (root ignores them).
    witness, warnings = _run(NUMBA_CACHE_LOCATOR_CLASSES="IPythonCacheLocator")[:2]
    assert witness == "a left"
    assert warnings == "1"


def test_a_writable_cache_directory_gives_no_warning(tmp_path: Path) -> None:
    witness, warnings = _run(NUMBA_CACHE_DIR=str(tmp_path))[:2]
    assert witness == "a left"
    assert warnings == "0"
    assert any(tmp_path.rglob("*.nbi")), "the kernels were cached in NUMBA_CACHE_DIR"
