"""The errors of the regex front end.

Messages are short and precise because they are shown verbatim to a learner (an LLM) in repair
prompts: they name the construct and the 0-based position, and ``caret()`` draws the position
under the text.
"""

from __future__ import annotations

from typing import Any


class RegexError(ValueError):
    """Base class of every error raised by ``regexlang``."""

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt from ``args`` and the fields without calling ``__init__``, whose parameters are
        # not ``args``: an error raised in a worker process must reach its parent whole.
        return (type(self).__new__, (type(self), *self.args), self.__dict__)


class RegexSyntaxError(RegexError):
    """Text that is not a regex of the requested dialect."""

    def __init__(self, message: str, text: str, position: int) -> None:
        self.message = message
        self.text = text
        self.position = max(0, min(position, len(text)))
        super().__init__(f"{message} at {self.position}")

    def caret(self) -> str:
        """The text and a caret line under the offending position."""
        return f"{self.text}\n{' ' * self.position}^"


class UnsupportedFeature(RegexSyntaxError):
    """Valid syntax that denotes no regular language or that the AST cannot hold: a backreference,
    a lookaround, an atomic group, a possessive quantifier, a conditional group or an unsupported
    flag. A subclass of :class:`RegexSyntaxError` (it has the position and caret) that a caller can
    tell apart from a typo: the fix is to rewrite the regex without the feature, not to correct it."""


class NotExpressible(RegexError):
    """An AST that the requested dialect cannot print (e.g. intersection in the python dialect)."""
