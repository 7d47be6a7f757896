"""Loops the positives pump (cegis.merging.pumping), on hand-checked automata."""

from __future__ import annotations

import pytest

from automata.compile import compile_regex
from automata.minimize import minimize
from cegis.merging.pumping import unpumped_loops
from regexlang.charset import CharSet
from regexlang.dialects import parse

ABC = CharSet.of("abc")


def dfa(pattern: str):  # type: ignore[no-untyped-def]
    return minimize(compile_regex(parse(pattern, "python", ABC), ABC))


@pytest.mark.parametrize(
    ("pattern", "positives", "unpumped"),
    [
        ("a*b", ["b", "aab"], 0),  # gone round 0 and 2 times
        ("a*b", ["b", "ab"], 1),  # 0 and 1 rounds: an optional a, not a repetition
        ("a*b", ["ab"], 1),  # once, by one positive: nothing asks for the loop
        ("a*b", ["aab"], 0),  # twice by one positive
        ("acc(bc)*", ["accbc"], 1),
        ("acc(bc)*", ["accbc", "accbcbc"], 0),
        ("accbc", ["accbc"], 0),  # no loop (the dead state's is not one: it never accepts)
        ("a*b|c*", ["ab", "aaab"], 1),  # the loop on c is entered by no positive
        ("(a*b)*", ["bab"], 0),  # one loop (one component), gone round twice
    ],
)
def test_unpumped_loops(pattern: str, positives: list[str], unpumped: int) -> None:
    assert unpumped_loops(dfa(pattern), positives) == unpumped
