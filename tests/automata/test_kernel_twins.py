"""Every automata kernel returns the same thing run as plain Python as compiled by numba.

:mod:`automata.jit._jit` runs a kernel's source in the interpreter while the JIT does not pay, so the
two forms must agree exactly (machine integers that wrap, dtypes of what they return). Each test
runs one workload with every kernel forced to Python and again forced to compiled, and compares.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from automata.algebra import ops
from automata.building.compile import compile_many
from automata.core.dfa import DFA
from automata.jit import _jit
from automata.strings.counting import count_by_length, log_count_by_length
from automata.strings.sampling import sample_strings
from regexlang import ast as A
from regexlang import parse
from regexlang.charset import SIMPLE_ALPHABET, UNICODE
from tests.automata.reference import python_regexes, regexes

#: Large enough for the general kernels: products past the small-pair size, tables past Moore's.
_LARGE = ["(a + b)* a" + " (a + b)" * 8, "(a + b)* b" + " (a + b)" * 7 + " c*"]


def _both(workload: Callable[[], Any]) -> tuple[Any, Any]:
    with _jit.forced("python"):
        python = workload()
    with _jit.forced("compiled"):
        compiled = workload()
    return python, compiled


def _arrays(dfa: DFA) -> tuple[list[list[int]], list[bool], int]:
    return dfa.transitions.tolist(), dfa.accepting.tolist(), dfa.start


def _pair_workload(left: A.Regex, right: A.Regex, universe: Any) -> Callable[[], Any]:
    def run() -> Any:
        a, b = compile_many([left, right], universe)
        witness = ops.equivalence_witness(a, b)
        difference = ops.symmetric_difference(a, b)
        strings = sample_strings(difference, 12, np.random.default_rng(0), max_len=8)
        reach = ops.is_empty(
            DFA(difference.transitions, difference.accepting, 0, difference.alphabet)
        )
        member = ops.accepts_many(a, strings + ["", "ab"]).tolist()
        return (
            _arrays(a),
            _arrays(b),
            witness,
            _arrays(difference),
            _arrays(ops.intersection(a, b)),
            count_by_length(difference, 10),
            log_count_by_length(difference, 30),
            strings,
            reach,
            member,
        )

    return run


@settings(max_examples=40)
@given(regexes(max_leaves=7), regexes(max_leaves=7))
def test_simple_workloads_agree(left: A.Regex, right: A.Regex) -> None:
    python, compiled = _both(_pair_workload(left, right, SIMPLE_ALPHABET))
    assert python == compiled


@settings(max_examples=40)
@given(python_regexes(max_leaves=6), python_regexes(max_leaves=6))
def test_python_dialect_workloads_agree(left: A.Regex, right: A.Regex) -> None:
    # assertions send these through the Thompson NFA and the general subset construction
    python, compiled = _both(_pair_workload(left, right, UNICODE))
    assert python == compiled


@pytest.mark.parametrize("left, right", [(_LARGE[0], _LARGE[1]), (_LARGE[0], "a* b*")])
def test_the_general_kernels_agree_on_larger_automata(left: str, right: str) -> None:
    python, compiled = _both(
        _pair_workload(parse(left, "simple"), parse(right, "simple"), SIMPLE_ALPHABET)
    )
    assert python == compiled
    assert len(python[0][0]) * 3 > 1024  # past the small kernels: the general ones ran


@given(st.integers(-(2**63), 2**63 - 1))
def test_the_hash_wraps_like_the_machine(key: int) -> None:
    from automata.jit._intern import mix

    python, compiled = _both(lambda: mix(key))
    assert python == compiled
