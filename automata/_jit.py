"""The one decorator every numba kernel of ``automata`` goes through, and its on-disk cache policy.

Why one place: numba decides at decoration time, i.e. while our modules are being imported, where
the machine code of a ``cache=True`` kernel will live, and raises ``RuntimeError("cannot cache
function ...: no locator available")`` when it finds no writable place. A read-only install
(site-packages not writable) run by a user without a writable home would then fail on
``import automata``. Here that case falls back to compiling in memory on every run, with a single
warning, and everything still works, only the first call of each kernel in a process is slower.

Where the cache lives (numba's own order, first usable wins): ``$NUMBA_CACHE_DIR`` when set; the
``__pycache__`` directory next to each kernel's source file; numba's per-user cache directory
(``~/.cache/numba`` on Linux). Kernels carry no explicit signatures, so importing a module compiles
nothing; the first call compiles, or loads the cached machine code.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import TypeVar, cast

import numba

F = TypeVar("F", bound=Callable[..., object])

_NO_LOCATOR = "no locator available"


def kernel(function: F) -> F:
    """``numba.njit(cache=True)``, or ``numba.njit`` with one warning when no cache directory is usable."""
    try:
        compiled = numba.njit(cache=True)(function)
    except RuntimeError as error:
        if _NO_LOCATOR not in str(error):
            raise
        _warn_uncached()
        compiled = numba.njit(function)
    return cast(F, compiled)


@functools.cache
def _warn_uncached() -> None:
    """Warn once per process: the first kernel that cannot be cached speaks for all of them."""
    warnings.warn(
        "numba cannot cache compiled kernels here (no writable cache directory); compiling in memory "
        "on every run instead. Set NUMBA_CACHE_DIR to a writable directory to keep the cache.",
        RuntimeWarning,
        stacklevel=4,
    )
