"""When a kernel runs as plain Python and when compiled (:mod:`automata.jit._jit`)."""

from __future__ import annotations

from typing import Any, cast

import numpy as np
import pytest

from automata.jit import _jit


def _fresh_kernel() -> Any:
    """A kernel of its own (the shared ones keep their state for the whole test session), as in a
    process whose cache does not hold it (a cached kernel runs compiled at once: test_jit_limits)."""
    from automata.algebra._kernels import reachable

    k: Any = _jit.Kernel(cast(Any, reachable).py_func)
    k._on_disk = False
    return k


def test_small_calls_run_as_python_until_the_budget_is_spent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    k = _fresh_kernel()
    table = np.array([[1], [1]], dtype=np.int32)
    assert k(table, 0).tolist() == [True, True]
    assert not k._compiled and k._dispatcher is None
    monkeypatch.setattr(k, "_python_seconds", _jit.PYTHON_BUDGET)
    assert k(table, 0).tolist() == [True, True]
    assert k._compiled


def test_a_call_past_the_small_size_runs_compiled() -> None:
    k = _fresh_kernel()
    table = np.zeros((_jit.SMALL + 1, 1), dtype=np.int32)
    assert k(table, 0).sum() == 1
    assert k._compiled


def test_while_another_process_compiles_a_kernel_small_calls_go_on_in_python(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    k = _fresh_kernel()
    monkeypatch.setattr(k, "_python_seconds", _jit.PYTHON_BUDGET)
    table = np.array([[0]], dtype=np.int32)
    with _jit._compiling(
        k, wait=False
    ) as ours:  # stands in for the other process (flock: per open file)
        assert ours
        with _jit._compiling(k, wait=False) as again:
            assert not again
        assert k(table, 0).tolist() == [True]
        assert not k._compiled
    assert k(table, 0).tolist() == [True]
    assert k._compiled


def test_a_kernel_compiles_over_the_dispatchers_of_the_kernels_it_inlines() -> None:
    from oracle import _cegml_kernels as kernels

    walk = cast(Any, kernels.walk)
    compiled = walk.dispatcher.py_func
    assert compiled is not walk.py_func and compiled.__code__ is walk.py_func.__code__
    below = compiled.__globals__["below"]  # numba sees the dispatcher, so it inlines the call
    assert below is cast(Any, kernels.below).dispatcher
    assert below.targetoptions["inline"] == "always"
    assert walk.py_func.__globals__["below"] is kernels.below  # the module itself is unchanged
    word = cast(Any, kernels.next_word).py_func
    assert _jit._inlining(word) is word  # a kernel that inlines nothing compiles its own function
