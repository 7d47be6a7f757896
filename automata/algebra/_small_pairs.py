"""The product exploration of :mod:`automata.algebra._kernels` in plain Python, for small pairs of DFAs.

Why: a teacher step compares a hypothesis with its target, two DFAs of a few states each. At that
size these loops cost tens of microseconds in Python, while the numba kernels cost seconds of
compilation in a fresh process before their first answer. When: :func:`small` says which pairs
(at most :data:`SMALL_PRODUCT` cells in the product of the two tables); larger pairs go to the
kernels. Both functions take the tables as Python lists and return exactly what their kernels do
(:func:`automata.algebra._kernels.product`, :func:`automata.algebra._kernels.shortest_distinction`): the same
breadth-first numbering, the same path, the same status codes.
"""

from __future__ import annotations

from collections.abc import Sequence

from automata.algebra._kernels import OK, TOO_MANY_STATES
from automata.core.dfa import DFA

#: Product tables (pairs × classes) up to this many cells are explored in Python.
SMALL_PRODUCT = 1024

Rows = list[list[int]]


def small(left: DFA, right: DFA, n_classes: int) -> bool:
    """Whether the product of ``left`` and ``right`` over ``n_classes`` classes is explored here."""
    return left.n_states * right.n_states * n_classes <= SMALL_PRODUCT


def product(
    left: Rows,
    left_columns: Sequence[int],
    left_start: int,
    right: Rows,
    right_columns: Sequence[int],
    right_start: int,
    state_limit: int,
) -> tuple[Rows, list[int], list[int], int]:
    """The reachable product, as :func:`automata.algebra._kernels.product` returns it."""
    columns = list(zip(left_columns, right_columns))
    index = {(left_start, right_start): 0}
    pairs = [(left_start, right_start)]
    table = []
    for p, q in pairs:  # the list grows while it is read: breadth first
        left_row, right_row = left[p], right[q]
        row = []
        for left_column, right_column in columns:
            pair = (left_row[left_column], right_row[right_column])
            state = index.get(pair)
            if state is None:
                if len(pairs) >= state_limit:
                    return [], [], [], TOO_MANY_STATES
                state = index[pair] = len(pairs)
                pairs.append(pair)
            row.append(state)
        table.append(row)
    return table, [p for p, _ in pairs], [q for _, q in pairs], OK


def shortest_distinction(
    left: Rows,
    left_columns: Sequence[int] | None,
    left_accepting: list[bool],
    left_start: int,
    right: Rows,
    right_columns: Sequence[int] | None,
    right_accepting: list[bool],
    right_start: int,
    wanted: Sequence[Sequence[bool]],
    state_limit: int,
) -> tuple[int, bool, list[int], bool]:
    """Breadth-first search of the product for the first pair ``wanted`` marks, as
    :func:`automata.algebra._kernels.shortest_distinction` does it: ``(status, found, path, left accepts)``.
    Columns None: both tables are over one alphabet (the usual case), read column for column."""
    start = (left_start, right_start)
    if wanted[left_accepting[left_start]][right_accepting[right_start]]:
        return OK, True, [], left_accepting[left_start]
    if left_columns is None or right_columns is None:
        columns = tuple((k, (k, k)) for k in range(len(left[0])))  # class k reads column k
    else:
        columns = tuple(enumerate(zip(left_columns, right_columns)))
    parent = {start: (start, -1)}
    frontier = [start]
    for p, q in frontier:
        left_row, right_row = left[p], right[q]
        for cls, (left_column, right_column) in columns:
            pair = (left_row[left_column], right_row[right_column])
            if pair in parent:
                continue
            if len(parent) >= state_limit:
                return TOO_MANY_STATES, False, [], False
            parent[pair] = ((p, q), cls)
            frontier.append(pair)
            if wanted[left_accepting[pair[0]]][right_accepting[pair[1]]]:
                path = []
                while pair != start:
                    pair, cls = parent[pair]
                    path.append(cls)
                path.reverse()
                return OK, True, path, left_accepting[frontier[-1][0]]
    return OK, False, [], False
