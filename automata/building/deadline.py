"""A time budget for a construction whose cost per state is unbounded: the lookaround compiler.

Every construction is bounded by ``state_limit``, and for most that bounds the time too: a state
costs a row of table lookups. A lookaround residual is different: its derivative is an expression
that can grow at every step, so a 30-lookahead password rule spends minutes (and gigabytes) long
before its 2³⁰ states reach any limit. The caller's budget (``seconds`` of
:func:`automata.compile_regex`, e.g. a learning loop's per-call budget) enters as a
:class:`Deadline`, checked before each derivative, so the construction stops at the state limit or
the deadline, whichever comes first. The clock stands still while numba compiles or loads a
kernel (:func:`automata.jit.compile_time.clock`): a fresh process's first analysis would otherwise
spend its budget on the kernels, and its answer would depend on the process, not the regex.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

from automata.errors import TimeLimitExceeded
from automata.jit.compile_time import clock


@attrs.frozen
class Deadline:
    """The time ``at`` which a construction given ``seconds`` must stop, on the clock that leaves
    out compiling."""

    at: float
    seconds: float
    clock: Callable[[], float] = clock

    @classmethod
    def after(cls, seconds: float, on: Callable[[], float] = clock) -> Deadline:
        """The deadline ``seconds`` from now on the clock ``on`` (e.g. ``time.thread_time``: CPU
        seconds of the calling thread, whatever else the machine runs)."""
        return cls(on() + seconds, seconds, on)

    def check(self, what: str) -> None:
        """Raise :class:`TimeLimitExceeded` for ``what`` once the deadline has passed."""
        if self.left() <= 0:
            raise TimeLimitExceeded(what, self.seconds)

    def left(self) -> float:
        """The seconds left (negative once passed)."""
        return self.at - self.clock()
