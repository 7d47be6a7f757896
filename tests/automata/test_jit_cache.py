"""Kernels work, with one warning, where numba finds no place to cache them (a read-only install
run by a user without a writable home)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

_ROOT = Path(__file__).resolve().parents[2]

# Imports every kernel module (decorating a kernel is where numba looked for a cache directory),
# then calls the cheapest kernel, the reachability walk behind ``is_empty`` on a hand-built DFA,
# compiled (a call this small would otherwise run as plain Python and never reach numba).
_PROBE = """
import warnings
warnings.simplefilter("always")
with warnings.catch_warnings(record=True) as caught:
    import numpy as np
    import automata, automata.strings.counting, automata.building.determinize, automata.core.minimize, automata.strings.sampling
    from automata.core.alphabet import partition
    from automata.algebra.ops import is_empty
    from regexlang.charset import SIMPLE_ALPHABET
    alphabet = partition(SIMPLE_ALPHABET, [])
    table = np.array([[1], [1], [2]], dtype=np.int32)  # state 2 accepts but cannot be reached
    dfa = automata.DFA(table, np.array([False, False, True]), 0, alphabet)
    answer = is_empty(dfa)
print(answer)
print(sum("cannot cache" in str(w.message) for w in caught))
"""


def _run(**env: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE],
        env={**os.environ, "PYTHONPATH": str(_ROOT), "REGEX_CEGIS_KERNELS": "compiled", **env},
        cwd=_ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.split("\n")


def test_no_usable_cache_directory_means_one_warning_and_working_kernels() -> None:
    # IPython's locator is the only one numba may try, and it declines every ordinary source file:
    # numba's own "no locator available" case, without touching file permissions (root ignores them).
    empty, warnings = _run(NUMBA_CACHE_LOCATOR_CLASSES="IPythonCacheLocator")[:2]
    assert empty == "True"
    assert warnings == "1"


def test_a_writable_cache_directory_gives_no_warning(tmp_path: Path) -> None:
    empty, warnings = _run(NUMBA_CACHE_DIR=str(tmp_path))[:2]
    assert empty == "True"
    assert warnings == "0"
    assert any(tmp_path.rglob("*.nbi")), "the kernels were cached in NUMBA_CACHE_DIR"
