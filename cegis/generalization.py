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
from automata.errors import SizeLimitExceeded, StateLimitExceeded
from regexlang.ast import Regex, text, union
from regexlang.charset import CharSet

#: States the answer may compile to; past it the answer is taken to generalize (a list of the
#: positives is never that large: it has at most one state per character of the positives).
STATE_LIMIT = 20_000


def generalizes(answer: Regex, positives: Iterable[str], universe: CharSet) -> bool:
    """Whether ``answer`` accepts some string outside ``positives`` (over ``universe``)."""
    listed = compile_regex(
        union(*map(text, dict.fromkeys(positives))), universe, state_limit=STATE_LIMIT
    )
    try:
        learned = compile_regex(answer, universe, state_limit=STATE_LIMIT)
        return not is_empty(difference(learned, listed, state_limit=STATE_LIMIT))
    except (SizeLimitExceeded, StateLimitExceeded):
        return True
