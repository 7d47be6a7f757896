"""The shortcuts of ``equivalent`` and the small-pair witness search give exactly the general answers."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from automata.algebra import _kernels, _small_pairs, ops
from automata.core.dfa import DFA
from tests.automata.test_counting import dfas


@settings(max_examples=200)
@given(
    st.integers(0, 3),
    st.integers(0, 3),
    st.integers(0, 2),
    st.sampled_from([np.int32, np.int64, np.bool_]),
    st.data(),
)
def test_same_is_array_equal(
    rows: int, columns: int, values: int, dtype: type, data: st.DataObject
) -> None:
    shape = (rows, columns)
    left: np.ndarray = np.asarray(
        data.draw(
            st.lists(st.integers(0, values), min_size=rows * columns, max_size=rows * columns)
        ),
        dtype=dtype,
    )
    right = np.asarray(
        data.draw(
            st.lists(st.integers(0, values), min_size=rows * columns, max_size=rows * columns)
        )
    )
    right = right.astype(data.draw(st.sampled_from([dtype, np.int32, np.int64])))
    for a, b in (
        (left.reshape(shape), right.reshape(shape)),
        (left.reshape(shape), left.reshape(shape).copy()),
        (left, right[:1]),
    ):
        assert ops._same(a, b) == np.array_equal(a, b)


@settings(max_examples=150)
@given(
    dfas(max_states=6),
    st.sampled_from([ops._SYMMETRIC, ops._LEFT_ONLY]),
    st.integers(1, 40),
    st.data(),
)
def test_a_search_over_one_alphabet_reads_the_tables_as_they_are(
    left: DFA, wanted: tuple[tuple[bool, bool], ...], limit: int, data: st.DataObject
) -> None:
    k = len(left.alphabet)
    n = data.draw(st.integers(1, 6))
    table = data.draw(
        st.lists(st.lists(st.integers(0, n - 1), min_size=k, max_size=k), min_size=n, max_size=n)
    )
    accepting = data.draw(st.lists(st.booleans(), min_size=n, max_size=n))
    right = DFA(
        np.asarray(table, dtype=np.int32),
        np.asarray(accepting),
        data.draw(st.integers(0, n - 1)),
        left.alphabet,
    )
    lt, la, ls = left.transitions.tolist(), left.accepting.tolist(), left.start
    rt, ra, rs = right.transitions.tolist(), right.accepting.tolist(), right.start
    fast = _small_pairs.shortest_distinction(lt, None, la, ls, rt, None, ra, rs, wanted, limit)
    mapped = _small_pairs.shortest_distinction(
        lt, list(range(k)), la, ls, rt, list(range(k)), ra, rs, wanted, limit
    )
    identity = np.arange(k, dtype=np.int32)
    status, found, path, in_left = _kernels.shortest_distinction(
        left.transitions,
        identity,
        left.accepting,
        left.start,
        right.transitions,
        identity,
        right.accepting,
        right.start,
        np.array(wanted),
        limit,
    )
    assert fast == mapped == (status, found, path.tolist(), in_left)
    witness = (
        ops.equivalence_witness(left, right) if wanted == ops._SYMMETRIC and limit == 40 else None
    )
    if witness is not None:  # through ops too, where one alphabet takes this path
        assert (list(witness.classes), witness.accepted_by == "left") == (path.tolist(), in_left)
