"""When to try an HTTP call again, and how long to wait first.

Transient trouble is retried: connection errors, timeouts, malformed bodies, 408, 409, 429 and
5xx. A caller's mistake is not (400, 401, 403, 404, 422), nor a 429 whose error code says the
account's quota is exhausted (``insufficient_quota``): waiting will not refill it. As in
openai-python, the server's ``x-should-retry: true|false`` header overrides the status rules.

The wait honours the server first: ``retry-after-ms`` (OpenAI's millisecond header), then
``Retry-After`` in seconds or as an HTTP date. A requested wait above ``max_retry_after`` is not
slept through: the call fails at once with the wait in its message, so a confused (or
rate-limiting) server cannot park a run for an hour and the caller decides what to do. Without a
hint the wait is exponential backoff, 0.5 s doubling to 8 s, shortened by up to a quarter at
random so that many clients that failed together do not retry in lockstep. The random source and
the clock are arguments, so tests run without sleeping.
"""

from __future__ import annotations

import datetime
import email.utils
import math
from collections.abc import Mapping

import attrs
import numpy as np

QUOTA_EXHAUSTED = "insufficient_quota"


@attrs.frozen
class RetryPolicy:
    """How many attempts a call gets and the backoff between them."""

    max_attempts: int = 6
    initial_delay: float = 0.5
    max_delay: float = 8.0
    max_retry_after: float = 60.0
    jitter: float = 0.25
    #: A refused connection is retried (a server restarting mid-run) unless false: a check before a
    #: run says at once that nothing listens, rather than after the whole backoff schedule.
    retry_refused: bool = True

    def delay(self, retry: int, retry_after: float | None, rng: np.random.Generator) -> float:
        """Seconds to wait before retry number ``retry`` (1 for the first retry)."""
        if retry_after is not None:
            return min(max(retry_after, 0.0), self.max_retry_after)
        base = min(self.max_delay, self.initial_delay * 2.0 ** (retry - 1))
        return base * (1.0 - self.jitter * float(rng.random()))


def is_retryable_status(status: int, quota_exhausted: bool) -> bool:
    """Whether an HTTP error status is worth another attempt."""
    if status == 429:
        return not quota_exhausted
    return status in (408, 409) or status >= 500


def should_retry_header(headers: Mapping[str, str]) -> bool | None:
    """The server's ``x-should-retry`` verdict, or ``None`` when it gave none."""
    value = headers.get("x-should-retry")
    if value == "true":
        return True
    if value == "false":
        return False
    return None


def retry_after_seconds(headers: Mapping[str, str], now: float) -> float | None:
    """The server's requested wait in seconds, or ``None`` when it gave no usable hint.

    ``now`` is the wall-clock time (``time.time()``) that an HTTP-date hint is measured from.
    """
    lowered = {name.lower(): value.strip() for name, value in headers.items()}
    millis = _number(lowered.get("retry-after-ms"))
    if millis is not None:
        return millis / 1000.0
    value = lowered.get("retry-after")
    if value is None:
        return None
    seconds = _number(value)
    if seconds is not None:
        return seconds
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:  # "-0000" dates parse naive; HTTP dates are always UTC
        when = when.replace(tzinfo=datetime.UTC)
    return max(when.timestamp() - now, 0.0)


def _number(text: str | None) -> float | None:
    if text is None:
        return None
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) and value >= 0 else None
