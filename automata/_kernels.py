"""numba kernels for operations on pairs of DFAs and on batches of strings.

Kernels take and return plain numpy arrays, carry no explicit signatures (so importing this module
compiles nothing; the first call compiles, and :mod:`automata.jit._jit` says where the machine code is
cached) and report limits with status codes that :mod:`automata.algebra.ops` turns into exceptions.

Pairs of states are explored breadth-first and numbered as they are found (:mod:`automata.jit._intern`,
keyed by ``left * n_right + right``), so a product costs memory for its *reachable* pairs only,
never ``n_left * n_right``.
"""

from __future__ import annotations

import numpy as np

from automata.jit._intern import grown, grown_rows, home, mix, new_table, probe, rehashed
from automata.jit._jit import kernel
from automata.jit.arrays import BoolArray, Int64Array, IntArray

OK, TOO_MANY_STATES = 0, 1


@kernel(limit="state_limit", refused=lambda result: result[3] == TOO_MANY_STATES)
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
    table = new_table(32)
    hashes = np.empty(32, dtype=np.int64)
    lefts = np.empty(32, dtype=np.int32)
    rights = np.empty(32, dtype=np.int32)
    rows = np.empty((32, k), dtype=np.int32)
    lefts[0], rights[0] = left_start, right_start
    hashes[0] = mix(np.int64(left_start) * n_right + right_start)
    table[home(table, hashes[0])] = 0
    count, head = 1, 0
    while head < count:
        p, q = lefts[head], rights[head]
        for c in range(k):
            p2, q2 = left[p, left_columns[c]], right[q, right_columns[c]]
            h = mix(np.int64(p2) * n_right + q2)
            slot = probe(table, hashes, h, home(table, h))
            state = table[slot]
            if state < 0:
                if count >= state_limit:
                    return rows[:0], lefts[:0], rights[:0], TOO_MANY_STATES
                if count == lefts.shape[0]:
                    lefts = grown(lefts, 2 * count)
                    rights = grown(rights, 2 * count)
                    hashes = grown(hashes, 2 * count)
                    rows = grown_rows(rows, 2 * count)
                state = count
                lefts[count], rights[count], hashes[count] = p2, q2, h
                table[slot] = count
                count += 1
                table = rehashed(table, hashes, count)
            rows[head, c] = state
        head += 1
    return rows[:count].copy(), lefts[:count].copy(), rights[:count].copy(), OK


@kernel(limit="state_limit", refused=lambda result: result[0] == TOO_MANY_STATES)
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
    table = new_table(32)
    hashes = np.empty(32, dtype=np.int64)
    lefts = np.empty(32, dtype=np.int32)
    rights = np.empty(32, dtype=np.int32)
    parent = np.empty(32, dtype=np.int32)
    via = np.empty(32, dtype=np.int32)
    lefts[0], rights[0], parent[0], via[0] = left_start, right_start, -1, -1
    hashes[0] = mix(np.int64(left_start) * n_right + right_start)
    table[home(table, hashes[0])] = 0
    count, head = 1, 0
    goal = -1
    if wanted[1 if left_accepting[left_start] else 0, 1 if right_accepting[right_start] else 0]:
        goal = 0
    while goal < 0 and head < count:
        p, q = lefts[head], rights[head]
        for c in range(k):
            p2, q2 = left[p, left_columns[c]], right[q, right_columns[c]]
            h = mix(np.int64(p2) * n_right + q2)
            slot = probe(table, hashes, h, home(table, h))
            if table[slot] >= 0:
                continue
            if count >= state_limit:
                return TOO_MANY_STATES, False, np.zeros(0, dtype=np.int32), False
            if count == lefts.shape[0]:
                lefts = grown(lefts, 2 * count)
                rights = grown(rights, 2 * count)
                parent = grown(parent, 2 * count)
                via = grown(via, 2 * count)
                hashes = grown(hashes, 2 * count)
            lefts[count], rights[count], parent[count], via[count], hashes[count] = (
                p2,
                q2,
                head,
                c,
                h,
            )
            table[slot] = count
            count += 1
            table = rehashed(table, hashes, count)
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


@kernel
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


@kernel
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
