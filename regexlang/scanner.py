"""A position-tracking cursor over regex text, shared by the three dialect parsers.

Every parser here is a hand-written recursive descent over characters, and every error must carry
the 0-based position of the offending character. Keeping the cursor and the error construction in
one small class means each parser states *what* went wrong (``raise scan.error("nothing to
repeat")``) and never computes positions by hand; ``at=`` points an error back at the start of a
construct (the ``{`` of a bad repetition, the ``(`` of an unclosed group).
"""

from __future__ import annotations

from regexlang.errors import RegexSyntaxError, UnsupportedFeature


class Scanner:
    """A cursor over ``text``; ``pos`` is the index of the next unread character."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def at_end(self) -> bool:
        """Whether every character has been read."""
        return self.pos >= len(self.text)

    def peek(self, offset: int = 0) -> str:
        """The character ``offset`` places ahead, or ``""`` past the end."""
        index = self.pos + offset
        return self.text[index] if index < len(self.text) else ""

    def next(self) -> str:
        """Read one character (``""`` at the end, without moving)."""
        char = self.peek()
        if char:
            self.pos += 1
        return char

    def accept(self, literal: str) -> bool:
        """Read ``literal`` if the text continues with it."""
        if self.text.startswith(literal, self.pos):
            self.pos += len(literal)
            return True
        return False

    def take_while(self, allowed: str | frozenset[str], limit: int | None = None) -> str:
        """Read up to ``limit`` characters from ``allowed`` and return them."""
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos] in allowed:
            if limit is not None and self.pos - start >= limit:
                break
            self.pos += 1
        return self.text[start : self.pos]

    def error(self, message: str, at: int | None = None) -> RegexSyntaxError:
        """A syntax error at ``at`` (default: the current position)."""
        return RegexSyntaxError(message, self.text, self.pos if at is None else at)

    def unsupported(self, message: str, at: int | None = None) -> UnsupportedFeature:
        """Valid syntax of a feature that is not regular or not supported, at ``at``."""
        return UnsupportedFeature(message, self.text, self.pos if at is None else at)


#: The largest count accepted in ``{n}``/``{n,m}``; ``re`` allows far more, but a learner writing
#: ``a{200000}`` has made a mistake, and automata for such counts would not fit in memory anyway.
MAX_REPEAT_COUNT = 100_000

#: Deepest group nesting accepted. The parsers recurse once per group level, so a bound here turns a
#: would-be ``RecursionError`` into a syntax error at the offending parenthesis. No benchmark regex
#: nests deeper than 12.
MAX_NESTING = 100

#: Deepest tree a parse may return: groups, prefix and postfix operators each add a level
#: (``~~~a``, ``a***`` nest without parentheses). Printers, the normalizer and the compilers recurse
#: over trees, up to three or four frames per level (the python printer on alternating stars,
#: unions and concatenations); at this depth they need at most ~600 frames, which leaves room under
#: Python's default limit of 1000 for their callers, so no ``RecursionError`` follows a parse.
MAX_DEPTH = 150
