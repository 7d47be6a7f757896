"""Loops the positives pump (cegis.symbolic.merging.rounds.pumping), on hand-checked automata; the loops
themselves against a transitive closure."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from automata.building.compile import compile_regex
from automata.core.minimize import minimize
from cegis.symbolic.merging.rounds.pumping import _loops, unpumped_loops
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


@settings(max_examples=300, derandomize=True, deadline=None)
@given(
    st.integers(1, 12).flatmap(
        lambda n: st.lists(
            st.lists(st.integers(0, n - 1), min_size=2, max_size=2), min_size=n, max_size=n
        )
    )
)
def test_loops_are_the_components_a_closure_finds_cycles_in(rows: list[list[int]]) -> None:
    n = len(rows)
    reach = np.zeros((n, n), dtype=bool)  # reach[i, j]: a non-empty path leads from i to j
    for state, row in enumerate(rows):
        reach[state, row] = True
    for k in range(n):
        reach |= reach[:, k : k + 1] & reach[k : k + 1, :]
    expected = [int(np.argmax(reach[i] & reach[:, i])) if reach[i, i] else -1 for i in range(n)]
    assert _loops(rows) == expected
