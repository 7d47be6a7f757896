"""The interval algebra of CharSet against Python sets of code points (small ranges, so that
intervals touch, nest and overlap often)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from regexlang.charset import CharSet

intervals = st.lists(
    st.tuples(st.integers(0, 40), st.integers(0, 6)).map(lambda t: (t[0], t[0] + t[1])), max_size=5
)


def points(chars: CharSet) -> set[int]:
    return {code for lo, hi in chars.intervals for code in range(lo, hi + 1)}


@settings(max_examples=400, derandomize=True, deadline=None)
@given(intervals, intervals)
def test_set_operations_match_python_sets(
    first: list[tuple[int, int]], second: list[tuple[int, int]]
) -> None:
    a, b = CharSet(first), CharSet(second)
    pa, pb = points(a), points(b)
    assert pa == {code for lo, hi in first for code in range(lo, hi + 1)}
    assert points(a | b) == pa | pb
    assert points(a & b) == pa & pb
    assert points(a - b) == pa - pb
    assert a.issubset(b) == (pa <= pb)
    assert (a & b).issubset(a) and a.issubset(a | b)
    assert len(a) == len(pa) and (a == b) == (pa == pb)
