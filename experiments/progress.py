"""The progress line of anything that runs many units: done, successes, tokens spent and the time left.

On a terminal the line is redrawn in place (padded over the longer line it replaces, so no stale
characters stay at its end); elsewhere (CI logs, files) a line is printed at most every ``every``
seconds and at the end, so logs stay short. While units run, :meth:`Progress.ticking` redraws the
line every ``tick`` seconds, so ``elapsed`` moves during calls that take minutes. The time left is
estimated from units done, or, while units run in lockstep and few have ended, from model calls:
the runner counts each call (:meth:`Progress.call_made`) and says how many it still expects
(``calls_left``). The experiment runner counts into a :class:`Progress` itself; a benchmark that
collects results from a process pool wraps their iterator in :func:`reporting` (``noun`` names
what is counted, and a benchmark spends no tokens). Only this module writes progress.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from typing import TextIO, TypeVar

import attrs

T = TypeVar("T")


@attrs.define
class Progress:
    """Counts the runner reports into, and the one line that shows them."""

    total: int
    done: int = 0
    succeeded: int = 0
    tokens: int = 0
    #: Calls whose usage a server left unreported: ``tokens`` is then a lower bound, shown as one.
    unreported: int = 0
    errors: int = 0
    interrupted: int = 0
    out: TextIO = sys.stderr
    clock: Callable[[], float] = time.monotonic
    every: float = 10.0
    noun: str = "units"
    show_tokens: bool = True
    tick: float = 1.0  # seconds between redraws while units run (:meth:`ticking`)
    #: Model calls still expected, when the runner can say (the ETA then counts calls).
    calls_left: Callable[[], float] | None = None
    calls: int = 0
    started: float = attrs.field(init=False)
    _first_call: float | None = attrs.field(init=False, default=None)
    counted_at_start: int = attrs.field(init=False, default=0)
    _shown: float = attrs.field(init=False, default=float("-inf"))
    _drawn: int = attrs.field(init=False, default=0)  # characters of the line now on the terminal

    def __attrs_post_init__(self) -> None:
        self.started = self.clock()

    def resume(self, done: int, succeeded: int, tokens: int, unreported: int = 0) -> None:
        """Count units a previous invocation already finished (they do not count toward the ETA)."""
        self.done += done
        self.succeeded += succeeded
        self.tokens += tokens
        self.unreported += unreported
        self.counted_at_start = self.done

    def unit_finished(self, success: bool, tokens: int, unreported: int = 0) -> None:
        """One more unit is done, having spent ``tokens`` as reported over its calls but
        ``unreported`` ones."""
        self.done += 1
        self.succeeded += int(success)
        self.tokens += tokens
        self.unreported += unreported
        self.show()

    def unit_failed(self) -> None:
        """One unit raised an error (it is logged, the run goes on)."""
        self.done += 1
        self.errors += 1
        self.show()

    def call_made(self) -> None:
        """One more model call answered (it feeds the ETA while units run in lockstep)."""
        if self._first_call is None:
            self._first_call = self.clock()
        self.calls += 1

    @contextlib.asynccontextmanager
    async def ticking(self) -> AsyncIterator[None]:
        """Redraw the line every ``tick`` seconds for the ``async with`` block."""

        async def redraw() -> None:
            while True:
                await asyncio.sleep(self.tick)
                self.show()

        task = asyncio.create_task(redraw())
        try:
            yield
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def unit_interrupted(self) -> None:
        """One unit stopped because its model server failed; it stays unfinished (not done)."""
        self.interrupted += 1
        self.show()

    def note(self, message: str) -> None:
        """A one-line message of its own (on a terminal, below the progress line)."""
        self.out.write(("\n" if self._drawn else "") + message + "\n")
        self._drawn = 0
        self.out.flush()

    def _tokens(self) -> str:
        if not self.unreported:
            return f"tokens {self.tokens:,}"
        calls = f"{self.unreported} call{'s' * (self.unreported != 1)}"
        return f"tokens ≥ {self.tokens:,} ({calls} unreported)"

    def line(self) -> str:
        """The progress line's text."""
        now = self.clock()
        elapsed = now - self.started
        fresh = self.done - self.counted_at_start
        left = self.total - self.done
        by_units = None if fresh == 0 else elapsed / fresh * left
        by_calls = self._by_calls(now)
        # in lockstep units end together at the end: until a few have ended, calls tell more
        lockstep = fresh < max(1, (self.total - self.counted_at_start) // 10)
        estimate = by_calls if by_calls is not None and (lockstep or by_units is None) else by_units
        eta = "—" if estimate is None else _duration(estimate)
        parts = [
            f"{self.noun} {self.done}/{self.total}",
            f"succeeded {self.succeeded}",
            *([self._tokens()] if self.show_tokens else []),
            f"elapsed {_duration(elapsed)}",
            f"ETA {eta}",
        ]
        if self.errors:
            parts.append(f"errors {self.errors}")
        if self.interrupted:
            parts.append(f"unfinished (server failed) {self.interrupted}")
        return " · ".join(parts)

    def _by_calls(self, now: float) -> float | None:
        """Seconds left at the rate calls were answered so far, when the calls left are known."""
        if self.calls_left is None or self._first_call is None or self.calls == 0:
            return None
        return (now - self._first_call) / self.calls * max(0.0, self.calls_left())

    def show(self, *, final: bool = False) -> None:
        """Redraw the line on a terminal, or print it now and then elsewhere."""
        now = self.clock()
        if self.out.isatty():
            text = self.line()
            self.out.write("\r" + text.ljust(self._drawn) + ("\n" if final else ""))
            self._drawn = 0 if final else len(text)
        elif final or now - self._shown >= self.every:
            self.out.write(self.line() + "\n")
        else:
            return
        self._shown = now
        self.out.flush()


def reporting(
    results: Iterable[T],
    total: int,
    *,
    noun: str,
    succeeded: Callable[[T], bool],
    out: TextIO | None = None,
) -> Iterator[T]:
    """``results`` as they come, the progress line drawn at the start, after each and at the end."""
    track = Progress(total, out=sys.stderr if out is None else out, noun=noun, show_tokens=False)
    track.show()
    for result in results:
        track.unit_finished(succeeded(result), 0)
        yield result
    track.show(final=True)


def _duration(seconds: float) -> str:
    seconds = int(seconds)
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"
