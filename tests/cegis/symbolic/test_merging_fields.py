"""Structured strings given up front (issue 51): a free-text field after a separator is written as
"anything but" the characters its near misses put in, skeletons that differ by an optional part
are aligned into one, and examples of thousands of characters learn."""

from __future__ import annotations

import math
import random
import re

import pytest

from automata import compile_regex, count_by_length, equivalent
from automata.core.dfa import infinite
from automata.core.minimize import minimize
from cegis.symbolic.merging.families.aligned import aligned_templates
from cegis.symbolic.merging.families.fields import free_field_hypotheses
from cegis.symbolic.merging.rounds.scoring import EXACT_LENGTH, log_counts
from cegis.symbolic.passive import learn_regex, printed_for
from regexlang import CharSet, parse, unparse
from regexlang.ast import Epsilon, Star, concat
from regexlang.ast import text as text_regex

ASCII = CharSet([(0x20, 0x7E)])


def printed(regex: object) -> str:
    return unparse(regex, "python", ASCII)  # type: ignore[arg-type]


def same_language(text: str, target: str) -> bool:
    return equivalent(
        *(minimize(compile_regex(parse(t, "python", ASCII), ASCII)) for t in (text, target))
    )


SETTINGS = (
    ["mode=fast!", "level=3,4", "x=a=b", "path=/tmp/x", "q=(1+2)*3"],
    ["mode=fast slow", "lev el=3", "=x", "mode", "path=/tmp x"],
)


def test_a_free_field_excludes_what_its_near_misses_put_in() -> None:
    positives, negatives = SETTINGS
    found = [printed(r) for r, _ in free_field_hypotheses(positives, negatives, ASCII)]
    assert any(same_language(text, "[a-z]+=[^ ]+") for text in found), found
    for text in found:
        assert all(re.fullmatch(text, p) for p in positives)
        assert not any(re.fullmatch(text, n) for n in negatives)


def test_fields_of_one_shape_are_no_free_field() -> None:
    assert free_field_hypotheses(["ab=12", "cd=34", "ef=56"], ["ab=1x"], ASCII) == []


def test_learned_free_field_generalizes_to_new_values() -> None:
    positives, negatives = SETTINGS
    learned = learn_regex(positives, negatives, universe=ASCII, anchored="fullmatch")
    assert learned.consistent
    for new in ["color=#ff00aa", "n=12.5%", "key=[a,b]"]:
        assert re.fullmatch(learned.regex, new), learned.regex
    for wrong in ["=abcdef", "noequalsign", "k=two words"]:
        assert not re.fullmatch(learned.regex, wrong), learned.regex


def test_headings_read_the_marks_as_a_run() -> None:
    positives = ["# Intro", "## Getting started", "### Why it works", "## Notes"]
    negatives = ["#Intro", "## ", "x# Intro", "##  Notes"]
    learned = learn_regex(positives, negatives, universe=ASCII, anchored="fullmatch")
    assert learned.consistent
    assert re.fullmatch(learned.regex, "#### Another heading here"), learned.regex


def test_aligned_skeletons_make_the_missing_part_optional() -> None:
    positives = ["ann.lee@mail.org", "bo@web.io", "cy.doyle@site.net", "dee@box.com"]
    written = {printed(t.regex) for t in aligned_templates(positives, ASCII, "word")}
    assert r"[a-z]+(?:\.[a-z]+)?@[a-z]+\.[a-z]+" in written
    for text in written:
        assert all(re.fullmatch(text, p) for p in positives)


def test_one_skeleton_is_not_aligned() -> None:
    assert aligned_templates(["ab-12", "cd-34"], ASCII, "word") == []


@pytest.mark.parametrize("pattern", ["[a-c]+x?", "(ab|c)*d", "[0-9]{2,5}"])
def test_log_counts_are_the_exact_counts(pattern: str) -> None:
    dfa = minimize(compile_regex(parse(pattern, "python", ASCII), ASCII))
    exact = count_by_length(dfa, 12)
    assert log_counts(dfa, 12) == [math.log2(c) if c else None for c in exact]


def test_log_counts_of_long_lengths_need_no_table() -> None:
    dfa = minimize(compile_regex(parse("[a-z]*", "python", ASCII), ASCII))
    counts = log_counts(dfa, 6000)
    assert counts[6000] == pytest.approx(6000 * math.log2(26))


def test_log_counts_past_the_exact_length_follow_the_exact_counts() -> None:
    dfa = minimize(compile_regex(parse("(ab|c)*d", "python", ASCII), ASCII))
    longest = EXACT_LENGTH + 50
    for count, log in zip(count_by_length(dfa, longest), log_counts(dfa, longest), strict=True):
        assert (log is None) == (count == 0)
        if count:
            assert log == pytest.approx(math.log2(count), rel=1e-12)


@pytest.mark.slow
def test_examples_of_five_thousand_characters_learn() -> None:
    rng = random.Random(5)

    def line() -> str:
        words = (
            "".join(rng.choice("abcdefgh") for _ in range(rng.randint(3, 8))) for _ in range(800)
        )
        return "GET /" + "/".join(words) + f" {rng.randint(100, 599)}"

    positives = [line() for _ in range(3)]
    assert min(map(len, positives)) >= 5000
    negatives = [p.replace("GET", "GXT") for p in positives[:2]]
    learned = learn_regex(positives, negatives, universe=ASCII, anchored="fullmatch")
    assert learned.consistent


@pytest.mark.slow
def test_request_log_lines_of_hundreds_of_characters_learn() -> None:
    # The readable print of their 800-state template overflowed the stack (RecursionError).
    rng = random.Random(7)

    def word(chars: str, low: int, high: int) -> str:
        return "".join(rng.choice(chars) for _ in range(rng.randint(low, high)))

    def line() -> str:
        path = "/".join(word("abcdefghijklmnop", 3, 9) for _ in range(rng.randint(50, 70)))
        agent = " ".join(
            word("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", 2, 10) for _ in range(12)
        )
        return (
            f"10.0.{rng.randint(0, 255)}.{rng.randint(0, 255)} - - [05/Dec/2026:10:"
            f'{rng.randint(10, 59)}:{rng.randint(10, 59)} +0000] "GET /{path} HTTP/1.1" '
            f'{rng.choice([200, 404, 500])} {rng.randint(100, 99999)} "{agent}"'
        )

    positives = [line() for _ in range(5)]
    assert min(map(len, positives)) >= 450
    negatives = [p.replace("GET", "GXT") for p in positives[:2]]
    negatives += [p.replace("HTTP", "HTP") for p in positives[2:4]]
    learned = learn_regex(positives, negatives, universe=ASCII, anchored="fullmatch")
    assert learned.consistent
    assert all(re.fullmatch(learned.regex, p) for p in positives)
    assert not any(re.fullmatch(learned.regex, n) for n in negatives)


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [("ab|c", False), ("a(bc)*d", True), ("[0-9]{2,5}", False), ("x+", True)],
)
def test_infinite_is_a_loop_among_live_states(pattern: str, expected: bool) -> None:
    assert infinite(minimize(compile_regex(parse(pattern, "python", ASCII), ASCII))) is expected


def test_a_listing_answer_names_the_negatives_that_block_a_pattern() -> None:
    learned = learn_regex(["red", "green", "blue"], ["yellow", "pink", "grey"], universe=ASCII)
    assert "'pink'" in learned.hint and "'grey'" in learned.hint, learned.hint
    assert "'yellow'" not in learned.hint
    general = learn_regex(["12", "345", "6789"], ["x", "1a"], universe=ASCII)
    assert general.hint == ""


def test_no_answer_prints_an_empty_group() -> None:
    tree = concat(Epsilon(), text_regex("ab"), Star(concat(text_regex("c"), Epsilon())), Epsilon())
    shown = printed_for(tree, "python", "fullmatch", ASCII)
    assert "(?:)" not in shown
    assert same_language(shown, "abc*")
