"""Bounded nests of optional repeats are unbounded (:func:`automata.printing.readable.unbounded_nests`): the
language only grows, and the learner proposes the result only where every example still holds and
the description is no longer (:mod:`cegis.symbolic.merging.rounds.unbounded`)."""

from __future__ import annotations

from hypothesis import given, settings

from automata import compile_regex, is_subset
from automata.core.minimize import minimize
from automata.printing.readable import unbounded_nests
from cegis.symbolic.merging.rounds.unbounded import loosened
from cegis.symbolic.passive import learn_regex
from oracle import Example
from regexlang import CharSet, parse, unparse
from regexlang.ast import Regex
from tests.automata.reference import regexes

ASCII = CharSet([(0x20, 0x7E)])
ABC = CharSet.of("abc")


def printed(text: str) -> str:
    return unparse(unbounded_nests(parse(text, "python", ASCII)), "python", ASCII)


def test_a_nest_of_optional_repeats_prints_as_a_star() -> None:
    assert printed("x(?:-x(?:-x(?:-x)?)?)?") == "x(?:-x)*"
    assert printed("(?:ab(?:ab(?:ab)?)?)?c") == "(?:ab)*c"
    assert printed("[0-9]{1,4}-(?:ab){0,3}") == "[0-9]+-(?:ab)*"


def test_one_optional_occurrence_and_other_counts_stay() -> None:
    for text in ("a(?:-a)?", "[0-9]{5}", "[0-9]{2,4}", "a(?:ba?)?"):
        assert printed(text) == text


@settings(max_examples=200, derandomize=True, deadline=None)
@given(regexes("abc", max_leaves=6))
def test_the_language_only_grows(regex: Regex) -> None:
    before = minimize(compile_regex(regex, ABC))
    after = minimize(compile_regex(unbounded_nests(regex), ABC))
    assert is_subset(before, after)


def test_the_unbounded_form_is_proposed_only_where_the_examples_allow() -> None:
    regex = parse("x(?:-x(?:-x)?)?", "python", ASCII)
    dfa = minimize(compile_regex(regex, ASCII))
    positives = ["x", "x-x", "x-x-x"]
    examples = [Example(p, True) for p in positives] + [Example("x-", False)]
    found = loosened(regex, dfa, examples, positives, ASCII)
    assert found is not None and unparse(found[0], "python", ASCII) == "x(?:-x)*"
    assert loosened(regex, dfa, [*examples, Example("x-x-x-x", False)], positives, ASCII) is None


def test_given_strings_with_a_repeated_group_are_learned_unbounded() -> None:
    words = ["ab", "cd", "efg", "h", "ij", "klm", "no", "p"]
    positives = ["-".join(words[i : i + n]) for n in (1, 2, 3, 4) for i in range(0, 5)]
    negatives = ["ab-", "-ab", "ab--cd", "AB", "ab_cd"]
    learned = learn_regex(positives, negatives, universe=ASCII)
    assert learned.consistent
    assert "*" in learned.regex or "+" in learned.regex, learned.regex
