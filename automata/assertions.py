"""Zero-width assertions of the python dialect as a lookup table for the subset construction.

An assertion (``\\b``, ``^``, ``$`` ...) is decided by what lies on either side of a position: the
previous character (or the start of the text) and the next one (or the end). A DFA reading left to
right knows the previous character only if its state remembers it, and learns the next one only
when it reads it. So determinization runs over pairs (set of NFA states, *context*), where the
context is a few bits about the previous character, and resolves an assertion edge when the next
input symbol is known: while computing the transition on a class, or the acceptance at the end.

Python's ``$`` (without MULTILINE) also holds before a final ``"\\n"``: it needs two characters of
lookahead. A thread that crosses ``$`` before a ``"\\n"`` therefore continues with a *must end*
mark; it may consume that ``"\\n"`` and then only accept at the end of the text.

Everything about the semantics lives in :func:`verdict`, written as plain Python from the rules of
CPython's ``sre`` (``SRE_AT_*`` in ``sre_lib.h``, ``re.fullmatch``): the kernel only indexes the
table built from it.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from automata.core.alphabet import Alphabet
from automata.jit.arrays import Int8Array
from regexlang.ast import AssertKind
from regexlang.charset import CharSet
from regexlang.unicode_classes import word_chars

KINDS: tuple[AssertKind, ...] = tuple(AssertKind)
CODE: dict[AssertKind, int] = {kind: i for i, kind in enumerate(KINDS)}

# Context bits: what the state remembers about the text before the current position.
AT_START = 1
PREV_WORD = 2
PREV_NEWLINE = 4
N_CONTEXTS = 8

# Lookahead codes: bits of the next character, or END for the end of the text.
NEXT_WORD = 1
NEXT_NEWLINE = 2
END = 4
N_LOOKAHEADS = 5

# Verdicts.
FAIL = 0
PASS = 1
PASS_IF_FINAL_NEWLINE = 2  # holds only if the next character is the text's final "\n"

NEWLINE = CharSet.of("\n")
_WORD_KINDS = {AssertKind.WORD_BOUNDARY, AssertKind.NOT_WORD_BOUNDARY}
_NEWLINE_KINDS = {AssertKind.END_OR_FINAL_NEWLINE, AssertKind.LINE_START, AssertKind.LINE_END}


def verdict(kind: AssertKind, context: int, lookahead: int) -> int:
    """Whether ``kind`` holds between a context and a lookahead code."""
    at_start = bool(context & AT_START)
    prev_word = bool(context & PREV_WORD)
    at_end = lookahead == END
    next_word = not at_end and bool(lookahead & NEXT_WORD)
    next_newline = not at_end and bool(lookahead & NEXT_NEWLINE)
    if kind is AssertKind.WORD_BOUNDARY:
        holds = prev_word != next_word
    elif kind is AssertKind.NOT_WORD_BOUNDARY:
        # sre refuses \B on the empty text, although neither side is a word character.
        holds = prev_word == next_word and not (at_start and at_end)
    elif kind is AssertKind.TEXT_START:
        holds = at_start
    elif kind is AssertKind.TEXT_END:
        holds = at_end
    elif kind is AssertKind.END_OR_FINAL_NEWLINE:
        if next_newline:
            return PASS_IF_FINAL_NEWLINE
        holds = at_end
    elif kind is AssertKind.LINE_START:
        holds = at_start or bool(context & PREV_NEWLINE)
    else:  # LINE_END
        holds = at_end or next_newline
    return PASS if holds else FAIL


def verdict_table() -> Int8Array:
    """``table[code, context, lookahead]`` = :func:`verdict` for every combination."""
    table = np.zeros((len(KINDS), N_CONTEXTS, N_LOOKAHEADS), dtype=np.int8)
    for code, kind in enumerate(KINDS):
        for context in range(N_CONTEXTS):
            for lookahead in range(N_LOOKAHEADS):
                table[code, context, lookahead] = verdict(kind, context, lookahead)
    return table


def context_mask(kinds: Iterable[AssertKind]) -> int:
    """The context bits worth remembering for these assertions (others stay 0, so that contexts
    nobody asks about do not multiply DFA states)."""
    mask = 0
    for kind in kinds:
        if kind in _WORD_KINDS:
            mask |= PREV_WORD
        if kind in (AssertKind.TEXT_START, AssertKind.LINE_START, AssertKind.NOT_WORD_BOUNDARY):
            mask |= AT_START
        if kind is AssertKind.LINE_START:
            mask |= PREV_NEWLINE
    return mask


def required_sets(kinds: Iterable[AssertKind]) -> list[CharSet]:
    """Character sets the alphabet must not split so that every class has definite lookahead bits."""
    present = set(kinds)
    sets = []
    if present & _WORD_KINDS:
        sets.append(word_chars())
    if present & _NEWLINE_KINDS:
        sets.append(NEWLINE)
    return sets


def lookahead_codes(alphabet: Alphabet, kinds: Iterable[AssertKind]) -> Int8Array:
    """The lookahead code of each class (which is also the context it leaves behind, shifted)."""
    present = set(kinds)
    codes = np.zeros(len(alphabet), dtype=np.int8)
    if not present:
        return codes
    words = word_chars() if present & _WORD_KINDS else CharSet()
    newline = NEWLINE if present & _NEWLINE_KINDS else CharSet()
    for cls in range(len(alphabet)):
        rep = alphabet.representative(cls)
        codes[cls] = (NEXT_WORD if rep in words else 0) | (NEXT_NEWLINE if rep in newline else 0)
    return codes
