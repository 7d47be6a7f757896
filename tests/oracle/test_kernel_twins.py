"""The oracle's kernel returns the same arrays run as plain Python as compiled by numba (see
:mod:`automata.jit._jit`); ``test_clustered.py`` checks both forms against brute-force expansion."""

from __future__ import annotations

from hypothesis import given, settings

from automata.core.dfa import DFA
from automata.jit import _jit
from oracle.clustered import _walked
from oracle.examples import Counterexample
from tests.oracle.test_clustered import small_dfas, small_examples


@settings(max_examples=50)
@given(small_dfas(), small_examples())
def test_the_walk_kernel_returns_the_same_arrays_in_both_forms(
    dfa: DFA, examples: list[Counterexample]
) -> None:
    def walked() -> tuple[list[list[bool]], list[bool], str, str]:
        reached, leaves = _walked(dfa, examples)
        return reached.tolist(), leaves.tolist(), str(reached.dtype), str(leaves.dtype)

    with _jit.forced("python"):
        python = walked()
    with _jit.forced("compiled"):
        compiled = walked()
    assert python == compiled
