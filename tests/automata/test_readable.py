"""The readable printer: the structure a person writes, and never another language.

Languages are checked against brute-force enumeration of short strings (:func:`finite_language`
on the printed tree, a plain table walk on the automaton) and by compiling the print back.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from automata.algebra import ops
from automata.building.compile import compile_regex, from_text
from automata.core.dfa import DFA
from automata.printing import readable as readable_module
from automata.printing.readable import draft, readable
from automata.printing.to_regex import ORDERS, Joins, Order, to_regex
from regexlang import ast as A
from regexlang import parse, unparse
from regexlang.charset import CharSet
from regexlang.metrics import text_length
from tests.automata.reference import finite_language, regexes, strings_up_to
from tests.automata.test_counting import acceptor, dfas

EXTENDED = parse("[A-Za-z0-9#]", "extended").chars  # type: ignore[union-attr]


def printed(text: str) -> str:
    return unparse(readable(from_text(text, "extended")), "extended", EXTENDED)


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        # containment: Σ* dog Σ*, not the loops of state elimination
        ("[A-Za-z0-9#]*dog[A-Za-z0-9#]*", "[A-Za-z0-9#]*dog[A-Za-z0-9#]*"),
        ("[A-Za-z0-9#]*(run|hat)[A-Za-z0-9#]*", "[A-Za-z0-9#]*(hat|run)[A-Za-z0-9#]*"),
        # a suffix and a prefix
        ("[A-Za-z0-9#]*dog", "[A-Za-z0-9#]*dog"),
        ("dog[A-Za-z0-9#]*", "dog[A-Za-z0-9#]*"),
        # a counted prefix, then containment (the example)
        ("[A-Za-z]{6,}[A-Za-z0-9#]*dog[A-Za-z0-9#]*", "[A-Za-z]{6}[A-Za-z0-9#]*dog[A-Za-z0-9#]*"),
        # two containments in order: the strings up to the first one widened to Σ*(er|let)
        (
            "[A-Za-z0-9#]*(er|let)[A-Za-z0-9#]*wig[A-Za-z0-9#]*",
            "[A-Za-z0-9#]*(er|let)[A-Za-z0-9#]*wig[A-Za-z0-9#]*",
        ),
        # a run of one sequence counted
        ("([A-Za-z0-9#]*[0-9][A-Za-z0-9#]*){7,}", "([A-Za-z#]*[0-9]){7}[A-Za-z0-9#]*"),
    ],
)
def test_the_structure_a_person_writes(target: str, expected: str) -> None:
    assert printed(target) == expected
    assert ops.equivalent(from_text(expected, "extended"), from_text(target, "extended"))


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        (
            "~(dog|truck|[a-z])",
            "~([a-z]|dog|truck)",
        ),  # elimination: 180 characters of "not yet dog"
        ("~([AEIOUaeiou]|[A-Z])", "~[A-Zaeiou]"),
    ],
)
def test_the_extended_dialect_gets_complements(target: str, expected: str) -> None:
    dfa = from_text(target, "extended")
    assert unparse(readable(dfa, dialect="extended"), "extended", EXTENDED) == expected
    assert "~" not in unparse(readable(dfa), "python", EXTENDED)  # other dialects cannot write ~


def test_contains_dog_is_much_shorter_than_state_elimination() -> None:
    dfa = from_text("[A-Za-z]{6,}[A-Za-z0-9#]*dog[A-Za-z0-9#]*", "extended")
    eliminated = unparse(to_regex(dfa), "extended", EXTENDED)
    assert "d(o?d)*" in eliminated or "((o|" in eliminated  # the loops a reader has to untangle
    assert text_length(printed("[A-Za-z]{6,}[A-Za-z0-9#]*dog[A-Za-z0-9#]*")) * 2 < text_length(
        eliminated
    )


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ("a b c+a b a", "ab[ac]"),  # a common prefix factored
        ("c a b+b a b", "[bc]ab"),  # a common suffix factored
        ("a b c+a a c", "a[ab]c"),
        ("a b c c+a c c c", "a[bc]cc"),
        ("a a a", "aaa"),
        ("b b b b*", "b{3,}"),
    ],
)
def test_unions_factored_and_runs_counted(target: str, expected: str) -> None:
    assert unparse(readable(from_text(target, "simple")), "python") == expected


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        # a language closed under concatenation is the star of its primes
        ("(a (b*+c))*", "(a (b*+c))*"),
        ("(c (a+b) ((b b a)* (c+c))*)*", "(c (a+b) ((b b a)* c)*)*"),
    ],
)
def test_stars_of_primes(target: str, expected: str) -> None:
    assert unparse(readable(from_text(target, "simple"), dialect="simple"), "simple") == expected


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        # no string returns to the start: a union of its branches (elimination: a* (b (a a* b)* a a*+epsilon)+c c*)
        ("(((((b a))*+a))*+(c)*)", "((b+epsilon) a)*+c*"),
    ],
)
def test_branches_by_first_character(target: str, expected: str) -> None:
    assert unparse(readable(from_text(target, "simple"), dialect="simple"), "simple") == expected


def test_counted_classes() -> None:
    assert printed("[0-9][0-9][0-9]#[0-9][0-9]") == "[0-9]{3}#[0-9]{2}"


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        # StructuredRegex shapes: counted classes that overlap, so the minimal DFA has no cut state
        # (state elimination wrote 147, 69 and 125 characters)
        ("[a-z]{1,4}[A-Za-z]{2}[a-z]{1,4}", "[a-z]{1,4}[A-Za-z]{2}[a-z]{1,4}"),
        ("[A-Z]{2,4}[0-9]{2}[A-Z]{2,4}", "[A-Z]{2,4}[0-9]{2}[A-Z]{2,4}"),
        (
            "[A-Z]{2,4}0{3,4}[a-z]?[A-Z]{2,4}[A-Za-z]{3,4}",
            "[A-Z]{2,4}0{3,4}[a-z]?[A-Z]{2,4}[A-Za-z]{3,4}",
        ),
        # optional factors; the rest before [0-9]{2,} is widened past the strings it needs
        ("[0-9]{2,}([A-Z]{1,3})?[0-9]{2,}", "[0-9]{2,}[A-Z]{0,3}[0-9]{2,}"),
        ("[A-Z]{2,3}(([0-9]|[A-Z]){3,4})?", "[A-Z]{2,3}([A-Z0-9]{3,4})?"),
        ("([A-Z]{1,3})?[0-9]{2,}8{3,}", "[A-Z]{0,3}[0-9]{2,}8{3,}"),
    ],
)
def test_concatenations_of_counted_classes(target: str, expected: str) -> None:
    assert printed(target) == expected
    assert ops.equivalent(from_text(expected, "extended"), from_text(target, "extended"))


def universe_of(dfa: DFA) -> str:
    return "".join(dfa.alphabet.universe)


@settings(max_examples=200)
@given(dfas())
def test_random_dfas_keep_their_language(dfa: DFA) -> None:
    chars = universe_of(dfa)
    language = finite_language(readable(dfa), chars, 6)
    accepts = acceptor(dfa)
    assert language == {s for s in strings_up_to(chars, 6) if accepts(s)}


SIGMA = A.Star(A.Chars(CharSet.of("abc")))


@st.composite
def structured(draw: st.DrawFn) -> A.Regex:
    """Regexes with the shapes the printer looks for: gaps of any string around parts, in sequence."""
    parts = draw(st.lists(regexes("abc", max_leaves=4), min_size=1, max_size=3))
    shaped: list[A.Regex] = []
    for part in parts:
        shaped.extend(
            draw(st.sampled_from([[part], [SIGMA, part], [part, SIGMA], [SIGMA, part, SIGMA]]))
        )
    return A.concat(*shaped)


@settings(max_examples=150)
@given(structured())
def test_structured_languages_print_back_to_themselves(regex: A.Regex) -> None:
    universe = CharSet.of("abc")
    dfa = compile_regex(regex, universe)
    back = readable(dfa)
    assert ops.equivalent(compile_regex(back, universe), dfa)
    assert finite_language(back, "abc", 5) == finite_language(regex, "abc", 5)
    if not isinstance(back, A.EmptySet):
        assert ops.equivalent(
            compile_regex(
                parse(unparse(back, "extended", universe), "extended", universe), universe
            ),
            dfa,
        )


@settings(max_examples=100)
@given(dfas(), st.sampled_from(ORDERS))
def test_every_elimination_order_keeps_the_language(dfa: DFA, order: str) -> None:
    chars = universe_of(dfa)
    accepts = acceptor(dfa)
    expected = {s for s in strings_up_to(chars, 6) if accepts(s)}
    assert finite_language(to_regex(dfa, order=order), chars, 6) == expected  # type: ignore[arg-type]


@settings(max_examples=100)
@given(dfas())
def test_a_draft_keeps_the_language(dfa: DFA) -> None:
    chars = universe_of(dfa)
    accepts = acceptor(dfa)
    assert finite_language(draft(dfa), chars, 6) == {
        s for s in strings_up_to(chars, 6) if accepts(s)
    }


def test_a_draft_is_the_elimination_print_and_readable_past_the_size_limit() -> None:
    dfa = from_text("[A-Za-z0-9#]*dog[A-Za-z0-9#]*", "extended")
    eliminated = unparse(draft(dfa), "extended", EXTENDED)
    assert (
        eliminated
        == unparse(to_regex(dfa), "extended", EXTENDED)
        != "[A-Za-z0-9#]*dog[A-Za-z0-9#]*"
    )
    # the elimination print has 22 nodes: past 10 the draft is the readable search's
    assert (
        unparse(draft(dfa, size_limit=10, dialect="extended"), "extended", EXTENDED)
        == "[A-Za-z0-9#]*dog[A-Za-z0-9#]*"
    )


def test_a_structured_print_is_never_longer_than_elimination() -> None:
    for text in ["(a+b)* a (a+b)*", "a (a+b)* b", "(a b+b)* c (a+b+c)*"]:
        dfa = from_text(text, "simple")
        assert len(unparse(readable(dfa), "python")) <= len(unparse(to_regex(dfa), "python"))


def test_the_search_eliminates_no_part_larger_than_it_looks_for_structure_in(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A 9-state learner proposal over printable ASCII whose cores and segments reach 51 states:
    # eliminating those took seconds per print and never gave a shorter one.
    text = "[a-z]*[B-`6-@ -4{-~][6-~ -4]{2}(([ -`{-~]|[a-z]{2})[6-~ -4]{2})*[a-z][6-` -4{-~][6-~ -4]*5[ -`{-~]"
    printable = CharSet.range(" ", "~")
    dfa = compile_regex(parse(text, "extended", printable), printable)
    eliminated: list[int] = []

    def recorded(
        automaton: DFA,
        size_limit: int | None = None,
        order: Order = ORDERS[0],
        joins: Joins | None = None,
    ) -> A.Regex:
        eliminated.append(automaton.n_states)
        return to_regex(automaton, size_limit, order, joins)

    monkeypatch.setattr(readable_module, "to_regex", recorded)
    monkeypatch.setattr(readable_module, "_PRINTED", {})
    printed = readable(dfa, dialect="extended")
    assert max(eliminated) <= readable_module.MAX_STATES
    assert ops.equivalent(compile_regex(printed, printable), dfa)


def test_three_containments_print_though_a_part_has_no_elimination_within_the_limits() -> None:
    # "contains L, S and dog": parts of its 16-state automaton have no elimination print within
    # the search's limits, which once left the search comparing against no print at all
    anything = "[A-Za-z0-9#]*"
    dfa = from_text(
        f"({anything}L{anything})&({anything}S{anything})&({anything}dog{anything})", "extended"
    )
    printed = readable(dfa, size_limit=20_000, dialect="extended")
    assert ops.equivalent(compile_regex(printed, EXTENDED), dfa)
