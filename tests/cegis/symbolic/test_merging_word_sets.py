"""Class runs whose values repeat too often for the class are listed as words
(:mod:`cegis.symbolic.merging.rounds.word_sets`): the chance bound holds against enumeration, a
run is listed only on that evidence and only where strings pass through it once, and the learner
answers with the words from a few strings given up front. Examples written for these tests."""

from __future__ import annotations

import itertools
import math
import re

import pytest

from cegis.symbolic.merging.rounds.word_sets import chance, listed_words, reads_as_words
from cegis.symbolic.passive import learn_regex
from regexlang import CharSet, parse, unparse

ASCII = CharSet([(0x20, 0x7E)])


def listed(pattern: str, positives: list[str]) -> str:
    return unparse(listed_words(parse(pattern, "python", ASCII), positives), "python", ASCII)


@pytest.mark.parametrize(("strings", "draws"), [(3, 3), (4, 4), (5, 4), (4, 5), (6, 3)])
def test_the_chance_of_few_distinct_values_is_bounded_above(strings: int, draws: int) -> None:
    # Every sequence of draws enumerated: the share showing at most k distinct values.
    sequences = list(itertools.product(range(strings), repeat=draws))
    for distinct in range(1, min(strings, draws) + 1):
        exact = sum(len(set(s)) <= distinct for s in sequences) / len(sequences)
        assert exact <= chance(draws, distinct, strings) + 1e-12


def test_a_repeated_word_of_a_wide_class_is_evidence_and_short_values_are_not() -> None:
    assert reads_as_words(["cat", "dog", "cat", "owl", "dog"], 26)
    assert not reads_as_words(["cat", "dog", "elk", "owl", "yak"], 26)  # no repeat
    assert not reads_as_words(["ab", "cd", "ab", "ef", "gh"], 26)  # 6 in 100 by chance
    assert not reads_as_words(["ab", "ab", "ab"], 26)  # one value: a literal, not a list
    assert not reads_as_words(["c4t", "dog", "c4t"], 36)  # not letters
    assert math.isclose(chance(5, 3, 26**3), 3**5 / (6 * 26**6))


def test_a_run_that_repeats_its_words_is_listed_and_the_others_stay() -> None:
    pets = ["cat/12", "dog/7", "cat/3", "owl/44", "dog/9"]
    assert listed("[a-z]+/[0-9]+", pets) == "(?:cat|dog|owl)/[0-9]+"
    assert listed("[a-z]{3,}/[0-9]+", pets) == "(?:cat|dog|owl)/[0-9]+"
    # Counted to one length, the class stays: five strings cannot tell three words from four.
    assert listed("[a-z]{3}/[0-9]+", pets) == "[a-z]{3}/[0-9]+"
    varied = ["cat/12", "dog/7", "elk/3", "owl/44", "yak/9"]
    assert listed("[a-z]+/[0-9]+", varied) == "[a-z]+/[0-9]+"
    # Inside a repetition a group sees only the last pass: such runs are not read.
    assert listed("(?:[a-z]+/)+", ["cat/dog/", "cat/", "cat/owl/"]) == "(?:[a-z]+/)+"


def test_variations_of_one_string_are_one_draw() -> None:
    # ``ox`` is shown three times, but always with ``41``: one string varied at its end, not three
    # draws of the word run. ``yak`` comes with other numbers each time: words.
    copies = ["ox41a", "ox41bc", "ox41d", "elm77z", "fig30q"]
    assert listed("[a-z]+[0-9]{2}[a-z]+", copies) == "[a-z]+[0-9]{2}[a-z]+"
    drawn = ["yak41a", "yak52bc", "yak17d", "elm77z", "fig30q"]
    assert listed("[a-z]+[0-9]{2}[a-z]+", drawn) == "(?:elm|fig|yak)[0-9]{2}[a-z]+"


def test_an_optional_run_is_read_from_the_positives_that_pass_through_it() -> None:
    tags = ["v1", "v2-beta", "v3", "v4-rc", "v5-beta", "v6-rc", "v7-beta"]
    assert listed("v[0-9](?:-[a-z]+)?", tags) == "v[0-9](?:-(?:beta|rc))?"


def test_the_learner_lists_words_shown_again_from_five_strings() -> None:
    # Fails on bfb9f2d, which answers ``(?:[a-z]{4}|[a-z]{6})-[0-9]+``.
    positives = ["gravel-204", "clay-13", "gravel-7", "silt-980", "clay-55"]
    negatives = ["gravel204", "clay-1a", "grvel-20", "silt--9", "clay-"]
    answer = learn_regex(positives, negatives, anchored="fullmatch", universe=ASCII)
    assert answer.regex.startswith("(?:clay|gravel|silt)-"), answer.regex
    assert all(re.fullmatch(answer.regex, p) for p in positives)
    assert not any(re.fullmatch(answer.regex, n) for n in negatives)
