"""Finite automata for regex languages: Thompson NFA, subset construction, Hopcroft minimization,
products, equivalence with witnesses, counting, sampling and path enumeration.

Dense numpy tables over alphabet equivalence classes; hot loops in numba. Depends only on
``regexlang``.
"""

from automata.alphabet import Alphabet, common_refinement, partition
from automata.compile import alphabet_of, compile_many, compile_regex, from_text
from automata.dfa import DFA
from automata.errors import DEFAULT_STATE_LIMIT, AlphabetMismatch, AutomataError, StateLimitExceeded, UnsupportedRegex
from automata.minimize import minimize
from automata.ops import (
    Witness,
    accepts,
    accepts_many,
    align,
    complement,
    dead_state,
    difference,
    equivalence_witness,
    equivalent,
    inclusion_witness,
    intersection,
    is_empty,
    is_subset,
    is_universal,
    num_states,
    symmetric_difference,
    union,
)

__all__ = [
    "DEFAULT_STATE_LIMIT",
    "DFA",
    "Alphabet",
    "AlphabetMismatch",
    "AutomataError",
    "StateLimitExceeded",
    "UnsupportedRegex",
    "Witness",
    "accepts",
    "accepts_many",
    "align",
    "alphabet_of",
    "common_refinement",
    "compile_many",
    "compile_regex",
    "complement",
    "dead_state",
    "difference",
    "equivalence_witness",
    "equivalent",
    "from_text",
    "inclusion_witness",
    "intersection",
    "is_empty",
    "is_subset",
    "is_universal",
    "minimize",
    "num_states",
    "partition",
    "symmetric_difference",
    "union",
]
