"""The DFA of a list of strings read off their trie against the compiler's DFA of their union: the
same canonical arrays over the same alphabet, and the same state-limit errors at every limit."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from automata.building.compile import compile_regex
from automata.building.listed import listed_strings
from automata.core.dfa import DFA
from automata.errors import StateLimitExceeded
from regexlang.ast import text, union
from regexlang.charset import CharSet

UNIVERSE = CharSet([(0x20, 0x7E)])
LIMITS = (1, 2, 3, 5, 8, 13, 21, 40, 200_000)
# "é" is outside the universe: a string holding it is in no language over it
STRINGS = st.lists(st.text(alphabet="ab c-é", max_size=8), max_size=7, unique=True)


def _compiled(strings: list[str], state_limit: int) -> DFA:
    return compile_regex(union(*map(text, strings)), UNIVERSE, state_limit=state_limit)


def _same(a: DFA, b: DFA) -> bool:
    return (
        a.alphabet == b.alphabet
        and a.start == b.start
        and np.array_equal(a.transitions, b.transitions)
        and np.array_equal(a.accepting, b.accepting)
    )


@settings(max_examples=300, deadline=None)
@given(STRINGS)
def test_the_trie_gives_the_compilers_arrays(strings: list[str]) -> None:
    listed = listed_strings(strings, UNIVERSE, state_limit=200_000)
    assert _same(listed, _compiled(strings, 200_000))
    assert listed.canonical
    for s in strings:
        assert listed.accepts(s) == ("é" not in s)


@settings(max_examples=150, deadline=None)
@given(STRINGS)
def test_the_limit_trips_where_the_compiler_trips(strings: list[str]) -> None:
    for limit in LIMITS:
        try:
            expected: DFA | None = _compiled(strings, limit)
        except StateLimitExceeded:
            expected = None
        try:
            listed: DFA | None = listed_strings(strings, UNIVERSE, state_limit=limit)
        except StateLimitExceeded:
            listed = None
        assert (listed is None) == (expected is None), limit
        assert listed is None or expected is None or _same(listed, expected)


def test_long_lines_sharing_prefixes_and_suffixes() -> None:
    """Lines hundreds of characters long (past the compiler's small path), sharing a head and a
    tail: the canonical DFA shares them too."""
    rng = np.random.default_rng(7)
    head, tail = "GET /index.html HTTP/1.1 " * 4, ' "Mozilla/5.0 (X11; Linux)"' * 4
    lines = [
        head + "".join(rng.choice(list("abcdef0123"), size=int(rng.integers(5, 300)))) + tail
        for _ in range(30)
    ]
    listed = listed_strings(lines, UNIVERSE, state_limit=200_000)
    assert _same(listed, _compiled(lines, 200_000))
    assert listed.n_states < sum(map(len, lines))
    assert not listed.accepts(head + tail)
