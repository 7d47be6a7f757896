"""The python dialect compiles exactly: ``accepts`` agrees with ``re.fullmatch`` on the printed pattern.

Random trees cover classes (Unicode ``\\w``, ``\\d``, ``\\s``, negations, ``.``), every quantifier
including counted ones, alternation and every zero-width assertion; random strings mix the
characters those sets tell apart with arbitrary Unicode, ``"\\n"`` and the empty string.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from automata.algebra import ops
from automata.algebra.ops import accepts_many
from automata.building.compile import compile_many, compile_regex
from regexlang import ast as A
from regexlang import parse, unparse
from regexlang.charset import UNICODE
from tests.automata.reference import PYTHON_POOL, python_regexes, python_strings, strings_up_to


@settings(max_examples=1500)
@given(python_regexes(), st.lists(python_strings(), min_size=1, max_size=8))
def test_accepts_agrees_with_fullmatch(regex: A.Regex, strings: list[str]) -> None:
    pattern = re.compile(unparse(regex, "python"))
    dfa = compile_regex(regex, UNICODE)
    expected = [pattern.fullmatch(s) is not None for s in strings]
    assert [dfa.accepts(s) for s in strings] == expected, pattern.pattern
    assert accepts_many(dfa, strings).tolist() == expected


@settings(max_examples=300)
@given(python_regexes(max_leaves=5))
def test_agrees_on_every_short_string_of_the_pool(regex: A.Regex) -> None:
    pattern = re.compile(unparse(regex, "python"))
    dfa = compile_regex(regex, UNICODE)
    strings = list(strings_up_to("a \n_", 4))
    expected = [pattern.fullmatch(s) is not None for s in strings]
    assert accepts_many(dfa, strings).tolist() == expected, pattern.pattern


ASSERTION_CASES = [
    (r"\b", ["", "a", " "]),
    (r"\B", ["", "a", " "]),
    (r"a\b", ["a", "a ", ""]),
    (r"\ba\b", ["a"]),
    (r"a\B", ["a", "ab"]),
    (r"a\Bb", ["ab", "a b"]),
    (r"a$", ["a", "a\n", "a\n\n"]),
    (r"a$\n", ["a\n", "a", "a\n\n"]),
    (r"a$\n$", ["a\n", "a\n\n"]),
    (r"a\n?$\n?", ["a", "a\n", "a\n\n"]),
    (r"a\Z\n", ["a\n"]),
    (r"$", ["", "\n"]),
    (r"(?m:$)\n(?m:^)a", ["\na", "\n\na"]),
    (r"(?m:^)a(?m:$)\n(?m:^)b(?m:$)", ["a\nb", "a\nb\n"]),
    (r"\A\n*\Z", ["", "\n", "\n\n"]),
    (r".*\b.*", ["", "a", " ", "a b", "é"]),
    (r"(\b|a)*", ["", "a", "aa"]),
    (r"(\B.)*", ["", "a", "ab", " ", "  ", "a "]),
    (r"[\w\n]*\b\n", ["ab\n", "\n", "é\n", "٣\n"]),
    (r"(?m:^)*a", ["a"]),
]


@pytest.mark.parametrize(("pattern", "strings"), ASSERTION_CASES)
def test_assertion_corners(pattern: str, strings: list[str]) -> None:
    dfa = compile_regex(parse(pattern, "python"), UNICODE)
    for string in [*strings, *strings_up_to(PYTHON_POOL[:5], 2)]:
        assert dfa.accepts(string) == (re.fullmatch(pattern, string) is not None), (pattern, string)


@pytest.mark.parametrize(
    ("left", "right"),
    [
        (r"^a$", r"\Aa\Z"),
        (r"a\b", r"a"),
        (r"\ba", r"a"),
        (r"a\B|b", r"b"),
        (r"\B|a", r"a"),
        (r"(?m:^)a(?m:$)", r"a"),
        (r"a$\n", r"a\n"),
        (r"\w\b\W", r"\w\W"),
    ],
)
def test_assertions_vanish_where_re_says_they_always_hold_or_fail(left: str, right: str) -> None:
    a, b = compile_many([parse(left, "python"), parse(right, "python")], UNICODE)
    assert ops.equivalence_witness(a, b) is None
    assert ops.num_states(a) == ops.num_states(b)


def test_witness_between_assertion_regexes_is_checked_by_re() -> None:
    a, b = compile_many([parse(r"a\n*", "python"), parse(r"a$\n*", "python")], UNICODE)
    witness = ops.equivalence_witness(a, b)
    assert witness is not None and witness.string == "a\n\n" and witness.accepted_by == "left"
    assert re.fullmatch(r"a\n*", witness.string) and not re.fullmatch(r"a$\n*", witness.string)


def test_importing_automata_and_comparing_small_regexes_never_imports_numba() -> None:
    # small work runs the kernels' source as plain Python (automata.jit._jit): no JIT start-up at all
    probe = (
        "import sys, automata, automata.building.determinize, automata.core.minimize, automata.strings.counting\n"
        "from automata.algebra import ops\n"
        "from automata.building.compile import compile_many\n"
        "from regexlang import parse, universe\n"
        "a, b = compile_many([parse('(a b* + c)*', 'simple'), parse('(a + b + c)*', 'simple')], universe('simple'))\n"
        "assert ops.equivalence_witness(a, b) is not None\n"
        "assert 'numba' not in sys.modules, 'numba was imported'\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "REGEX_CEGIS_KERNELS"}
    subprocess.run(
        [sys.executable, "-c", probe], check=True, cwd=Path(__file__).resolve().parents[2], env=env
    )
