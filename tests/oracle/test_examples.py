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
        exact=True,
    )
    assert [e.text() for e in verdict.positives] == ["a, 1", "c, 1"]
    assert [e.text() for e in verdict.negatives] == ["b, 0"]
    assert verdict.valid and verdict.has("empty_language") and not verdict.has("state_limit")
    assert not Verdict(False, issues=(Issue("target", "syntax_error", "at 3"),), exact=True).valid
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


#: Characters that are regex syntax in some dialect, and some that must be escaped to print.
TRICKY = ".[](){}*+?|^$&~\\-#, \n\t\x00\u2028"


def charsets(universe: CharSet) -> st.SearchStrategy[CharSet]:
    """Non-empty character sets drawn from ``universe`` (plus tricky characters for Unicode)."""
    members = (
        st.sampled_from(sorted(universe))
        if len(universe) < 256
        else st.one_of(
            st.sampled_from(TRICKY), st.characters(), st.sampled_from([chr(0x10FFFF), "\ud800"])
        )
    )
    single = members.map(CharSet.of)
    ranges = st.tuples(members, members).map(lambda pair: CharSet.range(*sorted(pair)))
    pieces = st.lists(st.one_of(single, ranges), min_size=1, max_size=4)
    whole = (
        st.just(universe)
        if len(universe) < 256
        else st.sampled_from([universe, UNICODE - CharSet.of("\n")])
    )
    return st.one_of(pieces.map(lambda sets: _union(sets) & universe).filter(bool), whole)


def _union(sets: list[CharSet]) -> CharSet:
    out = sets[0]
    for chars in sets[1:]:
        out = out | chars
    return out


@pytest.mark.parametrize(
    "universe", [SIMPLE_ALPHABET, EXTENDED_ALPHABET, UNICODE], ids=["simple", "extended", "python"]
)
@given(data=st.data(), label=st.booleans())
def test_clustered_text_reads_back_to_the_same_sets(
    universe: CharSet, data: st.DataObject, label: bool
) -> None:
    positions = tuple(data.draw(st.lists(charsets(universe), max_size=5)))
    example = ClusteredExample(positions, label, universe)
    line = example.text()
    assert "\n" not in line
    parsed = ClusteredExample.from_text(line, universe)
    assert parsed == example and parsed.positions == positions


def test_escaped_literals_and_classes_print_differently() -> None:
    dot = ClusteredExample(("a", CharSet.of("."), "b"), True)
    anything = ClusteredExample(("a", UNICODE, "b"), True)
    assert dot.text() == "a\\.b, 1" and anything.text() == "a.b, 1"
    assert ClusteredExample.from_text("a.b, 1").positions[1] == UNICODE
    meta = ClusteredExample(tuple(CharSet.of(c) for c in "(a|b)*+?{}$^&~"), False)
    assert meta.pattern() == "\\(a\\|b\\)\\*\\+\\?\\{\\}\\$\\^\\&\\~"
    assert ClusteredExample.from_text(meta.text()) == meta


def test_cegml_spelling_follows_the_reference_code() -> None:
    def spell(chars: str | CharSet, universe: CharSet = EXTENDED_ALPHABET) -> str:
        return format_position(
            CharSet.of(chars) if isinstance(chars, str) else chars, universe, "cegml"
        )

    assert spell("ab") == "[ab]" and spell("abc") == "[a-c]" and spell("x") == "x"
    assert spell(EXTENDED_ALPHABET - DIGITS) == "[^0-9]"  # strictly shorter than [#A-Za-z]
    assert spell(EXTENDED_ALPHABET - CharSet.of("#")) == "[^#]"
    assert spell("ac", SIMPLE_ALPHABET) == "[ac]"  # [^b] is not strictly shorter (ours prints [^b])
    assert format_position(CharSet.of("ac"), SIMPLE_ALPHABET) == "[^b]"
    assert spell(EXTENDED_ALPHABET) == "[#0-9A-Za-z]"  # the whole universe stays positive
    assert (
        spell(CharSet.of(".")) == "." and spell(CharSet.of("a^")) == "[^a]"
    )  # no escapes, as in the code
