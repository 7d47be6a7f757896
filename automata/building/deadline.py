"""A time budget for a construction whose cost per state is unbounded: the lookaround compiler.

Every construction is bounded by ``state_limit``, and for most that bounds the time too: a state
costs a row of table lookups. A lookaround residual is different: its derivative is an expression
that can grow at every step, so a 30-lookahead password rule spends minutes (and gigabytes) long
before its 2³⁰ states reach any limit. The caller's budget (``seconds`` of
:func:`automata.compile_regex`, e.g. a learning loop's per-call budget) enters as a
:class:`Deadline`, checked before each derivative, so the construction stops at the state limit or
the deadline, whichever comes first.
"""

from __future__ import annotations

import time

import attrs

from automata.errors import TimeLimitExceeded


@attrs.frozen
class Deadline:
    """The monotonic-clock time ``at`` which a construction given ``seconds`` must stop."""

    at: float
    seconds: float

    @classmethod
    def after(cls, seconds: float) -> Deadline:
        """The deadline ``seconds`` from now."""
        return cls(time.monotonic() + seconds, seconds)

    def check(self, what: str) -> None:
        """Raise :class:`TimeLimitExceeded` for ``what`` once the deadline has passed."""
        if time.monotonic() >= self.at:
            raise TimeLimitExceeded(what, self.seconds)
