"""Every operation with a small pure-Python (or small-kernel) path and a general numba path runs
both on the same inputs, at and around the size where the dispatcher switches, and they must give
identical answers: minimization (Moore kernel vs Valmari–Lehtinen), products and witness searches
(Python breadth-first walk vs kernel), and compilation (position automaton vs Thompson pipeline).
"""

from __future__ import annotations

import numpy as np
import pytest

from automata.algebra import _kernels, _small_pairs
from automata.building import positions
from automata.building.compile import _alphabet, compile_regex
from automata.core._small_kernels import MAX_POSITIONS, minimal_table
from automata.core.dfa import DFA
from automata.core.minimize import SMALL_TABLE, _minimize
from regexlang import ast as A
from regexlang import parse
from regexlang.charset import SIMPLE_ALPHABET
from tests.automata.reference import strings_up_to
from tests.automata.test_small_path import _outcome, _thompson_pipeline

Table = np.ndarray


def _random_table(
    rng: np.random.Generator, n: int, k: int, missing: float = 0.0
) -> tuple[Table, Table]:
    """A random table of ``n`` states and ``k`` classes (``-1`` for a missing move with probability
    ``missing``) and random accepting bits; few accepting states, so that many states merge."""
    table = rng.integers(0, n, size=(n, k), dtype=np.int32)
    if missing:
        table[rng.random((n, k)) < missing] = -1
    accepting = rng.random(n) < 0.2
    return table, accepting


# Tables of (states, classes) with states × classes below, at and above SMALL_TABLE cells.
_MINIMIZE_SHAPES = [
    (n, k)
    for k in (1, 2, 4, 8)
    for n in (SMALL_TABLE // k - 1, SMALL_TABLE // k, SMALL_TABLE // k + 1)
]


@pytest.mark.parametrize(("n", "k"), _MINIMIZE_SHAPES)
@pytest.mark.parametrize("missing", [0.0, 0.05])
def test_moore_and_valmari_agree_around_the_switch(n: int, k: int, missing: float) -> None:
    rng = np.random.default_rng([n, k, int(missing * 100)])
    for _ in range(4):
        table, accepting = _random_table(rng, n, k, missing)
        start = int(rng.integers(n))
        moore = minimal_table(table, accepting, start)
        valmari = _minimize(table, accepting, start)
        assert np.array_equal(moore[0], valmari[0]) and np.array_equal(moore[1], valmari[1])
        _assert_same_language(table, accepting, start, moore[0], moore[1], k)


def _assert_same_language(
    table: Table, accepting: Table, start: int, minimal: Table, final: Table, k: int
) -> None:
    """Every class sequence up to length 4 (over the first three classes) is read alike."""
    for word in strings_up_to("012"[: min(k, 3)], 4):
        p, q = start, 0
        for symbol in map(int, word):
            p = table[p, symbol] if p >= 0 else -1
            q = minimal[q, symbol]
        assert (p >= 0 and bool(accepting[p])) == bool(final[q])


# (left states, right states, product classes): products of 1023, 1024 and 1025+ cells.
_PAIR_SHAPES = [
    (16, 16, 4),
    (15, 17, 4),
    (17, 16, 4),
    (32, 32, 1),
    (31, 33, 1),
    (8, 32, 4),
    (9, 32, 4),
    (11, 31, 3),
]


def _pair(
    shape: tuple[int, int, int], seed: int
) -> tuple[Table, Table, Table, Table, Table, Table, int, int]:
    n_left, n_right, k = shape
    rng = np.random.default_rng([*shape, seed])
    k_left, k_right = max(1, k - 1), k
    left, left_accepting = _random_table(rng, n_left, k_left)
    right, right_accepting = _random_table(rng, n_right, k_right)
    left_columns = rng.integers(0, k_left, size=k, dtype=np.int32)
    right_columns = rng.permutation(k).astype(np.int32)
    return (
        left,
        left_columns,
        left_accepting,
        right,
        right_columns,
        right_accepting,
        int(rng.integers(n_left)),
        int(rng.integers(n_right)),
    )


@pytest.mark.parametrize("shape", _PAIR_SHAPES)
@pytest.mark.parametrize("state_limit", [1, 7, 100, 10_000])
def test_python_and_kernel_products_agree_around_the_switch(
    shape: tuple[int, int, int], state_limit: int
) -> None:
    for seed in range(3):
        left, left_columns, _, right, right_columns, _, left_start, right_start = _pair(shape, seed)
        rows, lefts, rights, status = _small_pairs.product(
            left.tolist(),
            left_columns.tolist(),
            left_start,
            right.tolist(),
            right_columns.tolist(),
            right_start,
            state_limit,
        )
        table, kernel_lefts, kernel_rights, kernel_status = _kernels.product(
            left, left_columns, left_start, right, right_columns, right_start, state_limit
        )
        assert status == kernel_status
        assert (
            rows == table.tolist()
            and lefts == kernel_lefts.tolist()
            and rights == kernel_rights.tolist()
        )
        for row, p, q in zip(
            rows, lefts, rights
        ):  # every pair's row leads to the pairs of its moves
            assert [(lefts[t], rights[t]) for t in row] == [
                (left[p, lc], right[q, rc]) for lc, rc in zip(left_columns, right_columns)
            ]


_WANTED = [
    np.array(w, dtype=np.bool_)
    for w in (
        [[False, True], [True, False]],
        [[False, False], [True, False]],
        [[True, False], [False, False]],
    )
]


@pytest.mark.parametrize("shape", _PAIR_SHAPES)
@pytest.mark.parametrize("state_limit", [1, 7, 100, 10_000])
def test_python_and_kernel_witness_searches_agree_around_the_switch(
    shape: tuple[int, int, int], state_limit: int
) -> None:
    for seed in range(3):
        (
            left,
            left_columns,
            left_accepting,
            right,
            right_columns,
            right_accepting,
            left_start,
            right_start,
        ) = _pair(shape, seed)
        for wanted in _WANTED:
            python = _small_pairs.shortest_distinction(
                left.tolist(),
                left_columns.tolist(),
                left_accepting.tolist(),
                left_start,
                right.tolist(),
                right_columns.tolist(),
                right_accepting.tolist(),
                right_start,
                wanted.tolist(),
                state_limit,
            )
            status, found, path, in_left = _kernels.shortest_distinction(
                left,
                left_columns,
                left_accepting,
                left_start,
                right,
                right_columns,
                right_accepting,
                right_start,
                wanted,
                state_limit,
            )
            assert python == (status, found, path.tolist(), in_left)
            if found:  # the path ends in a wanted pair, read independently of both searches
                p, q = left_start, right_start
                for cls in path:
                    p, q = left[p, left_columns[cls]], right[q, right_columns[cls]]
                assert (
                    wanted[int(left_accepting[p]), int(right_accepting[q])]
                    and in_left == left_accepting[p]
                )


def test_the_dispatcher_switches_at_small_product() -> None:
    def dfa(n: int, k: int) -> DFA:
        from automata.core.alphabet import partition

        alphabet = partition(SIMPLE_ALPHABET, [])
        return DFA(
            np.zeros((n, len(alphabet)), dtype=np.int32), np.zeros(n, dtype=np.bool_), 0, alphabet
        )

    assert _small_pairs.small(dfa(16, 1), dfa(16, 1), 4) and _small_pairs.SMALL_PRODUCT == 1024
    assert not _small_pairs.small(dfa(16, 1), dfa(16, 1), 5)


def _literal_positions(count: int) -> A.Regex:
    """``count`` positions: a cycle of literals under a star, so the DFA stays small."""
    return A.Star(A.concat(*(A.literal("abc"[i % 3]) for i in range(count))))


@pytest.mark.parametrize("count", [MAX_POSITIONS - 1, MAX_POSITIONS, MAX_POSITIONS + 1])
def test_position_automaton_and_thompson_agree_around_the_bitset_size(count: int) -> None:
    regex = _literal_positions(count)
    small = _outcome(lambda: compile_regex(regex, SIMPLE_ALPHABET))
    assert small == _outcome(lambda: _thompson_pipeline(regex, SIMPLE_ALPHABET, 200_000))
    if count > MAX_POSITIONS:
        with pytest.raises(positions.Fallback):
            positions.glushkov(regex, 200_000)
    else:
        assert positions.glushkov(regex, 200_000).size == count


# (a+b)*a(a+b){n-1}: the subset construction has 2**n + 1 states, so n = 11 is the first to
# outgrow the small kernel's room of MAX_DFA_STATES.
@pytest.mark.parametrize(("tail", "small_path"), [(10, True), (11, False), (12, False)])
def test_small_kernel_and_general_pipeline_agree_around_their_room(
    tail: int, small_path: bool
) -> None:
    regex = parse("(a + b)* a (a + b)" + " (a + b)" * (tail - 1), "simple")
    alphabet, members = _alphabet([regex], SIMPLE_ALPHABET, ())
    built = positions.glushkov(regex, 200_000)
    try:
        positions.minimal_dfa(built, alphabet, positions.classes_read(built, members), 200_000)
        took_small_path = True
    except positions.Fallback:
        took_small_path = False
    assert took_small_path == small_path
    small = compile_regex(regex, SIMPLE_ALPHABET)
    assert (
        small.n_states == 2 ** (tail + 1) + 1
    )  # every window of the last tail + 1 letters, and a dead state
    assert _outcome(lambda: small) == _outcome(
        lambda: _thompson_pipeline(regex, SIMPLE_ALPHABET, 200_000)
    )
