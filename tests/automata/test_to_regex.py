"""DFA → regex by state elimination: exact language round trips and readable shapes.

The brute-force reference is Python's ``re`` on a pattern printed by a few lines here, so these
tests depend neither on the regex compiler nor on the dialect printers.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from hypothesis import given, settings

from automata import ops
from automata.compile import compile_regex, from_text
from automata.dfa import DFA
from automata.to_regex import to_regex
from regexlang import parse, unparse
from regexlang.ast import Chars, Concat, EmptySet, Epsilon, Optional, Plus, Regex, Repeat, Star, Union
from regexlang.charset import SIMPLE_ALPHABET, CharSet
from tests.automata.reference import regexes, strings_up_to
from tests.automata.test_counting import acceptor, dfa_from_rows, dfas


def python_pattern(node: Regex) -> str:
    """``node`` as a Python ``re`` pattern, written independently of the dialect printers."""
    match node:
        case EmptySet():
            return "(?!)"
        case Epsilon():
            return "(?:)"
        case Chars(chars):
            return "[" + "".join(re.escape(c) for c in chars) + "]"
        case Concat(parts):
            return "(?:" + "".join(python_pattern(p) for p in parts) + ")"
        case Union(options):
            return "(?:" + "|".join(python_pattern(o) for o in options) + ")"
        case Star(inner) | Plus(inner) | Optional(inner):
            return "(?:" + python_pattern(inner) + ")" + {Star: "*", Plus: "+", Optional: "?"}[type(node)]
        case Repeat(inner, low, high):
            return "(?:" + python_pattern(inner) + f"){{{low},{'' if high is None else high}}}"
    raise TypeError(f"to_regex does not produce {type(node).__name__}")


@settings(max_examples=200)
@given(dfas())
def test_round_trip_preserves_the_language(dfa: DFA) -> None:
    pattern = re.compile(python_pattern(to_regex(dfa)))
    accepts = acceptor(dfa)
    for string in strings_up_to("".join(dfa.alphabet.universe), 6):
        assert (pattern.fullmatch(string) is not None) == accepts(string), string


def test_readable_shapes() -> None:
    a_then_bs = dfa_from_rows([[1, 2], [2, 1], [2, 2]], [False, True, False], ["a", "b"])
    assert to_regex(a_then_bs) == Concat((Chars(CharSet.of("a")), Star(Chars(CharSet.of("b")))))
    pairs = dfa_from_rows([[1, 2], [2, 0], [2, 2]], [True, False, False], ["a", "bc"])
    assert to_regex(pairs) == Star(Concat((Chars(CharSet.of("a")), Chars(CharSet.of("bc")))))
    some_as = dfa_from_rows([[1, 2], [1, 2], [2, 2]], [False, True, False], ["a", "b"])
    assert to_regex(some_as) == Plus(Chars(CharSet.of("a")))
    optional_b = dfa_from_rows([[1, 3], [3, 2], [3, 3], [3, 3]], [False, True, True, False], ["a", "b"])
    assert to_regex(optional_b) == Concat((Chars(CharSet.of("a")), Optional(Chars(CharSet.of("b")))))
    nothing = dfa_from_rows([[0, 0]], [False], ["a", "b"])
    assert to_regex(nothing) == EmptySet()
    only_empty = dfa_from_rows([[1, 1], [1, 1]], [True, False], ["a", "b"])
    assert to_regex(only_empty) == Epsilon()


@settings(max_examples=150)
@given(regexes("abc", max_leaves=10))
def test_compiled_regexes_survive_the_round_trip_through_every_dialect(regex: Regex) -> None:
    dfa = compile_regex(regex, SIMPLE_ALPHABET)
    back = to_regex(dfa)
    assert ops.equivalent(compile_regex(back, SIMPLE_ALPHABET), dfa)
    if isinstance(back, EmptySet):  # only the python dialect can spell ∅
        assert ops.is_empty(dfa)
        return
    for dialect in ("simple", "extended", "python"):
        printed = unparse(back, dialect)
        assert ops.equivalent(compile_regex(parse(printed, dialect), SIMPLE_ALPHABET), dfa), printed


def test_benchmark_regexes_round_trip(shared_data: Path) -> None:
    lists = json.loads((shared_data / "cegml" / "regex_list.json").read_text())
    cases = [
        (text, dialect)
        for key, dialect in (("simplyrx", "simple"), ("extrx", "extended"))
        for cell in lists[key]
        for depth in cell["regex_list"]
        for text in depth["regex_list"][:3]
    ]
    assert len(cases) == 165
    for text, dialect in cases:
        dfa = from_text(text, dialect)
        printed = unparse(to_regex(dfa), dialect)
        assert ops.equivalent(from_text(printed, dialect), dfa), (text, printed)
