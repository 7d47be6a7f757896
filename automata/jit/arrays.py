"""The numpy array types of the automata layer, named once.

A DFA is dense arrays (a transition table ``int32[n_states, n_classes]``, a bit per state), and the
kernels trade in the same few dtypes: ``int32`` for states and classes, ``int64`` for keys, bitsets,
offsets and big-number digits, ``int8`` for small codes. Every module spells them with these names.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

BoolArray = npt.NDArray[np.bool_]
Int8Array = npt.NDArray[np.int8]
#: States and classes.
IntArray = npt.NDArray[np.int32]
Int64Array = npt.NDArray[np.int64]
#: Counts carried as scaled floats (:func:`automata.strings.counting.log_count_by_length`).
FloatArray = npt.NDArray[np.float64]
