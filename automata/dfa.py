"""The dense DFA value every operation in ``automata`` takes and returns.

A DFA is a complete transition table ``int32[n_states, n_classes]`` over an :class:`Alphabet`,
an ``accepting`` bit per state and a start state. Complete means every cell holds a state, so a
rejecting sink ("dead state") is an ordinary row when the language needs one. Characters outside
the alphabet's universe are rejected by :meth:`DFA.accepts`.
"""

from __future__ import annotations

import attrs
import numpy as np
import numpy.typing as npt

from automata.alphabet import Alphabet

BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int32]


@attrs.frozen(eq=False)
class DFA:
    """A complete deterministic automaton over the classes of ``alphabet``."""

    transitions: IntArray
    accepting: BoolArray
    start: int
    alphabet: Alphabet

    def __attrs_post_init__(self) -> None:
        n = self.transitions.shape[0]
        if self.transitions.ndim != 2 or self.transitions.shape[1] != len(self.alphabet):
            raise ValueError(f"transition table shape {self.transitions.shape} does not match {len(self.alphabet)} classes")
        if self.accepting.shape != (n,):
            raise ValueError("one accepting bit per state is required")
        if not 0 <= self.start < n:
            raise ValueError(f"start state {self.start} out of range")

    @property
    def n_states(self) -> int:
        """Rows of the table, dead state included."""
        return int(self.transitions.shape[0])

    def accepts(self, string: str) -> bool:
        """Whether the DFA accepts ``string``."""
        state = self.start
        for cls in self.alphabet.encode(string):
            if cls < 0:
                return False
            state = int(self.transitions[state, cls])
        return bool(self.accepting[state])
