"""DFA → regex by state elimination: exact language round trips and readable shapes.

The brute-force reference is Python's ``re`` on a pattern printed by a few lines here, so these
tests depend neither on the regex compiler nor on the dialect printers.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from automata.algebra import ops
from automata.building.compile import compile_regex, from_text
from automata.core.dfa import DFA
from automata.errors import SizeLimitExceeded
from automata.printing import to_regex as to_regex_module
from automata.printing.to_regex import (
    FACTOR_DEPTH,
    ORDERS,
    Eliminations,
    Joins,
    _unsubsumed,
    to_regex,
)
from regexlang import Dialect, parse, unparse
from regexlang.ast import (
    Chars,
    Concat,
    EmptySet,
    Epsilon,
    Optional,
    Plus,
    Regex,
    Repeat,
    Star,
    Union,
    concat,
)
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
            return (
                "(?:"
                + python_pattern(inner)
                + ")"
                + {Star: "*", Plus: "+", Optional: "?"}[type(node)]
            )
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


@pytest.mark.parametrize(
    ("text", "dialect", "printed"),
    [
        ("a b*", "simple", "ab*"),
        ("(a (b+c))*", "simple", "(?:a[bc])*"),
        ("a a*", "simple", "a+"),
        ("(ab)*ab", "python", "(?:ab)+"),
        ("a (b+epsilon)", "simple", "ab?"),
        ("((b)*+a)+c", "simple", "[ac]|b*"),
        ("a b+a c", "simple", "a[bc]"),
        ("b a+c a", "simple", "[bc]a"),
        ("b b b b*", "simple", "b{3,}"),
        ("a a a", "simple", "aaa"),
        ("[A-Za-z]{4}", "extended", "[A-Za-z]{4}"),
        ("[A-Za-z0-9#]{2,3}", "extended", "[A-Za-z0-9#]{2,3}"),
        ("(A[A-Za-z0-9#]*)|(An[A-Za-z0-9#]*)", "extended", "A[A-Za-z0-9#]*"),
    ],
)
def test_readable_shapes(text: str, dialect: Dialect, printed: str) -> None:
    assert unparse(to_regex(from_text(text, dialect)), "python") == printed


def test_eliminations_past_the_kept_states_keep_only_the_first_graph(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    dfa = from_text("(ab|cd)*e[0-9]{3}(f|gh)?", "python")
    alone = {order: to_regex(dfa, order=order) for order in ORDERS}
    monkeypatch.setattr(to_regex_module, "KEPT_STATES", dfa.n_states - 1)
    shared = Eliminations(dfa)
    assert {order: shared.regex(order) for order in ORDERS} == alone
    assert list(shared.after) == [()]


def test_empty_language_and_empty_string() -> None:
    assert to_regex(dfa_from_rows([[0, 0]], [False], ["a", "b"])) == EmptySet()
    assert to_regex(dfa_from_rows([[1, 1], [1, 1]], [True, False], ["a", "b"])) == Epsilon()


@settings(max_examples=100)
@given(dfas())
def test_orders_sharing_their_first_steps_write_what_each_writes_alone(dfa: DFA) -> None:
    alone = {order: to_regex(dfa, order=order) for order in ORDERS}
    shared = Eliminations(dfa)
    assert {order: shared.regex(order) for order in ORDERS} == alone
    for order in reversed(ORDERS):  # a limit is kept when the steps are reused, not only when done
        for limit in (1, 3, 6):
            try:
                expected: Regex | None = to_regex(dfa, limit, order)
            except SizeLimitExceeded:
                expected = None
            try:
                found: Regex | None = shared.regex(order, limit)
            except SizeLimitExceeded:
                found = None
            assert found == expected


def test_a_size_limit_stops_an_elimination_that_grows_past_it() -> None:
    # strings over {a, b} whose 6th symbol from the end is an a: 64 states, a regex of thousands of nodes
    dfa = from_text("(a+b)* a (a+b) (a+b) (a+b) (a+b) (a+b)", "simple")
    with pytest.raises(SizeLimitExceeded, match="size_limit="):
        to_regex(dfa, size_limit=500)
    assert to_regex(from_text("(a+b)* a (a+b)", "simple"), size_limit=500) == to_regex(
        from_text("(a+b)* a (a+b)", "simple")
    )


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
    dialects: tuple[tuple[str, Dialect], ...] = (("simplyrx", "simple"), ("extrx", "extended"))
    cases = [
        (text, dialect)
        for key, dialect in dialects
        for cell in lists[key]
        for depth in cell["regex_list"]
        for text in depth["regex_list"][:3]
    ]
    assert len(cases) == 165
    for text, dialect in cases:
        dfa = from_text(text, dialect)
        printed = unparse(to_regex(dfa), dialect)
        assert ops.equivalent(from_text(printed, dialect), dfa), (text, printed)


def _subsumes(big: Regex, small: Regex) -> bool:
    """The shape rule by its definition, one pair at a time: ``r*`` makes ``r``, ``r+``, ``r?`` and
    ``ε`` redundant, ``r+`` and ``r?`` make ``r``, ``r?`` makes ``ε`` (a different option only)."""
    if big == small:
        return False
    if isinstance(big, Star):
        return small in (big.inner, Plus(big.inner), Optional(big.inner), Epsilon())
    if isinstance(big, (Plus, Optional)):
        return small == big.inner or (small == Epsilon() and isinstance(big, Optional))
    return False


_BASES: list[Regex] = [Chars(CharSet.of("a")), Chars(CharSet.of("ab")), Epsilon()]
_SHAPES: list[Regex] = [
    shape for base in _BASES for shape in (base, Star(base), Plus(base), Optional(base))
]


@settings(max_examples=200)
@given(st.lists(st.sampled_from(_SHAPES), max_size=6))
def test_subsumed_options_are_those_the_pairwise_rule_drops(options: list[Regex]) -> None:
    expected = [o for o in options if not any(_subsumes(other, o) for other in options)]
    assert _unsubsumed(options, options) == expected


def _word(text: str) -> Regex:
    return concat(*(Chars(CharSet.of(c)) for c in text))


def test_options_sharing_a_long_run_factor_it_out_without_deep_recursion() -> None:
    # one nested union per shared factor overflowed Python's stack past a few hundred factors
    stem = "abcdefgh" * 150
    joins = Joins()
    front = joins.union([_word(stem + "x"), _word(stem + "yz")])
    back = joins.union([_word("x" + stem), _word("yz" + stem)])
    assert unparse(front, "python") == stem + "(?:x|yz)"
    assert unparse(back, "python") == "(?:x|yz)" + stem


def test_factoring_nested_past_its_depth_leaves_the_options_as_they_are() -> None:
    # a chain of branch points: each factoring nests a union in the one before
    words = ["ab" * i + "c" for i in range(FACTOR_DEPTH + 20)]
    joins = Joins()
    printed = unparse(joins.union([_word(w) for w in words]), "python")
    assert all(re.fullmatch(printed, w) for w in words)
    assert not any(re.fullmatch(printed, w + "c") or re.fullmatch(printed, "b" + w) for w in words)
    assert printed.count("(?:") <= FACTOR_DEPTH  # unbounded, one group per branch point: 79
