"""Limits stop blow-ups early, with a message that says what and how to allow more; hostile input
fails fast with bounded memory.

Memory is measured in a fresh interpreter per case: the peak resident size of this process is
whatever the most hungry earlier test left behind, so a growth measured here would be meaningless.
The child pays numba's compilation and imports first, then reports how much its peak grew.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from automata.algebra import ops
from automata.building.compile import compile_regex, from_text
from automata.building.determinize import determinize
from automata.building.nfa import thompson
from automata.core.alphabet import partition_with_members
from automata.core.dfa import DFA
from automata.errors import SizeLimitExceeded, StateLimitExceeded
from automata.strings.counting import completions
from automata.strings.sampling import shortest
from regexlang import ast as A
from regexlang.charset import SIMPLE_ALPHABET, CharSet

_ROOT = Path(__file__).resolve().parents[2]

_CHILD = """
import json, resource, sys
from automata.building.compile import from_text
from automata.errors import AutomataError
from automata.strings.sampling import shortest
from regexlang import parse

def peak_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

# Compile every kernel the cases use, so the growth measured is the case's own.
shortest(from_text("(a|b)*a(a|b){3}", "python"), 2)
try:
    from_text("(a|b)*a(a|b){30}", "python", state_limit=1_000)
except AutomataError:
    pass
before = peak_mb()
try:
    result = repr(eval(sys.argv[1]))[:80]
except AutomataError as error:
    result = type(error).__name__
print(json.dumps({"result": result, "growth_mb": peak_mb() - before}))
"""


def _in_a_fresh_process(expression: str) -> tuple[str, float]:
    """The value (or the automata error's type) of ``expression`` and the peak memory growth."""
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, expression],
        env={**os.environ, "PYTHONPATH": str(_ROOT)},
        cwd=_ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,  # a hang detector, far above the seconds these take
    )
    report = json.loads(done.stdout)
    return report["result"], report["growth_mb"]


@pytest.mark.parametrize(
    ("expression", "result", "budget_mb"),
    [
        # Exponential determinization: the state limit trips long before memory runs out.
        ('from_text("(a|b)*a(a|b){30}", "python")', "StateLimitExceeded", 500),
        # A long literal: the position automaton hands over at its 63rd position, and the Thompson
        # builder stops at the limit (this took 11.6 GB before the limit was checked during the build).
        ('from_text("a" * 400_000, "simple", state_limit=1_000)', "StateLimitExceeded", 100),
        # A language whose shortest string has 99,999 characters (2.2 GB and growing, before).
        ('len(shortest(from_text("a{99999}", "extended"), 5)[0])', "99999", 300),
        # A million literals in the python dialect, parsed linearly.
        ('parse("a" * 1_000_000, "python") == parse("a" * 1_000_000, "simple")', "True", 300),
    ],
)
def test_hostile_input_fails_fast_with_bounded_memory(
    expression: str, result: str, budget_mb: float
) -> None:
    outcome, growth = _in_a_fresh_process(expression)
    assert outcome == result
    assert growth < budget_mb


def test_the_limit_names_the_keyword_that_raises_it() -> None:
    with pytest.raises(StateLimitExceeded, match=r"200,000 states; pass a larger state_limit="):
        from_text("(a|b)*a(a|b){30}", "python")


def test_the_same_regex_fits_a_raised_limit_when_small_enough() -> None:
    dfa = from_text("(a|b)*a(a|b){8}", "python", state_limit=1_000)
    assert ops.num_states(dfa) == 2**9
    with pytest.raises(StateLimitExceeded, match="more than 100 states"):
        from_text("(a|b)*a(a|b){8}", "python", state_limit=100)


def test_long_counted_repetition_compiles_within_the_limit() -> None:
    dfa = from_text("a{100000}", "python")
    assert ops.num_states(dfa) == 100_001
    assert ops.accepts(dfa, "a" * 100_000) and not ops.accepts(dfa, "a" * 99_999)


def test_nfa_size_is_capped_before_expansion_runs_away() -> None:
    with pytest.raises(StateLimitExceeded, match="Thompson NFA"):
        from_text("(a{1000}){1000}", "python")
    with pytest.raises(StateLimitExceeded, match="Thompson NFA"):
        compile_regex(A.Repeat(A.literal("a"), 10**9, None), SIMPLE_ALPHABET)


def test_stored_item_budget_is_enforced() -> None:
    # Few DFA states but hundreds of NFA states in each: the memory budget trips first.
    regex = A.Repeat(A.Optional(A.literal("a")), 600, 600)
    alphabet, members = partition_with_members(SIMPLE_ALPHABET, [CharSet.of("a")])
    nfa = thompson(regex, alphabet, members, _no_nesting, state_limit=10_000)
    with pytest.raises(StateLimitExceeded, match="stored NFA states"):
        determinize(nfa, state_limit=2)
    assert determinize(nfa, state_limit=1_000).n_states == 602


def _no_nesting(node: object) -> DFA:
    raise AssertionError("no intersection or complement here")


def test_products_and_searches_respect_the_limit() -> None:
    left = from_text("(a|b)*a(a|b){6}", "python")
    right = from_text("(a|b)*b(a|b){6}", "python")
    with pytest.raises(StateLimitExceeded, match="product automaton"):
        ops.intersection(left, right, state_limit=50)
    longer = from_text("(a|b)*a(a|b){7}", "python")
    with pytest.raises(StateLimitExceeded, match="distinguishing string"):
        ops.equivalence_witness(left, longer, state_limit=50)
    assert ops.equivalence_witness(left, longer) is not None


def test_a_counting_table_past_its_budget_is_refused_before_it_is_allocated() -> None:
    dfa = from_text("(?s).{40}", "python")  # over Unicode: 21 bits of count per character
    small = completions(dfa, 48)
    assert small.count(40) == 0x110000**40 and small.count(39) == small.count(41) == 0
    needed = (48 + 1) * dfa.n_states * (small.digits.shape[2] + 1) * 8
    assert small.digits.nbytes < needed  # the estimate bounds what was allocated
    with pytest.raises(
        SizeLimitExceeded, match=r"lengths 0\.\.2048 of a 42-state DFA .* use a smaller max_len"
    ):
        completions(dfa, 2048)
    with pytest.raises(SizeLimitExceeded, match="use a smaller max_len"):
        completions(dfa, 48, max_bytes=needed - 1)
    assert completions(dfa, 48, max_bytes=needed).count(40) == small.count(40)


def test_shortest_strings_past_their_budget_are_refused() -> None:
    dfa = from_text("a{5000}", "extended")
    assert shortest(dfa, 1, max_cells=5_001) == ["a" * 5000]
    with pytest.raises(SizeLimitExceeded, match="max_cells="):
        shortest(dfa, 1, max_cells=5_000)
    assert shortest(dfa, 1, max_len=4999) == []
