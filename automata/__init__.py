"""Finite automata for regex languages: Thompson NFA, subset construction, Hopcroft minimization,
products, equivalence with witnesses, counting, sampling and path enumeration.

Dense numpy tables over alphabet equivalence classes; hot loops in numba. Depends only on
``regexlang``. The names below are the ones other packages use; every submodule keeps its own
name (``automata.core.minimize`` is the module, its function is ``automata.core.minimize.minimize``).
"""

from automata.algebra.ops import (
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
from automata.building.compile import alphabet_of, compile_many, compile_regex, from_text
from automata.core.alphabet import Alphabet, common_refinement, partition
from automata.core.dfa import DFA, coreachable
from automata.errors import (
    DEFAULT_STATE_LIMIT,
    AlphabetMismatch,
    AutomataError,
    SizeLimitExceeded,
    StateLimitExceeded,
    UnsupportedRegex,
)
from automata.strings.counting import Completions, completions, count_by_length, diff_ratio
from automata.strings.paths import Path, Step, accepting_paths, steps_from
from automata.strings.sampling import sample, sample_strings, shortest

__all__ = [
    "DEFAULT_STATE_LIMIT",
    "DFA",
    "Alphabet",
    "AlphabetMismatch",
    "AutomataError",
    "Completions",
    "Path",
    "SizeLimitExceeded",
    "StateLimitExceeded",
    "Step",
    "UnsupportedRegex",
    "Witness",
    "accepting_paths",
    "accepts",
    "accepts_many",
    "align",
    "alphabet_of",
    "common_refinement",
    "compile_many",
    "compile_regex",
    "complement",
    "completions",
    "coreachable",
    "count_by_length",
    "dead_state",
    "diff_ratio",
    "difference",
    "equivalence_witness",
    "equivalent",
    "from_text",
    "inclusion_witness",
    "intersection",
    "is_empty",
    "is_subset",
    "is_universal",
    "num_states",
    "partition",
    "sample",
    "sample_strings",
    "shortest",
    "steps_from",
    "symmetric_difference",
    "union",
]
