"""Symbolic words checked on a DFA table, all of them in one compiled pass.

A clustered example left out of the prefix tree is checked universally on every candidate the
merge orders find, and a string of it the candidate gets wrong is learned literally in another
round. A learner call makes thousands of candidates and a long run carries dozens of such examples,
so the words are packed once per tree into flat arrays and checked by
:func:`cegis.symbolic.merging.core._kernels.misclassified`.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence

import attrs
import numpy as np

from automata.core.dfa import DFA
from automata.jit.arrays import BoolArray, Int64Array
from cegis.symbolic.merging.core import _kernels
from cegis.symbolic.merging.core.symbols import SymbolicWord

_PACKING, _WIDTHS, _POSITIONS, _LABEL = map(
    operator.attrgetter, ("packing", "widths", "positions", "label")
)


@attrs.frozen(eq=False)
class PackedWords:
    """Words as flat arrays: the classes of every position, where each position and each word
    ends, and the labels."""

    symbols: Int64Array
    position_ends: Int64Array
    word_ends: Int64Array
    labels: BoolArray

    @classmethod
    def pack(cls, words: Sequence[SymbolicWord]) -> PackedWords:
        """The packed form of ``words``."""
        return cls(
            np.frombuffer(bytearray(b"".join(map(_PACKING, words))), dtype=np.int64),
            np.cumsum(
                np.frombuffer(bytearray(b"".join(map(_WIDTHS, words))), dtype=np.int64),
                dtype=np.int64,
            ),
            np.cumsum(
                np.fromiter(map(len, map(_POSITIONS, words)), dtype=np.int64, count=len(words)),
                dtype=np.int64,
            ),
            np.fromiter(map(_LABEL, words), dtype=np.bool_, count=len(words)),
        )

    def misses(self, dfa: DFA) -> list[tuple[int, list[int]]]:
        """The words ``dfa`` labels otherwise for some of their strings, by index, each with the
        classes of one such string: at each position the first class that reaches, from the
        smallest state, the smallest state whose label is wrong at the end."""
        if not len(self.word_ends):
            return []
        path = np.empty(len(self.position_ends), dtype=np.int64)
        missed = _kernels.misclassified(
            dfa.transitions,
            dfa.accepting,
            dfa.start,
            self.symbols,
            self.position_ends,
            self.word_ends,
            self.labels,
            path,
        )
        starts = np.concatenate(([0], self.word_ends[:-1]))
        return [
            (int(w), path[starts[w] : self.word_ends[w]].tolist()) for w in np.flatnonzero(missed)
        ]
