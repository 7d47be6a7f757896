"""The numba kernels behind :mod:`oracle.cegml`'s random walks, drawing CPython's own random numbers.

The ``cegml`` profile's evaluation set is hundreds of shuffled breadth-first walks per run, each
shuffling every state's successors with ``random.Random``; in Python that was the largest share of
an LLM unit's CPU (about 0.1 s per unit). The walks must draw *the very numbers* CPython draws, so
that a run's evaluation strings stay what they were: the kernels carry CPython's generator
(MT19937, whose state ``random.Random.getstate`` exposes as 624 words and an index) and draw as
CPython draws: ``getrandbits(k)`` for ``k <= 32`` is one word's top ``k`` bits, ``_randbelow(n)``
redraws ``getrandbits(n.bit_length())`` until it is below ``n``, ``random()`` takes two words.

A graph comes as arrays: state ``s``'s successors are ``heads[offsets[s]:offsets[s + 1]]`` in state
order (the edge index standing for its characters), and ``goals`` marks the states a walk may end
in. Several graphs may share the arrays, each its own range of states.
"""

from __future__ import annotations

import numpy as np

from automata.jit._jit import kernel
from automata.jit.arrays import BoolArray, Int64Array

_N, _M = 624, 397
_MATRIX_A = 0x9908B0DF
_UPPER, _LOWER = 0x80000000, 0x7FFFFFFF


@kernel(inline=True)
def next_word(mt: Int64Array) -> int:
    """The generator's next 32-bit word (CPython's ``genrand_uint32``); ``mt`` holds the 624 state
    words and, last, the index of the next one, and is advanced in place."""
    i = mt[_N]
    if i >= _N:  # the next 624 words, in place (CPython's loop, the wrap-arounds spelled out)
        for k in range(_N - _M):
            y = (mt[k] & _UPPER) | (mt[k + 1] & _LOWER)
            mt[k] = mt[k + _M] ^ (y >> 1) ^ (_MATRIX_A if y & 1 else 0)
        for k in range(_N - _M, _N - 1):
            y = (mt[k] & _UPPER) | (mt[k + 1] & _LOWER)
            mt[k] = mt[k + _M - _N] ^ (y >> 1) ^ (_MATRIX_A if y & 1 else 0)
        y = (mt[_N - 1] & _UPPER) | (mt[0] & _LOWER)
        mt[_N - 1] = mt[_M - 1] ^ (y >> 1) ^ (_MATRIX_A if y & 1 else 0)
        i = 0
    y = mt[i]
    mt[_N] = i + 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return int(y)


@kernel(inline=True)
def below(mt: Int64Array, n: int) -> int:
    """CPython's ``_randbelow(n)`` for ``1 <= n < 2**32``: ``getrandbits(n.bit_length())`` until
    below ``n``."""
    bits = 0
    rest = n
    while rest > 0:
        bits += 1
        rest >>= 1
    pick = next_word(mt) >> (32 - bits)
    while pick >= n:
        pick = next_word(mt) >> (32 - bits)
    return int(pick)


@kernel(inline=True)
def uniform(mt: Int64Array) -> float:
    """CPython's ``random()``: 53 bits from two words."""
    a = next_word(mt) >> 5
    b = next_word(mt) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


def _walk_work(
    offsets: Int64Array,
    heads: Int64Array,
    goals: BoolArray,
    start: int,
    max_len: int,
    *rest: object,
) -> int:
    """The successors a walk may shuffle at most: every edge at every depth."""
    return int(heads.shape[0]) * (max_len + 1)


def _flips_work(
    offsets: Int64Array,
    heads: Int64Array,
    goals: BoolArray,
    starts: Int64Array,
    member_ends: Int64Array,
    members: Int64Array,
    size: int,
    max_len: int,
    mt: Int64Array,
) -> int:
    """A walk's work per string (and two more to find the usable sides): the interpreter takes
    about a second for an evaluation set of 800 strings, the compiled form a hundredth of that."""
    return _walk_work(offsets, heads, goals, 0, max_len) * (size + 2)


@kernel(size=_walk_work)
def walk(
    offsets: Int64Array,
    heads: Int64Array,
    goals: BoolArray,
    start: int,
    max_len: int,
    mt: Int64Array,
    path: Int64Array,
) -> int:
    """One walk of :func:`oracle.cegml.reaching_tokens` from ``start``: its edges written to
    ``path`` (at least ``max_len`` long); their number, or -1 when no goal is reachable.

    The search goes one depth at a time, each state at most once per depth, shuffling each
    state's successors as ``rng.sample(range(n), n)`` does; the walk is one of the nodes found in
    a goal, chosen by ``rng.randrange``."""
    n = goals.shape[0]
    nodes_most = n * (max_len + 1) + 1
    parent = np.empty(nodes_most, dtype=np.int64)
    via = np.empty(nodes_most, dtype=np.int64)
    hits = np.empty(nodes_most, dtype=np.int64)
    level = np.empty(n, dtype=np.int64)
    level_nodes = np.empty(n, dtype=np.int64)
    following = np.empty(n, dtype=np.int64)
    following_nodes = np.empty(n, dtype=np.int64)
    seen = np.full(n, -1, dtype=np.int64)  # the depth at which each state was last reached
    pool = np.empty(n, dtype=np.int64)
    parent[0] = -1
    nodes = 1
    level[0] = start
    level_nodes[0] = 0
    count = 1
    found_hits = 0
    for depth in range(max_len + 1):
        found = 0
        for i in range(count):
            state = level[i]
            node = level_nodes[i]
            if goals[state]:
                hits[found_hits] = node
                found_hits += 1
            if depth == max_len:
                continue
            first = offsets[state]
            degree = offsets[state + 1] - first
            for j in range(degree):
                pool[j] = j
            for left in range(degree, 0, -1):
                pick = below(mt, left)
                edge = first + pool[pick]
                pool[pick] = pool[left - 1]
                head = heads[edge]
                if seen[head] != depth:
                    seen[head] = depth
                    parent[nodes] = node
                    via[nodes] = edge
                    following[found] = head
                    following_nodes[found] = nodes
                    nodes += 1
                    found += 1
        if found == 0:
            break
        level, following = following, level
        level_nodes, following_nodes = following_nodes, level_nodes
        count = found
    if found_hits == 0:
        return -1
    node = hits[below(mt, found_hits)]
    length = 0
    while node > 0:
        path[length] = via[node]
        node = parent[node]
        length += 1
    for i in range(length // 2):
        path[i], path[length - 1 - i] = path[length - 1 - i], path[i]
    return length


@kernel(size=_flips_work, nogil=True)  # 5-15 ms a set: the unit's other threads go on
def coin_flips(
    offsets: Int64Array,
    heads: Int64Array,
    goals: BoolArray,
    starts: Int64Array,
    member_ends: Int64Array,
    members: Int64Array,
    size: int,
    max_len: int,
    mt: Int64Array,
) -> tuple[Int64Array, Int64Array, Int64Array]:
    """:func:`oracle.cegml.coin_flip_set`'s draws over two graphs (``starts[side]``, -1 for a side
    without a goal): a side is usable when a first walk from it reaches a goal; then per string a
    fair coin between the usable sides (none when one is), a walk, and per edge ``e`` of it one of
    its characters ``members[member_ends[e - 1]:member_ends[e]]`` (code points; 0 first). Returns
    the side of each string, its length, and its code points (``max_len`` per string); no string
    when no side is usable."""
    path = np.empty(max(max_len, 1), dtype=np.int64)
    usable = np.empty(2, dtype=np.int64)
    n_usable = 0
    for side in range(2):
        if starts[side] >= 0 and walk(offsets, heads, goals, starts[side], max_len, mt, path) >= 0:
            usable[n_usable] = side
            n_usable += 1
    strings = size if n_usable > 0 else 0
    sides = np.empty(strings, dtype=np.int64)
    lengths = np.empty(strings, dtype=np.int64)
    codes = np.zeros(strings * max_len, dtype=np.int64)
    for s in range(strings):
        side = usable[0]
        if n_usable == 2 and uniform(mt) >= 0.5:
            side = usable[1]
        length = walk(offsets, heads, goals, starts[side], max_len, mt, path)
        sides[s] = side
        lengths[s] = length
        for p in range(length):
            edge = path[p]
            first = member_ends[edge - 1] if edge > 0 else 0
            codes[s * max_len + p] = members[first + below(mt, member_ends[edge] - first)]
    return sides, lengths, codes
