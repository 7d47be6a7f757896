"""Standard output that its reader may close (``learn … | head -1``) or that cannot take the output
(``> /dev/full``, a full disk).

Python ignores SIGPIPE, so a write after the reader has gone raises ``BrokenPipeError``, and
``click`` turns that into exit code 1 wherever it happens (half the time, for a reader such as
``head -1``, depending on whether the last line was written before it left). Nobody reads the rest,
so the rest is dropped: :func:`tolerate_closed_stdout` wraps ``sys.stdout`` so that the first
broken write points the descriptor at ``/dev/null`` and the command goes on to its own exit code.

Any other failed write (no space left, an I/O error) loses output someone wanted. The command still
runs to its end (an experiment's records are files of their own, and stopping halfway would lose
more), the rest of its output is dropped the same way, and :func:`output_lost` then says what
happened, so the group ends with one line on standard error instead of an ``OSError`` traceback
from deep inside ``click.echo``.
"""

from __future__ import annotations

import os
import sys
from typing import Any, TextIO


class _Tolerant:
    """``stream`` with its writes and flushes sent to ``/dev/null`` once its reader has gone or a
    write has failed; ``lost`` keeps the failure that lost output."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self.lost: OSError | None = None

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except OSError as error:
            self._discard(error)
            return len(text)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as error:
            self._discard(error)

    def _discard(self, error: OSError) -> None:
        if not isinstance(error, BrokenPipeError) and self.lost is None:
            self.lost = error
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, self._stream.fileno())
        os.close(devnull)
        try:  # what the failed write left in the buffer now goes to /dev/null, not to exit's flush
            self._stream.flush()
        except OSError:
            pass

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


def output_lost() -> str | None:
    """Why standard output lost some of the command's output (``None`` when it lost none)."""
    stream = sys.stdout
    lost = stream.lost if isinstance(stream, _Tolerant) else None
    if lost is None:
        return None
    return f"cannot write to standard output: {lost.strerror or lost}; the output from there on is lost"
