"""Printing a hypothesis in the task's dialect and reading it back.

Learners print their hypotheses with :func:`regexlang.unparse`, but the empty language has no
syntax in the simple and extended dialects, and a union of no positives (or an L* table before the
first positive) is exactly that. It prints as ``∅`` here, and reads back to the same tree, so a
record can always be turned back into the hypothesis it names.

A learner may print its hypotheses of every epoch quickly (``Proposal.draft``): the loop prints a
run's last one readably (:func:`presented`), the same language in a shorter text.
"""

from __future__ import annotations

import functools

from automata.algebra.ops import equivalent
from automata.building.compile import compile_regex
from automata.core.dfa import DFA
from automata.errors import AutomataError
from automata.printing.readable import readable
from regexlang.ast import EmptySet, Regex
from regexlang.charset import CharSet
from regexlang.dialects import Dialect, parse, unparse
from regexlang.errors import NotExpressible, RegexError

EMPTY_LANGUAGE = "∅"


def print_hypothesis(regex: Regex, dialect: Dialect, universe: CharSet) -> str:
    """``regex`` printed in ``dialect``; the empty language as ``∅`` where the dialect cannot say it."""
    try:
        return unparse(regex, dialect, universe)
    except NotExpressible:
        if isinstance(regex, EmptySet):
            return EMPTY_LANGUAGE
        raise


@functools.lru_cache(
    maxsize=64
)  # a learner reads its print back, and again the next epoch (an agreement)
def read_hypothesis(text: str, dialect: Dialect, universe: CharSet) -> Regex:
    """The inverse of :func:`print_hypothesis` (raises ``RegexError`` on text that does not parse)."""
    return EmptySet() if text == EMPTY_LANGUAGE else parse(text, dialect, universe)


def presented(
    regex: Regex,
    text: str,
    dialect: Dialect,
    universe: CharSet,
    state_limit: int,
    dfa: DFA | None = None,
) -> tuple[Regex, str]:
    """The hypothesis ``regex`` (printed as ``text``, its minimal DFA ``dfa`` when the learner built
    it) in its readable print (:func:`automata.printing.readable.readable`) when that is shorter, checked to
    have the same language; else unchanged (also on a tie, and when it cannot be compiled within
    ``state_limit`` states or printed)."""
    try:
        if dfa is None or dfa.alphabet.universe != universe or dfa.n_states > state_limit:
            dfa = compile_regex(regex, universe, state_limit=state_limit)
        shown = readable(dfa, size_limit=state_limit, dialect=dialect)
        shown_text = print_hypothesis(shown, dialect, universe)
        if len(shown_text) >= len(text) or not equivalent(
            compile_regex(shown, universe, state_limit=state_limit), dfa
        ):
            return regex, text
    except (AutomataError, RegexError):
        return regex, text
    return read_hypothesis(shown_text, dialect, universe), shown_text
