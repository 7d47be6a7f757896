"""A DFA is a value: its arrays refuse writes, however it was built (issue 49: memory as values)."""

from __future__ import annotations

import numpy as np
import pytest

from automata import DFA, complement, from_text
from automata.core.alphabet import partition
from regexlang.charset import CharSet


@pytest.mark.parametrize("text", ["ab*c", "(?=.*1)[a-z1]{2,}", "[a-c]*b[a-c]{3}"])
def test_compiled_and_derived_dfas_refuse_writes(text: str) -> None:
    dfa = from_text(text, "python")
    for made in (dfa, complement(dfa)):
        with pytest.raises(ValueError, match="read-only"):
            made.transitions[0, 0] = 1
        with pytest.raises(ValueError, match="read-only"):
            made.accepting[0] = not made.accepting[0]


def test_a_hand_built_dfa_refuses_writes() -> None:
    alphabet = partition(CharSet.of("ab"), [CharSet.of("a")])
    dfa = DFA(np.zeros((1, len(alphabet)), dtype=np.int32), np.array([True]), 0, alphabet)
    with pytest.raises(ValueError, match="read-only"):
        dfa.transitions[0, 0] = 0
