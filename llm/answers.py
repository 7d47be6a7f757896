"""Reading a learner's reply: the ``<reasoning>`` and ``<ans>`` blocks, then the regex inside.

Models rarely follow an output format to the letter, so extraction is forgiving about form and
strict about content. Tags match case-insensitively and with inner spaces (``< ans >``); a block
without its closing tag ends at the next opening tag, and an unclosed last block keeps only its
first line, since a regex is one line and what follows is usually prose. Code fences inside a
block (```` ```regex ... ``` ````) and backticks around the whole answer are removed, as is
surrounding whitespace. Empty blocks are ignored (a model that *mentions* ``<ans></ans>`` in its
reasoning has not answered).

The last block is the answer; all blocks, in order, are the candidates of a multi-candidate
repair. Parsing uses the task's dialect (``regexlang.parse``), and a failure is an
:class:`AnswerError` value whose :meth:`~AnswerError.feedback` is ready for a repair prompt.
"""

from __future__ import annotations

import re
from typing import Literal

import attrs

import regexlang
from regexlang import CharSet, Dialect
from regexlang.ast import Regex

_ANS = (re.compile(r"<\s*ans\s*>", re.IGNORECASE), re.compile(r"<\s*/\s*ans\s*>", re.IGNORECASE))
_REASONING = (re.compile(r"<\s*reasoning\s*>", re.IGNORECASE), re.compile(r"<\s*/\s*reasoning\s*>", re.IGNORECASE))
_FENCE_INFO = re.compile(r"[A-Za-z0-9_+.-]*[ \t]*")
_FENCE = "```"


@attrs.frozen
class Extraction:
    """The blocks of a reply: the last reasoning block and every non-empty answer, in order."""

    reasoning: str | None
    answers: tuple[str, ...]

    @property
    def answer(self) -> str | None:
        """The final answer: the last ``<ans>`` block."""
        return self.answers[-1] if self.answers else None


@attrs.frozen
class ParsedAnswer:
    """An answer that parsed in the task's dialect."""

    text: str
    regex: Regex


@attrs.frozen
class AnswerError:
    """A reply without an answer, or an answer that does not parse; ``position`` is 0-based."""

    kind: Literal["missing", "syntax"]
    message: str
    text: str = ""
    position: int | None = None

    def feedback(self) -> str:
        """The error as a learner should read it in a repair prompt."""
        if self.position is None:
            return self.message
        caret = f"{self.text}\n{' ' * self.position}^"
        return f"{self.message} at position {self.position}:\n{caret}"


def extract(reply: str) -> Extraction:
    """Find the reasoning and the answers in ``reply`` (never raises)."""
    answers = tuple(answer for answer in (_clean(block, closed) for block, closed in _blocks(reply, *_ANS)) if answer)
    reasonings = [block.strip() for block, _ in _blocks(reply, *_REASONING, stop=_ANS[0])]
    reasoning = next((text for text in reversed(reasonings) if text), None)
    return Extraction(reasoning=reasoning, answers=answers)


def parse_answer(reply: str, dialect: Dialect, alphabet: CharSet | None = None) -> ParsedAnswer | AnswerError:
    """The last answer of ``reply`` parsed in ``dialect``, or why it cannot be."""
    answer = extract(reply).answer
    if answer is None:
        return AnswerError("missing", "the reply has no <ans>...</ans> block with a regex in it")
    return parse_regex(answer, dialect, alphabet)


def parse_candidates(
    reply: str, dialect: Dialect, alphabet: CharSet | None = None
) -> tuple[ParsedAnswer | AnswerError, ...]:
    """Every answer of a multi-candidate reply, each parsed or not, in order."""
    return tuple(parse_regex(answer, dialect, alphabet) for answer in extract(reply).answers)


def parse_regex(text: str, dialect: Dialect, alphabet: CharSet | None = None) -> ParsedAnswer | AnswerError:
    """``text`` parsed in ``dialect``, or the parser's complaint."""
    try:
        return ParsedAnswer(text, regexlang.parse(text, dialect, alphabet))
    except regexlang.RegexSyntaxError as error:
        return AnswerError("syntax", error.message, error.text, error.position)
    except regexlang.RegexError as error:
        return AnswerError("syntax", str(error), text)


def _blocks(
    text: str, opening: re.Pattern[str], closing: re.Pattern[str], stop: re.Pattern[str] | None = None
) -> list[tuple[str, bool]]:
    """Each block's raw text and whether it was closed; an unclosed one ends at ``opening`` or ``stop``."""
    blocks = []
    position = 0
    while (start := opening.search(text, position)) is not None:
        body = start.end()
        close = closing.search(text, body)
        end = len(text)
        for boundary in (opening, stop):
            match = None if boundary is None else boundary.search(text, body)
            if match is not None:
                end = min(end, match.start())
        if close is not None and close.start() <= end:
            blocks.append((text[body : close.start()], True))
            position = close.end()
        else:
            blocks.append((text[body:end], False))
            position = end
    return blocks


def _clean(block: str, closed: bool) -> str:
    text = block.strip()
    if text.startswith(_FENCE):
        text = text[len(_FENCE) :]
        info, newline, rest = text.partition("\n")
        if newline and _FENCE_INFO.fullmatch(info):
            text = rest
        text = text.split(_FENCE, 1)[0]
    elif text.endswith(_FENCE):
        text = text[: -len(_FENCE)]
    text = text.strip()
    if not closed:
        text = text.split("\n", 1)[0].strip()
    if len(text) >= 2 and text[0] == text[-1] == "`" and "`" not in text[1:-1]:
        text = text[1:-1].strip()
    return text
