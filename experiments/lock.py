"""One runner per run directory: an exclusive lock held for the whole invocation.

Two runners writing one directory would each run every unfinished unit and append a second
``run`` line to its file. The lock (``runner.lock``, an OS file lock through ``filelock``, released
by the OS when the process dies, so a killed runner never leaves a stale lock; a runner that ends
removes the file before it lets go) is taken without waiting; a second runner is refused with
the first one's pid, which the holder writes to ``runner.pid``. A records file of ``learn
--records FILE`` is locked the same way (:func:`records_lock`, ``FILE.lock`` beside it): two runs
appending to one file would interleave their epochs, and every later resume would refuse the file.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path

import filelock

from experiments.errors import RunDirectoryBusy

LOCK = "runner.lock"
PID = "runner.pid"


@contextlib.contextmanager
def run_directory_lock(run_dir: Path) -> Iterator[None]:
    """Hold ``run_dir``'s lock for the ``with`` block; raises :class:`RunDirectoryBusy` when another
    runner holds it."""

    def busy() -> str:
        try:
            holder = f"pid {int((run_dir / PID).read_text(encoding='ascii'))}"
        except (OSError, ValueError):
            holder = "a process that has not written its pid yet"
        return (
            f"{run_dir} is in use by another runner ({holder}); "
            "wait for it to end, or run into another directory with --out"
        )

    with _held(run_dir / LOCK, busy):
        try:
            (run_dir / PID).write_text(str(os.getpid()), encoding="ascii")
            yield
        finally:
            with contextlib.suppress(OSError):
                (run_dir / PID).unlink()


@contextlib.contextmanager
def records_lock(path: Path) -> Iterator[None]:
    """Hold the lock of the records file ``path`` for the ``with`` block; raises
    :class:`RunDirectoryBusy` when another run holds it."""

    def busy() -> str:
        return f"{path} is in use by another run; wait for it to end, or record into another file"

    with _held(path.with_name(path.name + ".lock"), busy):
        yield


@contextlib.contextmanager
def _held(lock_path: Path, busy: Callable[[], str]) -> Iterator[None]:
    lock = filelock.FileLock(lock_path, thread_local=False)
    try:
        lock.acquire(timeout=0)
    except filelock.Timeout:
        raise RunDirectoryBusy(busy()) from None
    if not lock_path.exists():  # the lock of a holder that removed its file as it ended
        lock.release()
        raise RunDirectoryBusy(busy())
    try:
        yield
    finally:
        with contextlib.suppress(OSError):  # while held: a finished run leaves no lock file behind
            lock_path.unlink()
        lock.release()
