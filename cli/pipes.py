"""Standard output that its reader may close: ``learn … | head -1`` is not an error.

Python ignores SIGPIPE, so a write after the reader has gone raises ``BrokenPipeError``, and
``click`` turns that into exit code 1 wherever it happens (half the time, for a reader such as
``head -1``, depending on whether the last line was written before it left). Nobody reads the rest,
so the rest is dropped: :func:`tolerate_closed_stdout` wraps ``sys.stdout`` so that the first
broken write points the descriptor at ``/dev/null`` and the command goes on to its own exit code.
"""

from __future__ import annotations

import os
import sys
from typing import Any, TextIO


class _Tolerant:
    """``stream`` with its writes and flushes sent to ``/dev/null`` once its reader has gone."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            self._discard()
            return len(text)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            self._discard()

    def _discard(self) -> None:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, self._stream.fileno())
        os.close(devnull)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def tolerate_closed_stdout() -> None:
    """Wrap ``sys.stdout`` (a real descriptor only: a test runner's capture is left alone)."""
    stream = sys.stdout
    try:
        stream.fileno()
    except (AttributeError, OSError, ValueError):
        return
    if not isinstance(stream, _Tolerant):
        sys.stdout = _Tolerant(stream)
