"""Finite automata for regex languages: regex → minimal DFA, the algebra of their languages, and the
strings they accept.

Dense numpy tables over alphabet equivalence classes; hot loops in numba. Depends only on
``regexlang``. The package is a house of rooms, each opened by a module that teaches it; a room
imports only the rooms below it (the ``automata-rooms`` contract in ``setup.cfg``):

* :mod:`automata.printing`: a DFA printed back as a readable regex;
* :mod:`automata.strings`: counting, sampling and listing the strings a DFA accepts;
* :mod:`automata.building`: regex → NFA → DFA, lookarounds and assertions included;
* :mod:`automata.algebra`: products, decisions, equivalence with witnesses;
* :mod:`automata.core`: the :class:`DFA` value, its alphabet of classes, minimization;
* :mod:`automata.jit`: how the numba kernels are compiled, cached and timed;
* :mod:`automata.errors`: the one error family of the package.

The names below are the ones a user needs: compile, compare, draw strings, and the errors to
catch. Everything else is imported from its room.
"""

from automata.algebra.ops import (
    Witness,
    accepts,
    accepts_many,
    complement,
    difference,
    equivalence_witness,
    equivalent,
    intersection,
    is_empty,
    is_subset,
    is_universal,
    num_states,
    union,
)
from automata.building.compile import compile_many, compile_regex, from_text
from automata.core.alphabet import Alphabet
from automata.core.dfa import DFA
from automata.errors import (
    DEFAULT_STATE_LIMIT,
    AutomataError,
    SizeLimitExceeded,
    StateLimitExceeded,
    TimeLimitExceeded,
    UnsupportedRegex,
)
from automata.strings.counting import count_by_length
from automata.strings.sampling import sample_strings, shortest

__all__ = [
    "DEFAULT_STATE_LIMIT",
    "DFA",
    "Alphabet",
    "AutomataError",
    "SizeLimitExceeded",
    "StateLimitExceeded",
    "TimeLimitExceeded",
    "UnsupportedRegex",
    "Witness",
    "accepts",
    "accepts_many",
    "complement",
    "compile_many",
    "compile_regex",
    "count_by_length",
    "difference",
    "equivalence_witness",
    "equivalent",
    "from_text",
    "intersection",
    "is_empty",
    "is_subset",
    "is_universal",
    "num_states",
    "sample_strings",
    "shortest",
    "union",
]
