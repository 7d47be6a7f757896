"""The command line's one convention for bad input: a clear message, exit code 2, no traceback.

Every command reports input it cannot use (a regex that does not parse, a limit out of range, a
missing or malformed file) by raising :class:`BadInput`; ``click`` prints ``Error: <message>`` and
exits with 2, the code it already uses for usage errors, so scripts see one code for "you gave me
something I cannot use". Exit code 1 is left for a command's own negative answer (``regex
--against`` when the two languages differ).
"""

from __future__ import annotations

from pathlib import Path

import click

from automata.errors import STATE_LIMIT_REMEDY, StateLimitExceeded, TimeLimitExceeded
from regexlang import RegexSyntaxError


class BadInput(click.ClickException):
    """Input the command cannot use; exits with code 2."""

    exit_code = 2


#: The largest --state-limit: 10 million states took 31 s and 1.6 GB on the 25-fold counter
#: ``(a|b)*a(a|b){24}`` (it needs 2^25); beyond, a machine runs out of memory before the limit.
MAX_STATE_LIMIT = 10_000_000


def syntax_error(error: RegexSyntaxError, label: str = "") -> BadInput:
    """A syntax error as one message line saying the regex follows with a caret under the
    position, then those two lines."""
    prefix = f"{label}: " if label else ""
    return BadInput(
        f"{prefix}{error.message} at position {error.position}, marked below:\n{error.caret()}"
    )


def limit_error(message: object, label: str = "") -> BadInput:
    """An automata limit error (or a message quoting one) with the remedy the command offers:
    its ``--state-limit`` or ``--seconds`` option, not the library's keyword."""
    prefix = f"{label}: " if label else ""
    remedy = f"pass a larger --state-limit (at most {MAX_STATE_LIMIT:,})"
    if isinstance(message, StateLimitExceeded):
        return BadInput(f"{prefix}{message.exceeded}; {remedy}")
    if isinstance(message, TimeLimitExceeded):
        return BadInput(f"{prefix}{message.exceeded}; pass a larger --seconds or a simpler regex")
    return BadInput(prefix + str(message).replace(STATE_LIMIT_REMEDY, remedy))


def unwritable(run_dir: Path, error: OSError) -> str:
    """The message for a run directory that cannot be read or written (read-only, full disk, ...)."""
    where = error.filename or run_dir
    return (
        f"cannot use the run directory {run_dir}: {error.strerror or error} ({where}); the records"
        " already written are kept; fix it and run the same command again"
    )


class OutputLost(click.ClickException):
    """Standard output could not take the command's output (a full disk, ``> /dev/full``); exits
    with code 2 whatever the command's own answer was."""

    exit_code = 2
