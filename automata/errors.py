"""The errors of the automata layer.

Automaton constructions can blow up exponentially (``(a|b)*a(a|b){30}`` has a 2³¹-state DFA), so
every builder takes a ``state_limit`` and fails fast with :class:`StateLimitExceeded` instead of
exhausting memory, like ``dfa_size_limit`` in rust-lang/regex. Computations on a built automaton
whose memory grows with a length (counting tables, the shortest strings of a long language) check a
budget before they allocate and raise :class:`SizeLimitExceeded`. The message names what was being
built, the limit, and the keyword that raises it, because callers (and LLM repair prompts) show it
verbatim.
"""

from __future__ import annotations

from typing import Any

#: The ``state_limit`` every construction uses unless told otherwise.
DEFAULT_STATE_LIMIT = 200_000


class AutomataError(Exception):
    """Base class of every error raised by ``automata``."""

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt from ``args`` and the fields without calling ``__init__``, whose parameters are
        # not ``args``: an error raised in a worker process must reach its parent whole.
        return (type(self).__new__, (type(self), *self.args), self.__dict__)


#: The remedy a limit error offers a library caller; a command names its own option instead, and a
#: search whose limit no caller sets (the ReDoS analysis) shows the limit without it.
STATE_LIMIT_REMEDY = "pass a larger state_limit= to allow it"


class StateLimitExceeded(AutomataError):
    """A construction would need more states (or NFA-state entries) than its limit allows."""

    def __init__(self, what: str, limit: int, unit: str = "states") -> None:
        self.what = what
        self.limit = limit
        #: The message without the remedy, for a caller that offers the user a remedy of its own.
        self.exceeded = f"{what} needs more than {limit:,} {unit}"
        super().__init__(f"{self.exceeded}; {STATE_LIMIT_REMEDY}")


class SizeLimitExceeded(AutomataError):
    """A computation on an automaton (counting, listing strings) would need more memory than its
    budget; the message names the budget's keyword."""

    def __init__(self, what: str, size: int, limit: int, unit: str, remedy: str) -> None:
        self.what = what
        self.size = size
        self.limit = limit
        #: The message without the remedy, for a caller that offers the user remedies of its own.
        self.exceeded = f"{what} needs {size:,} {unit}, more than the {limit:,} allowed"
        super().__init__(f"{self.exceeded}; {remedy}")


class TimeLimitExceeded(AutomataError):
    """A construction ran past the time budget its caller gave (``seconds=``)."""

    def __init__(self, what: str, seconds: float) -> None:
        self.what = what
        self.seconds = seconds
        #: The message without the remedy, for a caller that offers the user a remedy of its own.
        self.exceeded = f"{what} took more than its {seconds:g} s budget"
        super().__init__(f"{self.exceeded}; give it more seconds or a simpler regex")

    def __reduce__(self) -> tuple[type[TimeLimitExceeded], tuple[str, float]]:
        return type(self), (self.what, self.seconds)


class UnsupportedRegex(AutomataError, ValueError):
    """A regex tree the compiler has no exact construction for (e.g. an assertion under ``~``)."""


class AlphabetMismatch(AutomataError, ValueError):
    """Automata over different universes cannot be combined."""
