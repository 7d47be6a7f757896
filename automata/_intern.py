"""Numbering keys as they are discovered: the open-addressing table and growable arrays every
construction kernel uses.

Subset construction, products and minimization all meet the same problem: a stream of keys (an
item set, a pair of states, a position bitset, a block signature) must get dense numbers
``0, 1, 2, ...`` in order of discovery, and a key seen before must get its old number back. Each
kernel keeps, per number, the key's 64-bit hash in ``hashes``, and a power-of-two ``table`` of
numbers (``-1`` for a free slot) probed linearly from the hash's high bits. :func:`probe` walks the
probe sequence to the next slot that is free or holds a number with the same hash; a kernel whose
keys are single int64 values hashes them with :func:`mix`, a bijection, so equal hashes mean equal
keys and one probe answers, while a kernel with longer keys compares them and probes on from
``slot + 1``. The table is kept at most half full (:func:`rehashed`), so probes stay short.

Kernels grow their per-number arrays by doubling (:func:`grown`), so they allocate in proportion to
what they actually discover, never to a worst case.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from automata.jit._jit import kernel
from automata.jit.arrays import Int64Array, IntArray

#: An odd multiplier (2**64 / golden ratio, as a signed int64): multiplying by it permutes int64.
_GOLDEN = -7046029254386353131
#: The hash bits below this shift are the weakly mixed ones; slots are taken from the bits above.
_SHIFT = 20


@kernel
def mix(key: int) -> int:
    """The hash of an int64 key: a bijection, so distinct keys never share a hash."""
    return int(np.int64(key) * np.int64(_GOLDEN))


@kernel
def new_table(numbers: int) -> IntArray:
    """An empty table with room for ``numbers`` numbers at most half full."""
    capacity = 16
    while capacity < 2 * numbers:
        capacity *= 2
    table = np.empty(capacity, dtype=np.int32)
    for i in range(capacity):
        table[i] = -1
    return table


@kernel
def home(table: IntArray, h: int) -> int:
    """The first slot of the probe sequence of hash ``h``."""
    return int((h >> _SHIFT) & (table.shape[0] - 1))


@kernel
def probe(table: IntArray, hashes: Int64Array, h: int, slot: int) -> int:
    """From ``slot`` on, the first slot that is free or holds a number whose hash is ``h``."""
    mask = table.shape[0] - 1
    while table[slot] >= 0 and hashes[table[slot]] != h:
        slot = (slot + 1) & mask
    return slot


@kernel
def rehashed(table: IntArray, hashes: Int64Array, count: int) -> IntArray:
    """``table`` with twice the room once ``count`` numbers fill half of it, else ``table`` itself."""
    if 2 * count <= table.shape[0]:
        return table
    bigger = np.empty(2 * table.shape[0], dtype=np.int32)
    for i in range(bigger.shape[0]):
        bigger[i] = -1
    mask = bigger.shape[0] - 1
    for number in range(count):
        slot = (hashes[number] >> _SHIFT) & mask
        while bigger[slot] >= 0:
            slot = (slot + 1) & mask
        bigger[slot] = number
    return bigger


@kernel
def grown(array: npt.NDArray[Any], size: int) -> npt.NDArray[Any]:
    """A copy of the 1-d ``array`` with room for ``size`` entries (the new ones uninitialised)."""
    result = np.empty(size, dtype=array.dtype)
    for i in range(array.shape[0]):
        result[i] = array[i]
    return result


@kernel
def grown_rows(rows: IntArray, size: int) -> IntArray:
    """A copy of the table ``rows`` with room for ``size`` rows (the new ones uninitialised)."""
    result = np.empty((size, rows.shape[1]), dtype=np.int32)
    for i in range(rows.shape[0]):
        for j in range(rows.shape[1]):
            result[i, j] = rows[i, j]
    return result
