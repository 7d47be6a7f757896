"""The errors of the LLM edge.

A misbehaving *server* never raises: the client turns errors, timeouts, garbage and truncation into
typed result values (:mod:`llm.results`). Exceptions are kept for mistakes of the *caller* or of
the environment that no retry can fix: an unusable configuration, an ambiguous model choice, a
replay that asks for something the log never saw.
"""

from __future__ import annotations

from typing import Any


class LLMError(Exception):
    """Base class of every exception raised by ``llm``."""

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt from ``args`` and the fields without calling ``__init__``, whose parameters are
        # not ``args``: an error raised in a worker process must reach its parent whole.
        return (type(self).__new__, (type(self), *self.args), self.__dict__)


class ConfigError(LLMError, ValueError):
    """A setting that cannot work (a base URL without a scheme, a concurrency below one...)."""


class ModelDiscoveryError(LLMError):
    """No model could be chosen; ``served`` lists the ids the server (or the log) offers."""

    def __init__(self, message: str, served: tuple[str, ...]) -> None:
        self.served = served
        listing = ", ".join(served) if served else "none"
        super().__init__(f"{message} (served: {listing})")


class ReplayMiss(LLMError, LookupError):
    """Replay mode was asked a request that the call log does not hold."""

    def __init__(self, key: str, model: str) -> None:
        self.key = key
        self.model = model
        super().__init__(f"no logged call for model {model!r} with request key {key[:16]}…")


class MalformedResponse(LLMError, ValueError):
    """A body that is not the JSON the protocol promises; the client turns it into a ``Failed``."""


#: What to do about a call log that is not a readable log.
DAMAGED = (
    "The file is damaged or not a call log: move it aside and re-run in record mode (calls it held will be"
    " paid for again), or try `sqlite3 FILE .recover`."
)


class CallLogError(LLMError):
    """A call log file that cannot be read or written (damaged, read-only, locked); the message says which."""

    def __init__(self, path: str, problem: str, advice: str = DAMAGED) -> None:
        self.path = path
        super().__init__(f"call log {path} is unusable: {problem}. {advice}")
