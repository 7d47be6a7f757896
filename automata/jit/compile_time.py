"""How long numba has spent compiling in this process, so measured run times can leave it out.

A kernel compiles once per install (then numba caches it on disk, see :mod:`automata.jit._jit`), so its
compile time is a property of the machine's history, not of the run that happened to pay it:
counting it would make a first run look tens of times slower than the same run later. numba
announces every compilation that misses its cache as a ``numba:compile`` event
(:mod:`numba.core.event`); :func:`install` listens, adds up the outermost ones (a kernel compiles
the kernels it calls inside its own event) and, when the first begins, prints one line on stderr
(:data:`MESSAGE`, once per process; a worker process calls :func:`report_to` so that its parent
says it instead, once for all of them).

:func:`compile_seconds` is the total so far, and :func:`clock` a ``perf_counter`` that stands still
while numba compiles (or this process waits for another's compilation, :func:`compiling`): the
learning loop and the teachers time with it, and records keep compile seconds apart.
Everything here is process-wide and cheap to read; without numba imported nothing compiles and
both stay at zero.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

#: Said when compiling starts (a later run may still compile kernels an earlier one did not need).
MESSAGE = "compiling kernels (cached for later runs)…"

_total = 0.0
_depth = 0
_began = 0.0
_said = False
_lock = threading.Lock()


def announce() -> None:
    """Print :data:`MESSAGE` on stderr unless this process has already printed it; on a terminal
    on a line of its own, since a progress line may be drawn there without its newline yet."""
    global _said
    with _lock:
        say = not _said
        _said = True
    if say:
        print(("\n" if sys.stderr.isatty() else "") + MESSAGE, file=sys.stderr, flush=True)


_tell: Callable[[], None] = announce


def report_to(tell: Callable[[], None]) -> None:
    """In a worker process: call ``tell`` (e.g. set an event its parent watches) instead of printing,
    so a multi-process run says it once, from the parent (:func:`announce`)."""
    global _tell
    _tell = tell


def compile_seconds() -> float:
    """Seconds numba has spent compiling in this process."""
    return _total


def clock() -> float:
    """``time.perf_counter()`` minus the compile seconds so far (including a compilation under way)."""
    with _lock:
        now = time.perf_counter()
        running = now - _began if _depth else 0.0
        return now - _total - running


def _started(announce: bool = True) -> None:
    global _depth, _began
    with _lock:
        _depth += 1
        if _depth > 1:
            return
        _began = time.perf_counter()
    if announce:
        _tell()


def _ended() -> None:
    global _depth, _total
    with _lock:
        _depth -= 1
        if _depth == 0:
            _total += time.perf_counter() - _began


@contextlib.contextmanager
def compiling(*, announce: bool = True) -> Iterator[None]:
    """Count the block as compile time. A process waiting for another's compilation of a kernel
    passes ``announce=False``: the other says it compiles, and a wait that ends in loading the
    machine code it cached (milliseconds, two workers starting together) compiles nothing."""
    _started(announce)
    try:
        yield
    finally:
        _ended()


def install() -> None:
    """Listen to numba's compile events (once; called when the first kernel is handed to numba)."""
    from numba.core import event

    class _Listener(event.Listener):
        def on_start(self, event: Any) -> None:
            _started()

        def on_end(self, event: Any) -> None:
            _ended()

    event.register("numba:compile", _Listener())  # type: ignore[no-untyped-call]
