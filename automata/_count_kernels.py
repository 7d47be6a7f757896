"""numba kernels behind counting and sampling: dense dynamic programs over a DFA's table.

Counting the strings of each length a DFA accepts is a matrix power in disguise: the number of
accepted strings of length ``r`` from state ``s`` is ``sum_k size[k] * table[r-1, delta(s, k)]``.
The kernel runs that recurrence in float64, which is exact while every value stays below 2**53;
:mod:`automata.counting` checks the row maxima and finishes in Python integers past that point, so
the fast path never trades exactness for speed.

Kernels take and return plain numpy arrays and carry no explicit signatures, so importing this
module compiles nothing; the first call compiles (and caches on disk with ``cache=True``).
"""

from __future__ import annotations

import numba
import numpy as np
import numpy.typing as npt


@numba.njit(cache=True)  # type: ignore[untyped-decorator]
def completion_table(
    transitions: npt.NDArray[np.int32],
    sizes: npt.NDArray[np.float64],
    accepting: npt.NDArray[np.bool_],
    max_len: int,
) -> npt.NDArray[np.float64]:
    """``table[r, s]``: the number of strings of length ``r`` accepted from state ``s``."""
    n_states, n_classes = transitions.shape
    table = np.zeros((max_len + 1, n_states), dtype=np.float64)
    for s in range(n_states):
        if accepting[s]:
            table[0, s] = 1.0
    for r in range(1, max_len + 1):
        for s in range(n_states):
            total = 0.0
            for k in range(n_classes):
                total += sizes[k] * table[r - 1, transitions[s, k]]
            table[r, s] = total
    return table
