"""``learn_regex``: one synchronous call from labeled strings to a regex for an engine."""

from __future__ import annotations

import random
import re

import pytest

from cegis import learn_regex
from cegis.symbolic.passive import ContradictoryExamples, printed_for
from regexlang import CharSet, parse
from regexlang.ast import Complement, concat, text, union
from regexlang.flavors import render


def test_the_readme_call_answers_a_consistent_regex_with_its_size() -> None:
    r = learn_regex(["12345", "98765-4321", "55555"], ["1234", "123456", "12345-"], flavor="python")
    assert (r.regex, r.consistent, r.size, r.guess) == ("[0-9]{5}(?:-[0-9]{4})?", True, 8, False)


def test_every_flavour_anchors_for_its_usual_call() -> None:
    r = learn_regex(["a1", "b22", "c333"], ["1a", "a", "11"], flavor="javascript")
    assert r.regex.startswith("^") and r.regex.endswith("$") and r.consistent
    assert re.search(r.regex, "d4444") and not re.search(r.regex, "xx1a")


def test_positives_alone_are_a_guess_and_contradictions_are_refused() -> None:
    assert learn_regex(["ab", "abab"]).guess
    with pytest.raises(ContradictoryExamples, match="'ab'"):
        learn_regex(["ab"], ["ab"])


def test_complement_is_printed_through_its_automaton() -> None:
    sigma = CharSet.of("ab")
    tree = Complement(concat(text("a"), parse("[ab]*", "python", sigma)))
    printed = printed_for(tree, "pcre", "fullmatch", sigma)
    assert "~" not in printed and "&" not in printed
    for s in ("", "b", "ba", "a", "ab"):
        assert bool(re.fullmatch(printed, s)) == (not s.startswith("a"))


def test_a_listing_past_the_state_limit_is_printed_as_written() -> None:
    """Lines whose listing has more states than the print may build (the positives of long lines
    an answer lists): printed as the tree reads, not refused."""
    rng = random.Random(5)
    lines = ["".join(rng.choice("abcdefghij") for _ in range(500)) for _ in range(45)]
    tree = union(*map(text, lines))
    printed = printed_for(tree, "python", "fullmatch", CharSet.of("abcdefghij"))
    assert printed == render(tree, "python", "fullmatch", CharSet.of("abcdefghij"))
    assert all(re.fullmatch(printed, line) for line in lines[:3])
    assert not re.fullmatch(printed, lines[0][:-1])


def test_a_word_from_a_small_set_is_listed_where_near_misses_show_other_words() -> None:
    # Written by hand: a level word, then a message; the near misses swap the word for another of
    # the same class (a longer level, a shorter one, a typo), so a class with a count cannot tell them.
    r = learn_regex(
        ["ERROR: disk", "WARN: retry", "INFO: started", "ERROR: timeout", "INFO: ok"],
        ["DEBUG: x", "WARNING: y", "INFO:", "EROR: disk", "info: ok"],
        universe=CharSet([(0x20, 0x7E)]),
    )
    assert r.regex == "(?:ERROR|INFO|WARN): [a-z]+"
    r = learn_regex(
        ["red_car", "blue_bike", "green_car", "red_boat", "blue_car"],
        ["pink_car", "red-car", "redcar", "gray_bike", "red_"],
        universe=CharSet([(0x20, 0x7E)]),
    )
    assert re.fullmatch(r.regex, "green_bike") and not r.hint  # words, not the positives listed
    assert not any(re.fullmatch(r.regex, s) for s in ("pink_car", "gray_bike", "teal_boat"))


def test_a_listing_hint_names_the_positives_alone_in_their_shape() -> None:
    # Written by hand: durations whose near misses block every pattern of classes and counts but
    # one; the hint names that pattern's blocking negative and the positive that needs company.
    r = learn_regex(
        ["P3DT4H", "PT15M", "P1D"],
        ["P", "PT", "P3DT", "3D", "P3", "PT15", "P1", "PT15X", "P1DT", "P3D4H"],
        universe=CharSet([(0x20, 0x7E)]),
    )
    assert r.regex == "P3DT4H|PT15M|P1D"
    assert "'PT15X'" in r.hint and "more positives like 'P3DT4H'" in r.hint, r.hint
