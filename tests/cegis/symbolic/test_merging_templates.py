"""The symbolic learner on plain labeled strings: the class prior and the templates give the regex a
person writes, consistent with every example, more specific only where negatives ask, and never
printed longer than the positives listed."""

from __future__ import annotations

import itertools
import re

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from automata import compile_regex, equivalent
from automata.core.minimize import minimize
from cegis.symbolic.merging.families.prior import class_cuts, lifted
from cegis.symbolic.merging.families.templates import template_hypotheses
from cegis.symbolic.passive import from_examples, learn_regex
from oracle import ClusteredExample, Example
from regexlang import CharSet, parse, unparse

ASCII = CharSet([(0x20, 0x7E)])


def learned(positives: list[str], negatives: list[str]) -> str:
    examples = [Example(s, True) for s in positives] + [Example(s, False) for s in negatives]
    proposal = from_examples().learn(examples, "python", ASCII)
    assert proposal.ok, proposal.failure
    for string in positives:
        assert re.fullmatch(proposal.text, string), (proposal.text, string)
    for string in negatives:
        assert not re.fullmatch(proposal.text, string), (proposal.text, string)
    return proposal.text


def same_language(text: str, target: str) -> bool:
    return equivalent(
        *(minimize(compile_regex(parse(t, "python", ASCII), ASCII)) for t in (text, target))
    )


ZIPS = [
    "12345",
    "90210",
    "33139",
    "60614",
    "02134",
    "94105-1234",
    "10001-0001",
    "73301-5678",
    "48226-9020",
    "55401",
]
ZIP_MISSES = [
    "1234",
    "123456",
    "12345-",
    "12345-123",
    "1234a",
    "abcde",
    "12-345",
    "123456789",
    "-12345",
    "12345 6789",
]


def test_zip_codes_are_learned_as_a_person_writes_them() -> None:
    text = learned(ZIPS, ZIP_MISSES)
    assert text == "[0-9]{5}(?:-[0-9]{4})?"


def test_hex_colours_generalize_to_the_hex_class_counted() -> None:
    rng = np.random.default_rng(0)
    colours = ["#" + "".join(rng.choice(list("0123456789abcdef"), 6)) for _ in range(12)]
    text = learned(colours, ["#12345", "#1234567", "123456", "#12g456", "##12345", "#ABCDEX"])
    assert same_language(text, "#[0-9a-f]{6}") or same_language(text, "#[0-9A-Fa-f]{6}")


def test_a_run_is_made_specific_only_where_negatives_ask() -> None:
    times = [
        "00:15",
        "09:30",
        "13:45",
        "23:59",
        "18:05",
        "21:10",
        "07:00",
        "11:11",
        "20:20",
        "16:40",
        "03:33",
        "22:22",
    ]
    general = learned(times, ["1:30", "12:3", "12-30", "ab:cd"])
    # Twelve times show hours at most 23 and minutes at most 59: bounded only up to the confidence
    # limits of those bounds, 34 and 87 (:mod:`cegis.symbolic.merging.families.digit_bounds`), not
    # to the values seen, since no negative asks for more.
    assert same_language(general, "[0-3][0-9]:[0-8][0-9]")
    specific = learned(times, ["24:00", "25:30", "29:59", "1:30"])
    assert not re.fullmatch(specific, "24:00") and re.fullmatch(specific, "12:59")


def test_an_optional_leading_separator_is_factored_out() -> None:
    text = learned(
        ["3.14", "-2.5", "10.0", "-100.25", "0.5", "42.42"], ["3.", ".5", "--2.5", "3..1", "a.b"]
    )
    assert same_language(text, "-?[0-9]+\\.[0-9]+")


def test_identifiers_generalize_their_length() -> None:
    names = ["x", "foo", "bar_2", "Alpha", "snake_case_name", "camelCase", "B2B", "q1", "_private"]
    text = learned(names, ["2x", "9lives", "a-b", "a b", "foo!"])
    for fresh in ("abcdefghijklmnopqrstuvw", "Z9_", "_"):
        assert re.fullmatch(text, fresh), (text, fresh)


@settings(max_examples=25, deadline=None, derandomize=True)
@given(
    st.lists(st.text(alphabet="ab#-", min_size=1, max_size=6), min_size=1, max_size=6, unique=True)
)
def test_the_answer_is_never_longer_than_the_positives_listed(strings: list[str]) -> None:
    positives, negatives = strings[::2], strings[1::2]
    text = learned(positives, negatives)
    assert len(text) <= len("|".join(re.escape(p) for p in positives)) + 2 * len(positives)


def test_the_prior_reads_varied_characters_as_their_class_and_a_constant_one_literally() -> None:
    cuts = class_cuts(["a1-b2", "c3-d4", "e5-f6", "g7-h8"], ASCII)
    assert CharSet.range("0", "9") in cuts and CharSet.of("-") in cuts
    assert CharSet.range("a", "z") in cuts
    hex_only = class_cuts(["a1f", "b2e", "c3d", "f0a", "e9b", "d8c"] * 3, ASCII)
    assert CharSet.range("a", "f") in hex_only


def test_lifted_positives_never_take_in_a_negative() -> None:
    examples = [Example("15:00", True), Example("09:45", True), Example("25:00", False)]
    read = lifted(examples, ASCII)
    clustered = [e for e in read if isinstance(e, ClusteredExample)]
    assert len(clustered) == 2 and all("25:00" not in e for e in clustered)
    assert any("19:00" in e for e in clustered)  # the other positions stay classes


def test_templates_list_a_few_values_shown_often() -> None:
    mails = [
        f"{user}@{host}.{tld}"
        for user, host, tld in zip("abcdefgh", "pqrstuvw", ["com", "org", "net", "com"] * 2)
    ]
    texts = [unparse(t.regex, "python", ASCII) for t in template_hypotheses(mails, [], ASCII)]
    assert "[a-z]@[a-z]\\.(?:com|net|org)" in texts


def test_a_run_as_long_as_the_longest_string_allows_is_unbounded() -> None:
    # The teacher's strings end at 32 characters: [a-z]{1,28} is what they show, not the run's bound.
    positives = [
        "AbC",
        "ABcdC",
        "Qxyz" + "q" * 10 + "RS",
        "M" + "k" * 30 + "N",
        "Pa" + "b" * 5 + "Z",
        "XYhhY",
    ]
    texts = {
        unparse(t.regex, "python", ASCII)
        for t in template_hypotheses(positives, ["abc", "ABC"], ASCII, "class")
    }
    assert "[A-Z]{1,2}[a-z]+[A-Z]{1,2}" in texts  # the upper-case runs stay counted


def test_binary_literals_from_five_examples_keep_the_prefix_and_the_digits_shown() -> None:
    # The example: a person writes 0b[01]+, not an alternation of the five positives.
    text = learned(
        ["0b101", "0b1", "0b1100", "0b0", "0b111001"], ["0b", "b101", "0b102", "0x1", "00b1"]
    )
    assert same_language(text, "0b[01]+")
    rng = np.random.default_rng(7)
    fresh = ["0b" + "".join(rng.choice(list("01"), int(rng.integers(1, 12)))) for _ in range(100)]
    misses = [f"0{c}" + s[2:] for c, s in zip(rng.choice(list("xoB1 "), 100), fresh)]
    misses = [
        m[:i] + "2" + m[i + 1 :] if m[1] == "b" else m
        for i, m in zip(rng.integers(2, 4, 100), misses)
    ]
    right = sum(bool(re.fullmatch(text, s)) for s in fresh) + sum(
        not re.fullmatch(text, s) for s in misses
    )
    assert right / 200 >= 0.95


def test_a_class_covers_what_the_prior_names_not_only_the_characters_seen() -> None:
    keys = ["max_retries", "log_level", "timeout", "workers", "cache_ttl", "database_url"]
    text = learned(keys, ["Max_retries", "log-level", "time out", "2workers"])
    assert re.fullmatch(text, "qzj_bov") and not re.fullmatch(text, "QZJ")
    times = learned(
        ["12:35", "13:47", "04:14", "03:26", "16:16"], ["0d:54", "22:2", "01:4", "y0:48"]
    )
    assert same_language(times, "[0-4][0-9]:[0-9]{2}")  # five times show the hours' bound only


def test_a_negative_still_narrows_the_class_to_what_it_forbids() -> None:
    text = learned(["0b101", "0b1", "0b1100", "0b0"], ["0b102", "0b12", "0b3"])
    assert not re.fullmatch(text, "0b2") and re.fullmatch(text, "0b10101")


def test_a_run_bounded_below_only_by_few_examples_is_unbounded() -> None:
    assert learned(["42%", "100%", "47%", "93%", "22%"], ["X29%", "b%", "%", "11#"]) == "[0-9]+%"


def test_lengths_each_shown_once_are_not_read_as_levels() -> None:
    # Four positives of four lengths: not .{10}|.{12}|.{26}|.{29} (their lengths listed), but a
    # pattern of classes that a person writes (a[bc]*), found once no length template fits.
    positives = [
        "abbccccccc",
        "abbbbbcbbbcbbccbccbbcbcbbbbcb",
        "abcbbbccbccbbbccbcbbccccbb",
        "abbbcbccbccc",
    ]
    negatives = ["bbacaccacbb", "bcbbba", "bccabbcbbbcaaacb", "bbabcbcccaccac"]
    text = learn_regex(positives, negatives, universe=CharSet.of("abc")).regex
    assert all(re.fullmatch(text, p) for p in positives) and not any(
        re.fullmatch(text, n) for n in negatives
    ), text
    short = ["".join(chars) for n in range(1, 9) for chars in itertools.product("abc", repeat=n)]
    accepted = {s for s in short if re.fullmatch(text, s)}
    assert accepted, text  # it generalizes to lengths no positive has
    assert accepted - {"a"} == {s for s in short if re.fullmatch("a[bc]+", s)}, text


def test_a_fitted_run_lists_its_words_only_where_near_misses_show_another_word() -> None:
    # Written by hand: levels with one shown again; ``DEBUG-12`` and ``TRACE-03`` put another word
    # of their lengths there, which no class or count rejects. Without them the class stays; words
    # that never repeat are a field's values, never listed.
    levels = ["ERROR-12", "INFO-03", "ERROR-07", "WARN-15", "INFO-22"]

    def written(positives: list[str], negatives: list[str]) -> set[str]:
        found = template_hypotheses(positives, negatives, ASCII, "word")
        return {unparse(t.regex, "python", ASCII) for t in found}

    assert any(
        t.startswith("(?:ERROR|INFO|WARN)-") for t in written(levels, ["DEBUG-12", "TRACE-03"])
    )
    assert not any("|" in t for t in written(levels, ["INFO-1", "WARN-123"]))
    once = ["ERROR-12", "INFO-03", "WARN-15"]
    assert not any("|" in t for t in written(once, ["DEBUG-12", "TRACE-03"]))


def test_a_first_letter_in_one_case_is_a_letter_where_the_rest_shows_both() -> None:
    # Five hashtags that happen to start in lower case: the first is a letter, not a lower-case one.
    positives = ["#oy65rLBjGcKAhxIvihAa5", "#zQpoi", "#g", "#g4WMAZHJw", "#lGXL0RGQko"]
    negatives = ["bt", "#hvvz6gJVm@HeXz", "wTZwXjvQPc", "#UEP$uBGEbwUed", "#4bLOMnh6DU"]
    learned = learn_regex(positives, negatives, universe=ASCII, anchored="fullmatch")
    assert same_language(learned.regex, "#[A-Za-z][A-Za-z0-9]*"), learned.regex
