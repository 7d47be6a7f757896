"""The minimal DFA of a finite list of literal strings, read off their trie.

A union of literal strings (the positives listed) compiled through the pipeline builds a Thompson
NFA with a state per character, determinizes it and minimizes the result: for a hundred
request-log lines of 600 characters that is a second of work, most of it the subset construction
rediscovering the trie the strings already form. Here the trie is the DFA (a state per distinct
prefix, missing cells for the dead state) and only the minimization runs, so the table is the
canonical minimal DFA, the pipeline's own arrays. :func:`automata.building.compile._compile` takes
this path for a union of literals too long for the small path whose Thompson NFA surely fits the
state limit (past it the pipeline runs, and the limit trips where it always did).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from automata.core.alphabet import Alphabet
from automata.core.dfa import DFA
from automata.core.minimize import minimize
from regexlang.ast import Chars, Concat, Epsilon, Regex, Union


def literals(regex: Regex) -> list[str] | None:
    """The strings of ``regex`` when it is a union (or one) of literal strings, else ``None``."""
    options = regex.options if type(regex) is Union else (regex,)
    strings = []
    for option in options:
        parts = (
            option.parts if type(option) is Concat else () if type(option) is Epsilon else (option,)
        )
        chars = []
        for part in parts:
            if type(part) is not Chars or len(part.chars.intervals) != 1:
                return None
            lo, hi = part.chars.intervals[0]
            if lo != hi:
                return None
            chars.append(chr(lo))
        strings.append("".join(chars))
    return strings


def fits(strings: Sequence[str], state_limit: int) -> bool:
    """Whether the Thompson NFA of the strings' union surely fits ``state_limit``: a state per
    character, a fork per string, the match and the failure states (and the subset construction of
    a trie has no more states than that)."""
    return 2 + len(strings) + sum(map(len, strings)) <= state_limit


def trie(strings: Sequence[str], alphabet: Alphabet) -> DFA:
    """The minimal DFA over ``alphabet`` accepting exactly ``strings`` (one with a character
    outside its universe is in no language over it)."""
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
