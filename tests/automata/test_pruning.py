"""Pruning of ``&``/``~`` regexes: what changes nothing is dropped, and never the language.

Languages are checked against brute-force enumeration of short strings (:func:`finite_language`).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from automata.algebra import ops
from automata.building.compile import from_text
from automata.printing.pruning import pruned
from regexlang import ast as A
from regexlang import parse, unparse
from regexlang.charset import CharSet
from tests.automata.reference import finite_language, regexes

EXTENDED = parse("[A-Za-z0-9#]", "extended").chars  # type: ignore[union-attr]
SIGMA = A.Star(A.Chars(CharSet.of("abc")))


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        (
            "[A-Za-z]{3}[0-9]*&[A-Za-z0-9#]*&[A-Za-z#]*",
            "[A-Za-z]{3}",
        ),  # Σ* and an implied conjunct dropped
        (
            "[A-Za-z0-9#]*dog[A-Za-z0-9#]*&[A-Za-z]+&[A-Za-z0-9#]*",
            "[A-Za-z0-9#]*dog[A-Za-z0-9#]*&[A-Za-z]+",
        ),
        (
            "[a-z]+&~([A-Za-z0-9#]*[0-9][A-Za-z0-9#]*)",
            "[a-z]+",
        ),  # the second part holds for every [a-z]+
        ("(dog|cat)&[a-z]+|dog", "dog|cat"),
        *[
            (both, both)
            for both in ["~([A-Za-z0-9#]*old[A-Za-z0-9#]*)&[A-Za-z0-9#]*ion[A-Za-z0-9#]*"]
        ],  # nothing to drop
    ],
)
def test_redundant_conjuncts_are_dropped(written: str, expected: str) -> None:
    regex = parse(written, "extended", EXTENDED)
    assert unparse(pruned(regex, EXTENDED), "extended", EXTENDED) == expected
    assert ops.equivalent(from_text(expected, "extended"), from_text(written, "extended"))


@st.composite
def boolean_regexes(draw: st.DrawFn) -> A.Regex:
    """Intersections, unions and complements of small regexes, some parts redundant, some empty."""
    base = st.one_of(regexes("abc", max_leaves=4), st.just(SIGMA))
    parts = draw(st.lists(st.one_of(base, base.map(A.Complement)), min_size=2, max_size=4))
    if draw(st.booleans()):
        return A.intersection(*parts)
    return (
        A.union(A.intersection(*parts[:2]), *parts[2:])
        if len(parts) > 2
        else A.intersection(*parts)
    )


@settings(max_examples=150)
@given(boolean_regexes())
def test_pruning_keeps_the_language(regex: A.Regex) -> None:
    universe = CharSet.of("abc")
    assert finite_language(pruned(regex, universe), "abc", 5) == finite_language(regex, "abc", 5)
