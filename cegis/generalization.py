"""Whether a regex learned from labeled strings generalizes: does it accept anything new?

A learner that finds no pattern consistent with the examples can always answer with the positives
listed as alternatives (``a1|b22|c333``): consistent, and useless on the next string. Such an
answer must not read as a success, so the command line and the benchmarks ask this one question of
every answer learned from given strings: is there a string it accepts that no positive is? The
answer is exact (an automaton difference), not a guess from the printed text: ``0b(?:0|1|101)``
lists its positives too, and ``[ab]`` over the positives ``a`` and ``b`` does as well."""

from __future__ import annotations

from collections.abc import Iterable

from automata.algebra.ops import difference, is_empty
from automata.building.compile import compile_regex
from automata.core.dfa import infinite
from automata.errors import SizeLimitExceeded, StateLimitExceeded
from regexlang.ast import Regex, text, union
from regexlang.charset import CharSet

#: States the answer may compile to, for short examples; past it the answer is taken to generalize
#: (a list of the positives has at most one state per character of the positives).
STATE_LIMIT = 20_000


def sized_limit(strings: Iterable[str], least: int = STATE_LIMIT) -> int:
    """States a check over ``strings`` may build: ``least``, or twice their characters when that
    is more (their listing takes a state a character: examples thousands of characters long are
    never refused for their length alone)."""
    return max(least, 2 * sum(map(len, strings)) + 2)


def generalizes(answer: Regex, positives: Iterable[str], universe: CharSet) -> bool:
    """Whether ``answer`` accepts some string outside ``positives`` (over ``universe``)."""
    strings = list(dict.fromkeys(positives))
    limit = sized_limit(strings)
    try:
        learned = compile_regex(answer, universe, state_limit=limit)
        if infinite(learned):  # the positives are finitely many: no need to list them
            return True
        listed = compile_regex(union(*map(text, strings)), universe, state_limit=limit)
        return not is_empty(difference(learned, listed, state_limit=limit))
    except (SizeLimitExceeded, StateLimitExceeded):
        return True
