"""The loop's errors for its caller's mistakes (outcomes of a run are values, never exceptions)."""

from __future__ import annotations


class RecordsError(ValueError):
    """A records file that cannot be resumed from: a malformed line, or epochs out of order."""


class LLMSetupError(ValueError):
    """An LLM run that cannot be set up as asked (the message says what is missing)."""
