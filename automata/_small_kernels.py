"""numba kernels for small automata: subset construction over position bitsets, and Moore
minimization with the canonical numbering.

The regexes of a learning loop compile to DFAs of 3 to 30 states. At that size the general
kernels (:mod:`automata.building.determinize`, the Valmari–Lehtinen refinement of :mod:`automata.core.minimize`)
spend their time allocating work arrays, and a Python pipeline spends it interpreting: a whole
compile here is one call. :func:`minimal_positions` determinizes a position automaton whose
positions fit one int64 bitset (at most :data:`MAX_POSITIONS`, see :mod:`automata.building.positions`) and
minimizes the result in the same call; :func:`minimal_table` minimizes any small table (products,
complements). Both end in :func:`_moore`, so there is one small-size minimizer.

Moore's refinement starts from {accepting, rejecting} and splits blocks by the blocks of their
successors until nothing splits; each round hashes the signatures (block, successor blocks) of all
states, so a round costs O(states × classes) and the rounds are as many as the longest distinguishing
string is long. Blocks are numbered by their first state, and the input is numbered breadth-first
from the start state (subset construction discovers states that way; :func:`minimal_table`
renumbers), so the block numbers are already the canonical breadth-first numbering of the minimal
DFA: only the dead state (the block of the empty language) moves to the end. The result is the one
:func:`automata.core.minimize.minimize` defines.

The kernels are written with explicit loops, never array expressions (``a[:] = -1``,
``a[i:] -= 1``): numba compiles those through its array-expression machinery, which made these
kernels take several seconds to JIT in a fresh process instead of about one.
"""

from __future__ import annotations

import numpy as np

from automata.jit._intern import home, mix, new_table, probe
from automata.jit._jit import kernel
from automata.jit.arrays import BoolArray, Int64Array, IntArray

#: Most positions a position automaton may have for :func:`minimal_positions` (one int64 bitset,
#: plus the "may end here" bit of a state key).
MAX_POSITIONS = 62

OK, TOO_MANY_STATES, TOO_MANY_ITEMS, TOO_LARGE = 0, 1, 2, 3


@kernel
def minimal_positions(
    n_positions: int,
    n_links: int,
    data: Int64Array,
    first: int,
    last: int,
    nullable: bool,
    never: int,
    state_limit: int,
    item_limit: int,
    max_states: int,
) -> tuple[IntArray, BoolArray, int]:
    """The canonical minimal DFA of a position automaton given as bitsets over its positions.

    ``data`` holds, in one array so that the caller converts one list, the ``n_links`` links (pairs
    ``data[2 * i]``, ``data[2 * i + 1]``: any position of the first set may be followed by any of
    the second) and then one entry per class, the positions that read it. ``never`` are positions
    that read nothing (dropped from every follow set).

    A DFA state is the key ``ready * 2 + may_end`` (positions that can fire next, and whether the
    last character read can end a match): the item set the Thompson subset construction stores, so
    ``state_limit`` and ``item_limit`` (stored positions) trip where :mod:`automata.building.determinize`
    would. Past ``max_states`` states the status is ``TOO_LARGE`` and the caller uses the general
    kernels.
    """
    k = data.shape[0] - 2 * n_links
    by_class = data[2 * n_links :]
    follow = np.zeros(n_positions, dtype=np.int64)
    for i in range(n_links):
        lasts, firsts = data[2 * i], data[2 * i + 1] & ~never
        for p in range(n_positions):
            if lasts >> p & 1:
                follow[p] |= firsts
    table = new_table(max_states)
    keys = np.empty(max_states, dtype=np.int64)
    hashes = np.empty(max_states, dtype=np.int64)
    rows = np.empty((max_states, k), dtype=np.int32)

    start = first * 2 + (1 if nullable else 0)
    items = _popcount(start)
    if items > item_limit:
        return rows[:0], np.zeros(0, dtype=np.bool_), TOO_MANY_ITEMS
    keys[0] = start
    hashes[0] = mix(start)
    table[home(table, hashes[0])] = 0
    n = 1
    source = 0
    while source < n:
        ready = keys[source] >> 1
        for c in range(k):
            fired = ready & by_class[c]
            following = 0
            for p in range(n_positions):
                if fired >> p & 1:
                    following |= follow[p]
            target = following * 2 + (1 if fired & last else 0)
            h = mix(target)
            slot = probe(
                table, hashes, h, home(table, h)
            )  # ``mix`` is a bijection: one probe decides
            state = table[slot]
            if state < 0:
                count = _popcount(target)
                status = OK
                if n >= state_limit:
                    status = TOO_MANY_STATES
                elif items + count > item_limit:
                    status = TOO_MANY_ITEMS
                elif n >= max_states:
                    status = TOO_LARGE
                if status != OK:
                    return rows[:0], np.zeros(0, dtype=np.bool_), status
                items += count
                state = n
                keys[n] = target
                hashes[n] = h
                table[slot] = n
                n += 1
            rows[source, c] = state
        source += 1
    accepting = np.empty(n, dtype=np.bool_)
    for q in range(n):
        accepting[q] = keys[q] & 1 == 1
    result, final = _moore(rows[:n], accepting)
    return result, final, OK


@kernel
def minimal_table(
    transitions: IntArray, accepting: BoolArray, start: int
) -> tuple[IntArray, BoolArray]:
    """The canonical minimal DFA of any table (unreachable states, ``-1`` for a missing move):
    renumbered breadth-first from ``start`` with a rejecting sink for the missing moves, then
    minimized by :func:`_moore`."""
    n, k = transitions.shape
    number = np.empty(n + 1, dtype=np.int32)  # number[n]: the sink
    for q in range(n + 1):
        number[q] = -1
    order = np.empty(n + 1, dtype=np.int32)
    number[start] = 0
    order[0] = start
    found = 1
    head = 0
    while head < found:
        q = order[head]
        head += 1
        if q == n:
            continue
        for c in range(k):
            t = transitions[q, c]
            if t < 0:
                t = n
            if number[t] < 0:
                number[t] = found
                order[found] = t
                found += 1
    rows = np.empty((found, k), dtype=np.int32)
    final = np.zeros(found, dtype=np.bool_)
    for i in range(found):
        q = order[i]
        if q == n:
            for c in range(k):
                rows[i, c] = i
            continue
        final[i] = accepting[q]
        for c in range(k):
            t = transitions[q, c]
            rows[i, c] = number[n if t < 0 else t]
    return _moore(rows, final)


@kernel
def _moore(rows: IntArray, accepting: BoolArray) -> tuple[IntArray, BoolArray]:
    """Moore refinement of a complete table numbered breadth-first from state 0, and the canonical
    numbering of the result (see the module docstring)."""
    n, k = rows.shape
    slots = new_table(n)
    capacity = slots.shape[0]
    scratch = np.empty(3 * n, dtype=np.int32)  # one allocation: at this size they add up
    block = scratch[:n]
    refined = scratch[n : 2 * n]
    representative = scratch[2 * n : 3 * n]
    signature = np.empty(n, dtype=np.int64)  # the hash of each new block's signature
    count = 1
    for q in range(n):
        block[q] = 0 if accepting[q] == accepting[0] else 1
        if block[q] == 1:
            count = 2
    while count < n:
        for i in range(capacity):
            slots[i] = -1
        blocks = 0
        for q in range(n):
            h = mix(block[q])
            for c in range(k):
                h = mix(h ^ int(block[rows[q, c]]))
            slot = probe(slots, signature, h, home(slots, h))
            while slots[slot] >= 0:
                p = representative[slots[slot]]
                same = block[p] == block[q]
                for c in range(k):
                    if not same:
                        break
                    same = block[rows[p, c]] == block[rows[q, c]]
                if same:
                    break
                slot = probe(slots, signature, h, (slot + 1) & (capacity - 1))
            b = slots[slot]
            if b < 0:
                b = blocks
                slots[slot] = b
                signature[b] = h
                representative[b] = q
                blocks += 1
            refined[q] = b
        for q in range(n):
            block[q] = refined[q]
        if blocks == count:
            break
        count = blocks
    # Blocks are numbered by their first state; the first state of each block represents it.
    first = representative[:count]
    for b in range(count):
        first[b] = -1
    for q in range(n):
        if first[block[q]] < 0:
            first[block[q]] = q
    dead = -1
    for b in range(count):
        q = first[b]
        if not accepting[q]:
            loops = 0
            for c in range(k):
                if block[rows[q, c]] == b:
                    loops += 1
            if loops == k:
                dead = b
                break
    if dead == 0:
        return np.zeros((1, k), dtype=np.int32), np.zeros(1, dtype=np.bool_)
    number = refined[:count]
    for b in range(count):
        number[b] = b
    if dead > 0:
        for b in range(dead + 1, count):
            number[b] -= 1
        number[dead] = count - 1
    result = np.empty((count, k), dtype=np.int32)
    final = np.empty(count, dtype=np.bool_)
    for b in range(count):
        q = first[b]
        final[number[b]] = accepting[q]
        for c in range(k):
            result[number[b], c] = number[block[rows[q, c]]]
    return result, final


@kernel
def _popcount(bits: int) -> int:
    count = 0
    while bits:
        bits &= bits - 1
        count += 1
    return count
