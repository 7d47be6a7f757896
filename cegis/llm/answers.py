r"""Reading a learner's reply: the ``<reasoning>`` and ``<ans>`` blocks, then the regex inside.

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

What parsing forgives is said in :attr:`ParsedAnswer.notes`, so a run can count it:

* Python dialect: a model that writes code rather than a regex wraps it as ``r"\d+"``,
  ``'\d+'``, ``/\d+/`` or ``re.compile(r'\d+')``. The wrapper is removed and the regex inside is
  read as written (as a raw string). A plain (non-raw) literal holding an escape that Python
  would translate (``'\b'`` is a backspace there, ``'\\d'`` is ``\d``) is a syntax error instead,
  since the intent cannot be known (``'\d+'``, which Python keeps as is, is fine); so is
  a ``re.compile`` with flags (write them inline, ``(?i)``). A regex meant to match a literal
  ``/x/`` must be written without the slashes at both ends, e.g. ``\/x\/``.
* Simple dialect: the prompt offers only ``+`` for union, but ``|`` (and ``.`` for concatenation)
  are accepted because pyformlang accepts them with the same meaning; the answer is lenient-parsed
  and noted, not rejected.
"""

from __future__ import annotations

import re
from typing import Literal

import attrs

import regexlang
from regexlang import CharSet, Dialect
from regexlang.ast import Regex

_ANS = (re.compile(r"<\s*ans\s*>", re.IGNORECASE), re.compile(r"<\s*/\s*ans\s*>", re.IGNORECASE))
_REASONING = (
    re.compile(r"<\s*reasoning\s*>", re.IGNORECASE),
    re.compile(r"<\s*/\s*reasoning\s*>", re.IGNORECASE),
)
_FENCE_INFO = re.compile(r"[A-Za-z0-9_+.-]*[ \t]*")
_FENCE = "```"
_PY_CALL = re.compile(r"re\s*\.\s*(?:compile|fullmatch|match|search)\s*\((?P<args>.*)\)", re.DOTALL)
_PY_LITERAL = re.compile(
    r"(?P<raw>[rR]?)(?P<quote>[\"'])(?P<body>(?:\\.|(?!(?P=quote)).)*)(?P=quote)\s*(?P<rest>.*)",
    re.DOTALL,
)
# escapes a plain Python string literal would turn into other characters ('\d' it keeps as is)
_PY_ESCAPE = re.compile(r"\\[\\'\"abfnrtv0-7xNuU\n]")
_SLASHED = re.compile(r"/(?P<body>.+)/", re.DOTALL)
_SIMPLE_EXTRAS = (
    ("|", "'|' for union (the prompt's syntax has '+')"),
    (".", "'.' for concatenation"),
)


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
    notes: tuple[str, ...] = ()

    @property
    def lenient(self) -> bool:
        """Whether parsing forgave something (see ``notes``)."""
        return bool(self.notes)


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
    answers = tuple(
        answer
        for answer in (_clean(block, closed) for block, closed in _blocks(reply, *_ANS))
        if answer
    )
    reasonings = [block.strip() for block, _ in _blocks(reply, *_REASONING, stop=_ANS[0])]
    reasoning = next((text for text in reversed(reasonings) if text), None)
    return Extraction(reasoning=reasoning, answers=answers)


def parse_answer(
    reply: str, dialect: Dialect, alphabet: CharSet | None = None
) -> ParsedAnswer | AnswerError:
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


def parse_regex(
    text: str, dialect: Dialect, alphabet: CharSet | None = None
) -> ParsedAnswer | AnswerError:
    """``text`` parsed in ``dialect`` (leniently, see the module doc), or the parser's complaint."""
    notes: tuple[str, ...] = ()
    if dialect == "python":
        unwrapped = unwrap_python(text)
        if isinstance(unwrapped, AnswerError):
            return unwrapped
        text, notes = unwrapped
    elif dialect == "simple":
        notes = tuple(note for symbol, note in _SIMPLE_EXTRAS if symbol in text)
    try:
        return ParsedAnswer(text, regexlang.parse(text, dialect, alphabet), notes)
    except regexlang.RegexSyntaxError as error:
        return AnswerError("syntax", error.message, error.text, error.position)
    except regexlang.RegexError as error:
        return AnswerError("syntax", str(error), text)


def unwrap_python(text: str) -> tuple[str, tuple[str, ...]] | AnswerError:
    """The regex inside a Python-code wrapper and what was removed, or why it cannot be read."""
    notes = []
    call = _PY_CALL.fullmatch(text)
    if call is not None:
        text = call["args"].strip()
        notes.append("removed re.compile(...)")
    literal = _PY_LITERAL.fullmatch(text)
    if literal is not None:
        if literal["rest"]:
            if call is not None and literal["rest"].startswith(","):
                return AnswerError(
                    "syntax", "write flags inline, as (?i), not as a second argument", text
                )
            return AnswerError("syntax", "text after a quoted string; write the regex alone", text)
        if not literal["raw"] and _PY_ESCAPE.search(literal["body"]):
            return AnswerError(
                "syntax",
                "a plain Python string with an escape Python translates is ambiguous ('\\b' is a backspace"
                " there); write the regex without quotes",
                text,
            )
        notes.append(f"removed {literal['raw']}{literal['quote']}...{literal['quote']} quotes")
        return literal["body"], tuple(notes)
    if call is not None:
        return AnswerError(
            "syntax", "re.compile(...) without a string literal inside; write the regex alone", text
        )
    slashed = _SLASHED.fullmatch(text)
    if slashed is not None:
        return slashed["body"], ("removed /.../ delimiters",)
    return text, ()


def _blocks(
    text: str,
    opening: re.Pattern[str],
    closing: re.Pattern[str],
    stop: re.Pattern[str] | None = None,
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
