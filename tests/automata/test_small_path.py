"""The small-regex path (position automaton + small kernel) against the Thompson pipeline it stands
in for: the same canonical arrays, and the same state-limit errors at every limit."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from automata.algebra import ops
from automata.building.compile import _alphabet, compile_many, compile_regex
from automata.building.determinize import determinize
from automata.building.nfa import thompson
from automata.core.dfa import DFA
from automata.core.minimize import minimize
from automata.errors import StateLimitExceeded
from regexlang import ast as A
from regexlang.charset import SIMPLE_ALPHABET, CharSet
from tests.automata.reference import regexes

LIMITS = (1, 2, 3, 4, 6, 9, 14, 20, 30, 200_000)


def _thompson_pipeline(
    regex: A.Regex,
    universe: CharSet,
    state_limit: int,
    batch: list[A.Regex] | None = None,
    extra: tuple[CharSet, ...] = (),
) -> DFA:
    """The compiler as it was before the small path: Thompson NFA, subset construction, Valmari,
    over the alphabet of ``batch`` (default: the regex alone) and ``extra``."""
    alphabet, members = _alphabet(batch or [regex], universe, extra)

    def compile_node(node: A.Regex) -> DFA:
        def nested(inner: A.Intersection | A.Complement) -> DFA:
            parts = inner.parts if isinstance(inner, A.Intersection) else (inner.inner,)
            dfas = [compile_node(part) for part in parts]
            if isinstance(inner, A.Complement):
                return ops.complement(dfas[0])
            result = dfas[0]
            for dfa in dfas[1:]:
                result = ops.intersection(result, dfa, state_limit=state_limit)
            return result

        if isinstance(node, (A.Intersection, A.Complement)):
            return nested(node)
        return minimize(
            determinize(
                thompson(node, alphabet, members, nested, state_limit=state_limit),
                state_limit=state_limit,
            )
        )

    return compile_node(regex)


def _outcome(build: object) -> tuple[object, ...]:
    try:
        dfa = build()  # type: ignore[operator]
    except StateLimitExceeded as error:
        return ("limit", str(error))
    return ("dfa", dfa.transitions.tolist(), dfa.accepting.tolist(), dfa.alphabet)


def _boolean_regexes() -> st.SearchStrategy[A.Regex]:
    def extend(inner: st.SearchStrategy[A.Regex]) -> st.SearchStrategy[A.Regex]:
        return st.one_of(
            st.lists(inner, min_size=2, max_size=3).map(lambda parts: A.intersection(*parts)),
            inner.map(A.Complement),
            st.lists(inner, min_size=2, max_size=3).map(lambda parts: A.concat(*parts)),
            inner.map(A.Star),
        )

    return st.recursive(regexes(max_leaves=3), extend, max_leaves=4)


@settings(max_examples=150)
@given(st.one_of(regexes(), _boolean_regexes()), st.sampled_from(LIMITS))
def test_small_path_matches_the_thompson_pipeline(regex: A.Regex, state_limit: int) -> None:
    small = _outcome(lambda: compile_regex(regex, SIMPLE_ALPHABET, state_limit=state_limit))
    reference = _outcome(lambda: _thompson_pipeline(regex, SIMPLE_ALPHABET, state_limit))
    assert small == reference


def test_sets_outside_the_universe_become_dead_positions() -> None:
    outside = A.Chars(CharSet.of("z"))
    for regex in (
        A.concat(A.literal("a"), outside),
        A.union(outside, A.Star(A.literal("b"))),
        A.Star(outside),
    ):
        small = compile_regex(regex, SIMPLE_ALPHABET)
        reference = _thompson_pipeline(regex, SIMPLE_ALPHABET, 200_000)
        assert np.array_equal(small.transitions, reference.transitions)
        assert np.array_equal(small.accepting, reference.accepting)
        assert small.canonical


@settings(max_examples=100)
@given(
    st.lists(regexes(max_leaves=5), min_size=1, max_size=3),
    st.sampled_from([(), (CharSet.of("ab"),)]),
)
def test_compile_many_shares_the_alphabet_of_the_thompson_pipeline(
    batch: list[A.Regex], extra: tuple[CharSet, ...]
) -> None:
    dfas = compile_many(batch, SIMPLE_ALPHABET, extra_sets=iter(extra))
    for regex, dfa in zip(batch, dfas):
        reference = _thompson_pipeline(regex, SIMPLE_ALPHABET, 200_000, batch, extra)
        assert _outcome(lambda: dfa) == _outcome(lambda: reference)
