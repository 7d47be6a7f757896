"""The minimal DFA of a finite list of strings, read off their trie.

``compile_regex(union(*map(text, strings)))`` builds a Thompson NFA with a state per character,
determinizes it and minimizes the result: for a hundred request-log lines of 600 characters that
is a second of work, most of it the subset construction rediscovering the trie the strings already
form. Here the trie is the DFA (a state per distinct prefix, missing cells for the dead state) and
only the minimization runs; the table is the canonical minimal DFA over the alphabet the compiler
would choose, so the arrays are the compiler's own. When the compiler's Thompson NFA could pass
``state_limit``, the compiler is called instead, so the limit trips where it always did.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from automata.building.compile import compile_regex
from automata.core.alphabet import partition
from automata.core.dfa import DFA
from automata.core.minimize import minimize
from regexlang.ast import text, union
from regexlang.charset import CharSet


def listed_strings(strings: Sequence[str], universe: CharSet, *, state_limit: int) -> DFA:
    """The minimal DFA over ``universe`` accepting exactly ``strings`` (those with a character
    outside ``universe`` accept nothing), equal to what :func:`compile_regex` builds for their
    union, and raising ``StateLimitExceeded`` where it does."""
    if not _within(strings, state_limit):
        return compile_regex(union(*map(text, strings)), universe, state_limit=state_limit)
    alphabet = partition(universe, {CharSet.of(c) for c in set().union(*strings)})
    children: dict[tuple[int, int], int] = {}
    accepting = [False]
    for string in strings:
        codes = alphabet.encode(string).tolist()
        if -1 in codes:
            continue
        state = 0
        for code in codes:
            step = children.get((state, code))
            if step is None:
                step = children[(state, code)] = len(accepting)
                accepting.append(False)
            state = step
        accepting[state] = True
    transitions = np.full((len(accepting), len(alphabet)), -1, dtype=np.int32)
    if children:
        cells = np.array(list(children), dtype=np.int64)
        transitions[cells[:, 0], cells[:, 1]] = list(children.values())
    return minimize(DFA(transitions, np.array(accepting, dtype=np.bool_), 0, alphabet))


def _within(strings: Sequence[str], state_limit: int) -> bool:
    """Whether the compiler's Thompson NFA of the strings' union surely fits ``state_limit``: a
    state per character, a fork per string, the match and the failure states (and the subset
    construction of a trie has no more states than that)."""
    return 2 + len(strings) + sum(map(len, strings)) <= state_limit
