"""Printing policy: how a candidate's automaton (or spelled regex) becomes the proposal's text.

A spelled candidate prints its regex without redundant parts when the dialect writes ``&`` and
``~`` (extended) or the learner reads plain examples through classes, unless the automaton's
readable regex is shorter; otherwise the automaton's regex is printed (a quick draft in the loop,
whose last proposal is printed readably). The print must compile back within
:func:`cegis.symbolic.merging.candidate.check_state_limit` states and label every example right
(:func:`check`); a print of a candidate already checked is compared with its automaton instead.
The simple dialect cannot write the empty language, so one string no example rejects stands in."""

from __future__ import annotations

import contextlib
import itertools
import sys
from collections.abc import Iterator, Sequence

from automata.algebra.ops import equivalent
from automata.core.dfa import DFA
from automata.errors import AutomataError, SizeLimitExceeded
from automata.printing.pruning import pruned
from automata.printing.readable import draft as quick
from automata.printing.readable import readable
from cegis.hypothesis import read_hypothesis
from cegis.symbolic.merging.candidate import automaton_of, check_state_limit
from cegis.symbolic.merging.core.run_cache import RunCache
from oracle.clustered import misclassified
from oracle.examples import ClusteredExample, Counterexample
from regexlang.ast import Chars, Complement, EmptySet, Regex, Star
from regexlang.ast import text as text_regex
from regexlang.charset import CharSet
from regexlang.dialects import Dialect, unparse
from regexlang.errors import RegexError

#: States past which a spelled candidate is printed as spelled, not through its automaton's
#: readable regex: state elimination over the hundreds of states of long examples (five log lines
#: of 500-630 characters, 826 states) took over a minute and, deep enough, overflowed the stack.
MOST_READABLE_STATES = 500

#: States past which a candidate without a spelling the dialect writes is not printed: state
#: elimination takes time quadratic in the states, and the product of shared factors of twenty
#: log lines (48,000 states) took gigabytes and more than ten minutes without an answer.
MOST_PRINTED_STATES = 5000


def printed(
    dfa: DFA,
    dialect: Dialect,
    universe: CharSet,
    examples: Sequence[Counterexample],
    spelled: Regex | None = None,
    written: bool = False,
    draft: bool = False,
) -> str:
    """``dfa`` as a regex of ``dialect``: ``spelled`` without its redundant parts
    (:func:`automata.printing.pruning.pruned`) when the dialect writes ``&`` and ``~`` (extended) or the
    learner reads plain examples through classes (``written``) and the dialect can write it, unless
    the automaton's readable regex is shorter (not tried past :data:`MOST_READABLE_STATES`); else
    that regex (:func:`automata.printing.readable.readable`),
    which gives up (:class:`SizeLimitExceeded`) past :func:`check_state_limit` regex nodes: a regex
    that large would not compile back within the same limit of states; an automaton past
    :data:`MOST_PRINTED_STATES` states is not printed at all. With ``draft``, that
    regex is :func:`automata.printing.readable.draft`'s quick print instead."""
    texts = []
    if spelled is not None and (dialect == "extended" or written):
        try:
            texts.append(unparse(pruned(spelled, universe), dialect, universe))
        except RegexError:
            pass
    if texts and dfa.n_states > MOST_READABLE_STATES:
        return texts[0]
    if dfa.n_states > MOST_PRINTED_STATES:
        raise SizeLimitExceeded(
            "a print of this candidate",
            dfa.n_states,
            MOST_PRINTED_STATES,
            "states",
            "learn from fewer or shorter strings",
        )
    try:
        with _within_the_stack():
            regex = _eliminated(dfa, dialect, draft)
            if regex != EmptySet() or dialect == "python":
                texts.append(unparse(regex, dialect, universe))
            elif dialect == "extended":  # no spelling of the empty set: the complement of all
                texts.append(unparse(Complement(Star(Chars(universe))), dialect, universe))
    except SizeLimitExceeded:
        if texts:
            return texts[0]
        raise
    if texts:
        return min(texts, key=len)
    # The simple dialect cannot write the empty language: accept one string no example rejects.
    for length in range(len(examples) + 1):  # each example covers at most one length
        for word in map("".join, itertools.product(sorted(universe), repeat=length)):
            if not any(_holds(e, word) for e in examples):
                return unparse(text_regex(word), dialect, universe)
    raise AssertionError("unreachable: fewer examples than lengths")


def _eliminated(dfa: DFA, dialect: Dialect, draft: bool) -> Regex:
    """``dfa``'s readable regex (or quick ``draft``); :class:`SizeLimitExceeded` past
    :func:`check_state_limit` nodes."""
    return (quick if draft else readable)(dfa, size_limit=check_state_limit(), dialect=dialect)


@contextlib.contextmanager
def _within_the_stack() -> Iterator[None]:
    """A print nested deeper than Python's stack lets it be simplified or written (a chain of
    optional parts over a few hundred states: 150 already overflowed) is too large: a
    :class:`RecursionError` inside becomes :class:`SizeLimitExceeded`."""
    try:
        yield
    except RecursionError:
        depth = sys.getrecursionlimit()
        raise SizeLimitExceeded(
            "the nesting of a print of this candidate",
            depth + 1,
            depth,
            "stack frames",
            "learn from fewer or shorter strings",
        ) from None


def spelling(regex: Regex, dialect: Dialect, universe: CharSet) -> str:
    """``regex`` as it is written in ``dialect`` (empty when the dialect cannot write it)."""
    try:
        return unparse(regex, dialect, universe)
    except RegexError:
        return ""


def _holds(example: Counterexample, word: str) -> bool:
    return word in example if isinstance(example, ClusteredExample) else word == example.string


def check(
    text: str,
    examples: Sequence[Counterexample],
    dialect: Dialect,
    universe: CharSet,
    cache: RunCache,
    consistent: DFA | None = None,
) -> str | None:
    """Why the printed ``text`` is not a usable hypothesis for ``examples``, or ``None``; a print of
    the language of ``consistent`` (an automaton known to label every example right) is usable
    without checking the examples again (hundreds of clustered ones take a tenth of a second). The
    print's automaton is remembered in the run's ``cache``."""
    try:
        compiled = automaton_of(read_hypothesis(text, dialect, universe), universe, cache)
    except (RegexError, AutomataError) as error:
        return f"the printed regex does not compile back: {error}"
    if consistent is not None and equivalent(compiled, consistent):
        return None
    wrong = misclassified(compiled, examples)
    return misses(wrong) if wrong else None


def misses(wrong: Sequence[Counterexample]) -> str:
    return f"{len(wrong)} examples misclassified, e.g. {wrong[0].text()}"
