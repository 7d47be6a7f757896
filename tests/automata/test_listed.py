"""A union of literal strings compiled off their trie (:mod:`automata.building.listed`) against the
Thompson pipeline it stands in for: the same canonical arrays over the same alphabet, and the same
state-limit errors at every limit."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from automata.building.compile import _alphabet, compile_many, compile_regex
from automata.building.determinize import determinize
from automata.building.listed import literals
from automata.building.nfa import thompson
from automata.core.dfa import DFA
from automata.core.minimize import minimize
from automata.errors import StateLimitExceeded
from regexlang import ast as A
from regexlang.charset import CharSet

UNIVERSE = CharSet([(0x20, 0x7E)])
# "é" is outside the universe: a string holding it is in no language over it
STRINGS = st.lists(st.text(alphabet="ab c-é", max_size=40), min_size=1, max_size=12, unique=True)


def _listing(strings: list[str]) -> A.Regex:
    return A.union(*map(A.text, strings))


def _pipeline(regex: A.Regex, state_limit: int, extra: tuple[CharSet, ...] = ()) -> DFA:
    alphabet, members = _alphabet([regex], UNIVERSE, extra)

    def nested(node: A.Intersection | A.Complement) -> DFA:
        raise AssertionError("a listing has no nested node")

    nfa = thompson(regex, alphabet, members, nested, state_limit=state_limit)
    return minimize(determinize(nfa, state_limit=state_limit))


def _outcome(build: object) -> tuple[object, ...]:
    try:
        dfa = build()  # type: ignore[operator]
    except StateLimitExceeded as error:
        return ("limit", str(error))
    return ("dfa", dfa.transitions.tolist(), dfa.accepting.tolist(), dfa.start, dfa.alphabet)


@settings(max_examples=200, deadline=None)
@given(STRINGS)
def test_a_listing_compiles_to_the_pipelines_arrays(strings: list[str]) -> None:
    regex = _listing(strings)
    compiled = compile_regex(regex, UNIVERSE, state_limit=200_000)
    assert _outcome(lambda: compiled) == _outcome(lambda: _pipeline(regex, 200_000))
    for s in strings:
        assert compiled.accepts(s) == ("é" not in s)


@settings(max_examples=100, deadline=None)
@given(STRINGS, st.data())
def test_the_limit_trips_where_the_pipeline_trips(strings: list[str], data: st.DataObject) -> None:
    regex = _listing(strings)
    size = 2 + len(strings) + sum(map(len, strings))
    limit = data.draw(st.integers(max(1, size // 2), size + 5))
    assert _outcome(lambda: compile_regex(regex, UNIVERSE, state_limit=limit)) == _outcome(
        lambda: _pipeline(regex, limit)
    )


def test_a_listing_compiled_beside_others_keeps_their_alphabet() -> None:
    """Compiled together with a class, the listing's table is over the finer shared alphabet."""
    lines = ["ab-" * 30 + "c", "ab-" * 29 + "cc", "b" * 70]
    other = A.Star(A.Chars(CharSet.range("a", "c")))
    listed, _ = compile_many([_listing(lines), other], UNIVERSE)
    extra = (CharSet.range("a", "c"),)
    assert _outcome(lambda: listed) == _outcome(lambda: _pipeline(_listing(lines), 20_000, extra))


def test_only_unions_of_literal_strings_are_read_as_listings() -> None:
    assert literals(_listing(["ab", "", "c"])) == ["ab", "", "c"]
    assert literals(A.text("abc")) == ["abc"]
    assert literals(A.union(A.text("ab"), A.Chars(CharSet.range("a", "b")))) is None
    assert literals(A.concat(A.text("ab"), A.Star(A.text("c")))) is None
    assert literals(A.union(A.text("ab"), A.concat(A.text("a"), A.Optional(A.text("b"))))) is None


def test_long_lines_sharing_heads_and_tails() -> None:
    """Lines hundreds of characters long, sharing a head and a tail: the canonical DFA shares
    them too, and is the pipeline's."""
    rng = np.random.default_rng(7)
    head, tail = "GET /index.html HTTP/1.1 " * 4, ' "Mozilla/5.0 (X11; Linux)"' * 4
    lines = [
        head + "".join(rng.choice(list("abcdef0123"), size=int(rng.integers(5, 300)))) + tail
        for _ in range(30)
    ]
    regex = _listing(lines)
    compiled = compile_regex(regex, UNIVERSE, state_limit=200_000)
    assert _outcome(lambda: compiled) == _outcome(lambda: _pipeline(regex, 200_000))
    assert compiled.n_states < sum(map(len, lines))
    assert not compiled.accepts(head + tail)
