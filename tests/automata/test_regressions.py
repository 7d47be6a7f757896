"""Cases other regex/automata libraries got wrong at some point, pinned down.

* Thompson constructions that share states between a loop and its body accepted ``bb`` for
  ``(ab*)*``; ε-loops (``(a*)*``, ``(a|)*``) used to hang or drop strings.
* Operator precedence of the textbook syntax: ``b a* + a`` is ``(b a*) + a``.
* Hopcroft implementations that assume a complete, trim DFA (see ``test_minimize.py`` for partial
  tables and unreachable states; here through the whole pipeline).
* Escaped metacharacters inside and outside classes; empty class and empty language; ε only.
"""

from __future__ import annotations

import re

import pytest

from automata.algebra import ops
from automata.building.compile import compile_regex, from_text
from regexlang import ast as A
from regexlang.charset import EXTENDED_ALPHABET, UNICODE, CharSet
from tests.automata.reference import strings_up_to


def test_star_of_a_starred_concatenation_does_not_accept_bb() -> None:
    for dialect, text in [("simple", "(a b*)*"), ("python", "(ab*)*"), ("extended", "(ab*)*")]:
        alphabet = CharSet.of("ab") if dialect == "extended" else None
        dfa = from_text(text, dialect, alphabet=alphabet)  # type: ignore[arg-type]
        assert not ops.accepts(dfa, "bb") and not ops.accepts(dfa, "b")
        assert ops.accepts(dfa, "") and ops.accepts(dfa, "abba") and ops.accepts(dfa, "aab")


def test_simple_dialect_precedence() -> None:
    dfa = from_text("b a* + a", "simple")
    assert [s for s in strings_up_to("abc", 3) if ops.accepts(dfa, s)] == ["a", "b", "ba", "baa"]


@pytest.mark.parametrize(
    ("pattern", "strings"),
    [
        ("(a*)*", ["", "a", "aaa", "b"]),
        ("(a|)*b", ["b", "ab", "aab", "a"]),
        ("(a*b*)*", ["", "ab", "ba", "bbaab", "c"]),
        ("(a?){3}", ["", "a", "aa", "aaa", "aaaa"]),
        ("(a|b){0}", ["", "a"]),
        ("a{0,0}b", ["b", "ab"]),
        ("a$b", ["ab", "a\nb"]),
        ("(?:)", ["", "a"]),
        ("[^\\s\\S]", ["", "a"]),
        ("a[^\\s\\S]|b", ["a", "b", ""]),
        (".", ["\U0001f600", "\n", "é", ""]),
        ("[^a]", ["\n", "a", "b"]),
        ("\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\\\\\^\\$", [".*+?()[]{}|\\^$", "a"]),
        ("[\\]\\\\\\-^.]+", ["]", "\\", "-", "^", ".", "a", "]-^"]),
        ("[.*+?(){}|$]", [".", "*", "$", "a"]),
        ("\\n\\t\\x41\\u00e9", ["\n\tAé"]),
    ],
)
def test_python_corner_cases_agree_with_re(pattern: str, strings: list[str]) -> None:
    dfa = from_text(pattern, "python")
    for string in strings:
        assert ops.accepts(dfa, string) == (re.fullmatch(pattern, string) is not None), (
            pattern,
            string,
        )


def test_empty_language_and_epsilon_only() -> None:
    empty = from_text("[^\\s\\S]", "python")
    assert ops.is_empty(empty) and ops.num_states(empty) == 0
    assert ops.equivalent(empty, compile_regex(A.EmptySet(), UNICODE))
    for epsilon in [
        from_text("(?:)", "python"),
        from_text("epsilon", "simple"),
        from_text("()", "extended"),
    ]:
        assert ops.num_states(epsilon) == 1
        assert ops.accepts(epsilon, "") and not ops.accepts(epsilon, "a")
        assert ops.equivalence_witness(epsilon, ops.complement(epsilon)) is not None


def test_extended_complement_never_produces_foreign_characters() -> None:
    dfa = from_text("~(a)", "extended")
    assert ops.accepts(dfa, "b") and ops.accepts(dfa, "") and not ops.accepts(dfa, "a")
    assert not ops.accepts(dfa, "!") and not ops.accepts(dfa, "a-")
    assert dfa.alphabet.universe == EXTENDED_ALPHABET


def test_intersection_and_complement_splice_into_a_concatenation() -> None:
    dfa = from_text("x(([A-Za-z]+)&([A-Za-z0-9#]*oa[A-Za-z0-9#]*))y", "extended")
    assert ops.accepts(dfa, "xoay") and ops.accepts(dfa, "xBoaZy")
    assert (
        not ops.accepts(dfa, "xo1ay")
        and not ops.accepts(dfa, "xoa1y")
        and not ops.accepts(dfa, "xy")
    )
    nested = from_text("(~(a*))*", "extended")  # ε, or any string with a character other than a
    assert ops.accepts(nested, "") and ops.accepts(nested, "ab") and ops.accepts(nested, "aaBa")
    assert not ops.accepts(nested, "a") and not ops.accepts(nested, "aaa")
