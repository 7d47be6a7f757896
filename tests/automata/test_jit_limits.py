"""How much work a kernel's Python form may take on, and when the cached machine code is used.

:mod:`automata.jit._jit` runs a kernel bounded by a state limit as Python under at most
:data:`~automata.jit._jit.PYTHON_STATES` of that limit and, when that cut limit is reached, runs the
call again compiled with the caller's limit; a kernel numba has cached on disk is compiled from its
first call. The answers must be the ones the interpreter gives with the caller's limit
(the reference, forced to Python), at and around the cut.
"""

from __future__ import annotations

import copy
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from automata.algebra import _kernels, ops
from automata.building import determinize
from automata.building.compile import _alphabet, from_text
from automata.building.nfa import NFA, thompson
from automata.core.alphabet import partition
from automata.core.dfa import DFA
from automata.errors import StateLimitExceeded
from automata.jit import _disk_cache, _jit
from regexlang import parse
from regexlang.charset import SIMPLE_ALPHABET

_ROOT = Path(__file__).resolve().parents[2]


def _fresh(shared: Any) -> Any:
    """A copy of a shared kernel in the state of a new process with an empty cache, that records
    the value of its limit argument at every call of its Python form."""
    k = copy.copy(shared)
    k._compiled, k._dispatcher, k._python_seconds, k._on_disk = False, None, 0.0, False
    k.seen = []
    interpret = k._interpret

    def recording(args: tuple[Any, ...]) -> Any:
        k.seen.append(args[k._limit])
        return interpret(args)

    k._interpret = recording
    return k


def _literal_nfa(length: int) -> NFA:
    """The NFA of ``a`` repeated ``length`` times: its subset construction has ``length + 2`` states."""
    regex = parse("a" * length, "simple")
    alphabet, members = _alphabet([regex], SIMPLE_ALPHABET, ())
    return thompson(regex, alphabet, members, lambda inner: None, state_limit=10**6)  # type: ignore[arg-type,return-value]


def _as_python(nfa: NFA, state_limit: int) -> object:
    with _jit.forced("python"):
        return _outcome(nfa, state_limit)


def _outcome(nfa: NFA, state_limit: int) -> object:
    try:
        dfa = determinize.determinize(nfa, state_limit=state_limit)
    except StateLimitExceeded as error:
        return str(error)
    return dfa.transitions.tolist(), dfa.accepting.tolist()


@pytest.mark.parametrize(
    "states", [_jit.PYTHON_STATES - 1, _jit.PYTHON_STATES, _jit.PYTHON_STATES + 1]
)
def test_a_construction_past_the_python_cut_is_redone_compiled_with_the_same_answer(
    states: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    nfa = _literal_nfa(states - 2)
    expected = _as_python(nfa, 200_000)
    k = _fresh(determinize._subset)
    monkeypatch.setattr(determinize, "_subset", k)
    assert _outcome(nfa, 200_000) == expected
    assert k.seen == [_jit.PYTHON_STATES], (
        "the interpreter ran under the cut limit, not the caller's"
    )
    assert k._compiled == (states > _jit.PYTHON_STATES)


def test_a_refusal_under_the_callers_own_small_limit_stays_in_python(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    nfa = _literal_nfa(600)
    expected = _as_python(nfa, 500)
    assert "more than 500 states" in str(expected)
    k = _fresh(determinize._subset)
    monkeypatch.setattr(determinize, "_subset", k)
    assert _outcome(nfa, 500) == expected
    assert k.seen == [500] and not k._compiled


def test_the_exponential_regex_is_refused_by_the_compiled_form_with_the_callers_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    k = _fresh(determinize._subset)
    monkeypatch.setattr(determinize, "_subset", k)
    with pytest.raises(StateLimitExceeded, match="more than 200,000 states"):
        from_text("(a|b)*a(a|b){30}", "python")
    assert k.seen and max(k.seen) == _jit.PYTHON_STATES
    assert k._compiled


def test_a_product_past_the_cut_matches_the_interpreters(monkeypatch: pytest.MonkeyPatch) -> None:
    # Two cycles of coprime lengths: their product has every pair reachable (31 × 37 > the cut).
    left = DFA(
        np.roll(np.arange(31, dtype=np.int32), -1)[:, None], np.arange(31) == 0, 0, _one_class()
    )
    right = DFA(
        np.roll(np.arange(37, dtype=np.int32), -1)[:, None], np.arange(37) == 0, 0, _one_class()
    )
    assert 31 * 37 > _jit.PYTHON_STATES
    with _jit.forced("python"):
        expected = ops.intersection(left, right, state_limit=10_000)
    k = _fresh(_kernels.product)
    monkeypatch.setattr(_kernels, "product", k)
    found = ops.intersection(left, right, state_limit=10_000)
    assert np.array_equal(found.transitions, expected.transitions)
    assert np.array_equal(found.accepting, expected.accepting)
    assert all(limit <= _jit.PYTHON_STATES for limit in k.seen)


def _one_class() -> Any:
    return partition(SIMPLE_ALPHABET, [])


def test_a_kernel_cached_on_disk_runs_compiled_from_its_first_call() -> None:
    shared: Any = _kernels.reachable
    with _jit.forced("compiled"):  # compiles it into the cache, if no earlier run did
        shared(np.array([[0]], dtype=np.int32), 0)
    assert _disk_cache.cached(shared.py_func)
    k = copy.copy(shared)
    k._compiled, k._dispatcher, k._on_disk = False, None, None
    assert k(np.array([[1], [1]], dtype=np.int32), 0).tolist() == [True, True]
    assert k._compiled


_KERNEL_SOURCE = """
from automata.jit._jit import kernel

@kernel
def twice(x: int) -> int:
    return 2 * x
"""


def test_an_index_of_another_source_or_numba_version_is_not_taken_for_cached(
    tmp_path: Path,
) -> None:
    module = tmp_path / "probe_kernel.py"
    module.write_text(_KERNEL_SOURCE, encoding="utf-8")
    ask = "import probe_kernel, automata.jit._disk_cache as d; print(d.cached(probe_kernel.twice.py_func))"
    compile_it = "import probe_kernel, automata.jit._jit as j\nwith j.forced('compiled'): probe_kernel.twice(3)"

    def run(code: str) -> str:
        env = {
            **os.environ,
            "PYTHONPATH": f"{tmp_path}{os.pathsep}{_ROOT}",
            "NUMBA_CACHE_DIR": str(tmp_path / "cache"),
        }
        return subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        ).stdout.strip()

    assert run(ask) == "False"
    run(compile_it)
    assert run(ask) == "True"
    module.write_text(
        _KERNEL_SOURCE.replace("2 * x", "3 * x"), encoding="utf-8"
    )  # same lines, new source
    assert run(ask) == "False"


_REFUSAL = """
import time
from automata.building.compile import from_text
from automata.core.dfa import DFA
from automata.errors import StateLimitExceeded
started = time.process_time()
try:
    from_text("(a|b)*a(a|b){30}", "python")
except StateLimitExceeded:
    print(time.process_time() - started)
"""


@pytest.mark.slow
def test_a_state_limit_refusal_takes_a_fraction_of_the_interpreters_time_in_a_fresh_process() -> (
    None
):
    """The README's claim, in a new process after the kernels are cached (the first child caches
    whatever this case needs, as ``python -m cli warmup`` does): CPU seconds, so a loaded machine
    does not count, bounded far from both sides (about 1 s compiled, 18-28 s before the cut)."""
    env = {**os.environ, "PYTHONPATH": str(_ROOT)}
    env.pop("REGEX_CEGIS_KERNELS", None)

    def refusal() -> float:
        done = subprocess.run(
            [sys.executable, "-c", _REFUSAL],
            env=env,
            capture_output=True,
            text=True,
            check=True,
            timeout=600,
        )
        return float(done.stdout)

    refusal()
    assert refusal() < 2.0
