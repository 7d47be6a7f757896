"""Text forms and semantics of plain and clustered examples, and the verdict value."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from oracle.examples import ClusteredExample, Example, format_position, identity
from oracle.protocol import CountedMembership, Issue, Spend, Verdict, remember
from regexlang.charset import EXTENDED_ALPHABET, SIMPLE_ALPHABET, UNICODE, CharSet

DIGITS = CharSet.range("0", "9")


def test_example_text_matches_prompt_format() -> None:
    assert Example("abc", True).text() == "abc, 1"
    assert Example("", True).text() == ", 1"
    assert str(Example("b", False)) == "b, 0"


@given(st.text(max_size=12), st.booleans())
def test_example_text_round_trips(string: str, label: bool) -> None:
    assert Example.from_text(Example(string, label).text()) == Example(string, label)


@given(st.text(max_size=12), st.booleans())
def test_example_text_is_one_printable_line(string: str, label: bool) -> None:
    line = Example(string, label).text()
    assert line.isprintable()


def test_example_text_escapes_backslashes_and_unprintables() -> None:
    assert Example("a\nb", True).text() == "a\\nb, 1"
    assert Example("x\\y", False).text() == "x\\\\y, 0"
    assert Example("\t\x00\u2028", True).text() == "\\t\\x00\\u2028, 1"
    assert Example.from_text("a\\\\n, 1") == Example("a\\n", True)


def test_example_from_text_rejects_bad_lines() -> None:
    with pytest.raises(ValueError):
        Example.from_text("abc 1")
    with pytest.raises(ValueError):
        Example.from_text("abc, 2")


def test_clustered_text_uses_literals_classes_and_negation() -> None:
    example = ClusteredExample(("S", DIGITS, "#", "r", "u", "n"), True, EXTENDED_ALPHABET)
    assert example.text() == "S[0-9]#run, 1"
    letters = CharSet([(ord("A"), ord("Z")), (ord("a"), ord("z"))])
    assert format_position(letters, EXTENDED_ALPHABET) == "[A-Za-z]"
    assert format_position(EXTENDED_ALPHABET - DIGITS, EXTENDED_ALPHABET) == "[^0-9]"
    assert format_position(UNICODE - DIGITS, UNICODE) == "[^0-9]"
    assert format_position(SIMPLE_ALPHABET, SIMPLE_ALPHABET) == "[a-c]"
    assert format_position(UNICODE, UNICODE) == "."
    assert ClusteredExample((), False).text() == ", 0"


def test_clustered_text_escapes_class_syntax() -> None:
    assert format_position(CharSet.of("["), UNICODE) == "\\["
    assert format_position(CharSet.of("-^]"), UNICODE) == "[\\-\\]\\^]"
    assert format_position(CharSet.of("\n"), UNICODE) == "\\n"


def test_clustered_semantics() -> None:
    example = ClusteredExample(("a", CharSet.of("xyz")), True)
    assert example.size() == 3
    assert sorted(example.strings()) == ["ax", "ay", "az"]
    assert "ay" in example and "aw" not in example and "a" not in example
    assert example.representative() == "ax"
    assert not example.is_literal()
    assert ClusteredExample.of_string("ab", True).is_literal()
    with pytest.raises(ValueError):
        ClusteredExample(("ab",), True)
    with pytest.raises(ValueError):
        ClusteredExample((CharSet(),), True)


def test_identity_ignores_label_type_and_universe() -> None:
    assert identity(Example("ab", True)) == identity(ClusteredExample.of_string("ab", False))
    wide = ClusteredExample(("a", DIGITS), True, UNICODE)
    assert wide == ClusteredExample(("a", DIGITS), True, EXTENDED_ALPHABET)
    assert identity(wide) == (CharSet.of("a"), DIGITS)


def test_verdict_splits_directions_and_remember_deduplicates() -> None:
    verdict = Verdict(
        equivalent=False,
        counterexamples=(Example("a", True), Example("b", False), Example("c", True)),
        mode="shortest",
        issues=(Issue("hypothesis", "empty_language"),),
    )
    assert [e.text() for e in verdict.positives] == ["a, 1", "c, 1"]
    assert [e.text() for e in verdict.negatives] == ["b, 0"]
    assert verdict.valid and verdict.has("empty_language") and not verdict.has("state_limit")
    assert not Verdict(False, issues=(Issue("target", "syntax_error", "at 3"),)).valid
    assert str(Issue("target", "syntax_error", "at 3")) == "target: syntax error (at 3)"
    given_so_far = remember((Example("a", True), Example("z", False)), verdict)
    assert [e.text() for e in given_so_far] == ["a, 1", "z, 0", "b, 0", "c, 1"]
    assert Spend(1.0, 2) + Spend(0.5, 3) == Spend(1.5, 5)


def test_counted_membership_counts_queries() -> None:
    class Even:
        def label(self, string: str) -> bool:
            return len(string) % 2 == 0

    counted = CountedMembership(Even())
    assert [counted.label(s) for s in ("", "a", "ab")] == [True, False, True]
    assert counted.queries == 3
