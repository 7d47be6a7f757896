"""Ctrl-C that stops a command even while a user's learner blocks the event loop.

``asyncio.run`` replaces Python's SIGINT handler with one that cancels the main task and raises
only on a second Ctrl-C: a cancellation is delivered at the next ``await``, so a learner that
computes (or sleeps) without awaiting would ignore the first Ctrl-C. Inside :func:`interruptible`
Ctrl-C raises ``KeyboardInterrupt`` where the main thread is, as in plain Python (``asyncio.run``
leaves a handler other than Python's default in place), and ``click`` ends the command with
``Aborted!``; records already written stay, and the same command resumes from them.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from types import FrameType


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


@contextlib.contextmanager
def interruptible() -> Iterator[None]:
    """Ctrl-C raises ``KeyboardInterrupt`` at once inside the block (main thread only: signal
    handlers belong to it)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, _interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
