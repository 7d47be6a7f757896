"""numba kernels for operations on pairs of DFAs and on batches of strings.

Kernels take and return plain numpy arrays, carry no explicit signatures (so importing this module
compiles nothing; the first call compiles and ``cache=True`` keeps the machine code on disk) and
report limits with status codes that :mod:`automata.ops` turns into exceptions.

Pairs of states are explored breadth-first and interned in an open-addressing hash table keyed by
``left * n_right + right``, so a product costs memory for its *reachable* pairs only, never
``n_left * n_right``.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np
import numpy.typing as npt

from automata.dfa import BoolArray, IntArray

Int64Array = npt.NDArray[np.int64]

OK, TOO_MANY_STATES = 0, 1
_GOLDEN = -7046029254386353131  # 2**64 / golden ratio, as a signed 64-bit multiplier


@numba.njit(cache=True)
def _slot(keys: Int64Array, key: int) -> int:
    mask = len(keys) - 1
    slot: int = ((key * _GOLDEN) >> 20) & mask
    while keys[slot] >= 0 and keys[slot] != key:
        slot = (slot + 1) & mask
    return slot


@numba.njit(cache=True)
def _rehash(keys: Int64Array, values: IntArray) -> tuple[Int64Array, IntArray]:
    bigger_keys = np.full(2 * keys.shape[0], -1, dtype=np.int64)
    bigger_values = np.empty(2 * keys.shape[0], dtype=np.int32)
    for i in range(keys.shape[0]):
        if keys[i] >= 0:
            slot = _slot(bigger_keys, keys[i])
            bigger_keys[slot] = keys[i]
            bigger_values[slot] = values[i]
    return bigger_keys, bigger_values


@numba.njit(cache=True)
def _grow(array: npt.NDArray[Any], size: int) -> npt.NDArray[Any]:
    grown = np.empty(size, dtype=array.dtype)
    grown[: array.shape[0]] = array
    return grown


@numba.njit(cache=True)
def product(
    left: IntArray,
    left_columns: IntArray,
    left_start: int,
    right: IntArray,
    right_columns: IntArray,
    right_start: int,
    state_limit: int,
) -> tuple[IntArray, IntArray, IntArray, int]:
    """The reachable part of the product of two complete tables. Class ``c`` of the product reads
    column ``left_columns[c]`` of ``left`` and ``right_columns[c]`` of ``right``.

    Returns the product table, the left and right component of each product state, and a status.
    """
    n_right = right.shape[0]
    k = left_columns.shape[0]
    keys = np.full(64, -1, dtype=np.int64)
    values = np.empty(64, dtype=np.int32)
    lefts = np.empty(32, dtype=np.int32)
    rights = np.empty(32, dtype=np.int32)
    table = np.empty((32, k), dtype=np.int32)
    lefts[0], rights[0] = left_start, right_start
    slot = _slot(keys, np.int64(left_start) * n_right + right_start)
    keys[slot], values[slot] = np.int64(left_start) * n_right + right_start, 0
    count, head = 1, 0
    while head < count:
        p, q = lefts[head], rights[head]
        for c in range(k):
            p2, q2 = left[p, left_columns[c]], right[q, right_columns[c]]
            key = np.int64(p2) * n_right + q2
            slot = _slot(keys, key)
            if keys[slot] < 0:
                if count >= state_limit:
                    return table[:0], lefts[:0], rights[:0], TOO_MANY_STATES
                if count == lefts.shape[0]:
                    lefts = _grow(lefts, 2 * count)
                    rights = _grow(rights, 2 * count)
                    wider = np.empty((2 * count, k), dtype=np.int32)
                    wider[:count] = table[:count]
                    table = wider
                lefts[count], rights[count] = p2, q2
                keys[slot], values[slot] = key, count
                count += 1
                if 2 * count > keys.shape[0]:
                    keys, values = _rehash(keys, values)
                    slot = _slot(keys, key)
            table[head, c] = values[slot]
        head += 1
    return table[:count].copy(), lefts[:count].copy(), rights[:count].copy(), OK


@numba.njit(cache=True)
def shortest_distinction(
    left: IntArray,
    left_columns: IntArray,
    left_accepting: BoolArray,
    left_start: int,
    right: IntArray,
    right_columns: IntArray,
    right_accepting: BoolArray,
    right_start: int,
    wanted: BoolArray,
    state_limit: int,
) -> tuple[int, bool, IntArray, bool]:
    """Breadth-first search of the product (columns as in :func:`product`) for the first pair
    ``(p, q)`` with ``wanted[left_accepting[p], right_accepting[q]]``, classes tried in index order,
    so the path found is the shortest and, among those, the smallest class sequence.

    Returns ``(status, found, path, left accepts the path)``; the product is explored on the fly,
    never materialized.
    """
    n_right = right.shape[0]
    k = left_columns.shape[0]
    keys = np.full(64, -1, dtype=np.int64)
    values = np.empty(64, dtype=np.int32)
    lefts = np.empty(32, dtype=np.int32)
    rights = np.empty(32, dtype=np.int32)
    parent = np.empty(32, dtype=np.int32)
    via = np.empty(32, dtype=np.int32)
    lefts[0], rights[0], parent[0], via[0] = left_start, right_start, -1, -1
    start_key = np.int64(left_start) * n_right + right_start
    slot = _slot(keys, start_key)
    keys[slot], values[slot] = start_key, 0
    count, head = 1, 0
    goal = -1
    if wanted[1 if left_accepting[left_start] else 0, 1 if right_accepting[right_start] else 0]:
        goal = 0
    while goal < 0 and head < count:
        p, q = lefts[head], rights[head]
        for c in range(k):
            p2, q2 = left[p, left_columns[c]], right[q, right_columns[c]]
            key = np.int64(p2) * n_right + q2
            slot = _slot(keys, key)
            if keys[slot] >= 0:
                continue
            if count >= state_limit:
                return TOO_MANY_STATES, False, np.zeros(0, dtype=np.int32), False
            if count == lefts.shape[0]:
                lefts = _grow(lefts, 2 * count)
                rights = _grow(rights, 2 * count)
                parent = _grow(parent, 2 * count)
                via = _grow(via, 2 * count)
            lefts[count], rights[count], parent[count], via[count] = p2, q2, head, c
            keys[slot], values[slot] = key, count
            count += 1
            if 2 * count > keys.shape[0]:
                keys, values = _rehash(keys, values)
            if wanted[1 if left_accepting[p2] else 0, 1 if right_accepting[q2] else 0]:
                goal = count - 1
                break
        head += 1
    if goal < 0:
        return OK, False, np.zeros(0, dtype=np.int32), False
    length = 0
    node = goal
    while parent[node] >= 0:
        length += 1
        node = parent[node]
    path = np.empty(length, dtype=np.int32)
    node = goal
    for i in range(length - 1, -1, -1):
        path[i] = via[node]
        node = parent[node]
    return OK, True, path, left_accepting[lefts[goal]]


@numba.njit(cache=True)
def run_many(
    transitions: IntArray, accepting: BoolArray, start: int, classes: IntArray, offsets: Int64Array
) -> BoolArray:
    """Membership of each string ``classes[offsets[i]:offsets[i+1]]`` (class -1 rejects)."""
    n = offsets.shape[0] - 1
    result = np.zeros(n, dtype=np.bool_)
    for i in range(n):
        state = start
        ok = True
        for j in range(offsets[i], offsets[i + 1]):
            cls = classes[j]
            if cls < 0:
                ok = False
                break
            state = transitions[state, cls]
        result[i] = ok and accepting[state]
    return result


@numba.njit(cache=True)
def reachable(transitions: IntArray, start: int) -> BoolArray:
    """The states reachable from ``start``."""
    seen = np.zeros(transitions.shape[0], dtype=np.bool_)
    stack = np.empty(transitions.shape[0], dtype=np.int32)
    seen[start] = True
    stack[0] = start
    top = 1
    while top > 0:
        top -= 1
        q = stack[top]
        for c in range(transitions.shape[1]):
            t = transitions[q, c]
            if not seen[t]:
                seen[t] = True
                stack[top] = t
                top += 1
    return seen
