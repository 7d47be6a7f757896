"""numba kernel for the subset construction over bit sets behind :func:`automata.printing.structure.explore`.

The languages :mod:`automata.printing.structure` and :mod:`automata.printing.counted` derive from a DFA (cores,
primes, least rests) are subset constructions of small machines given bit by bit: bit ``b`` leads
on class ``c`` to the bits ``images[b, c]``. Most of the sets they meet are new (a set of runs
beside the DFA's own run), and many constructions run to the state limit before giving up, so the
work is millions of set images and look-ups: compiled, each is a few word operations.

A set is a row of ``n_words`` int64 words of 63 bits each (non-negative, so shifting a word right
empties it), numbered through the open-addressing table of :mod:`automata.jit._intern` (hashing the
words, comparing them on a hash match). Sets are numbered breadth-first as found.
"""

from __future__ import annotations

import numpy as np

from automata.jit._intern import grown, grown_rows, home, mix, new_table, probe, rehashed
from automata.jit._jit import kernel
from automata.jit.arrays import Int64Array, IntArray

#: Bits held by one word of a set.
WORD_BITS = 63

OK, TOO_MANY_STATES = 0, 1


@kernel(limit="state_limit", refused=lambda result: result[2] == TOO_MANY_STATES)
def subsets(
    start: Int64Array, images: Int64Array, alive: Int64Array, state_limit: int
) -> tuple[IntArray, Int64Array, int]:
    """The subset construction from the set ``start`` (``n_words`` words): on class ``c`` a set
    leads to the union of ``images[b, c]`` (``n_words`` words each) over its bits ``b``, or to the
    empty set when that union has no bit of ``alive``.

    Returns the table (sets numbered breadth-first, ``start`` first), the sets as one flat array of
    words (``n_words`` per set), and a status: :data:`TOO_MANY_STATES` when more than
    ``state_limit`` sets are reachable.
    """
    n_words = start.shape[0]
    n_classes = images.shape[1]
    keys = np.empty(32 * n_words, dtype=np.int64)
    hashes = np.empty(32, dtype=np.int64)
    rows = np.empty((32, n_classes), dtype=np.int32)
    table = new_table(32)
    for u in range(n_words):
        keys[u] = start[u]
    hashes[0] = _hash(keys, 0, n_words)
    table[home(table, hashes[0])] = 0
    targets = np.empty(n_classes * n_words, dtype=np.int64)
    count, head = 1, 0
    while head < count:
        for i in range(n_classes * n_words):
            targets[i] = 0
        for v in range(n_words):
            word = keys[head * n_words + v]
            bit = v * WORD_BITS
            while word != 0:
                if word & 1:
                    for c in range(n_classes):
                        for u in range(n_words):
                            targets[c * n_words + u] |= images[bit, c, u]
                word >>= 1
                bit += 1
        for c in range(n_classes):
            at = c * n_words
            living = False
            for u in range(n_words):
                if targets[at + u] & alive[u] != 0:
                    living = True
            if not living:
                for u in range(n_words):
                    targets[at + u] = 0
            h = _hash(targets, at, n_words)
            slot = home(table, h)
            while True:
                slot = probe(table, hashes, h, slot)
                state = table[slot]
                if state < 0 or _same(keys, state * n_words, targets, at, n_words):
                    break
                slot = (slot + 1) & (table.shape[0] - 1)
            if state < 0:
                if count >= state_limit:
                    return rows[:0], keys[:0], TOO_MANY_STATES
                if count == hashes.shape[0]:
                    keys = grown(keys, 2 * count * n_words)
                    hashes = grown(hashes, 2 * count)
                    rows = grown_rows(rows, 2 * count)
                for u in range(n_words):
                    keys[count * n_words + u] = targets[at + u]
                hashes[count] = h
                table[slot] = count
                state = count
                count += 1
                table = rehashed(table, hashes, count)
            rows[head, c] = state
        head += 1
    return rows[:count].copy(), keys[: count * n_words].copy(), OK


@kernel
def _hash(words: Int64Array, at: int, n_words: int) -> int:
    """The hash of the ``n_words`` words from ``words[at]``."""
    h = 0
    for u in range(n_words):
        h = mix(h ^ words[at + u])
    return h


@kernel
def _same(left: Int64Array, left_at: int, right: Int64Array, right_at: int, n_words: int) -> bool:
    """Whether the ``n_words`` words from ``left[left_at]`` and ``right[right_at]`` are equal."""
    for u in range(n_words):
        if left[left_at + u] != right[right_at + u]:
            return False
    return True
