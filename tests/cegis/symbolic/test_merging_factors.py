"""Hypotheses from shared factors (cegis.symbolic.merging.families.factors): the factors against brute force, every
hypothesis accepting every positive, and a "contains a word" target learned in a few epochs."""

from __future__ import annotations

import asyncio
import itertools
import re
from collections.abc import Sequence

from hypothesis import example, given, settings
from hypothesis import strategies as st

from automata import compile_regex
from cegis.config import Budgets, LoopConfig
from cegis.loop import run
from cegis.state import Task
from cegis.symbolic.merging import symbolic
from cegis.symbolic.merging.core.run_cache import RunCache
from cegis.symbolic.merging.families.factors import (
    LONGEST_ALTERNATIVE,
    _count,
    _frequent_factors,
    _run_pattern,
    _runs,
    _runs_at_most,
    covering_factors,
    factor_hypotheses,
)
from cegis.symbolic.merging.families.pieces import all_gaps, find_piece, starts_of
from cegis.symbolic.merging.families.shared import shared_factors
from oracle import ExactTeacher, TeacherConfig
from regexlang import CharSet, unparse
from tests.regexlang.strategies import edge_characters, wide_sets

ABC = CharSet.of("abc#")
STRINGS = st.lists(st.text(alphabet="abc#", max_size=9), min_size=1, max_size=4)


def brute_force(strings: list[str]) -> dict[str, int]:
    # every substring of every string, with how often each string holds it without overlaps
    # (counted by a regex search, not str.count); kept when no longer one is held as often
    subs = {s[i:j] for s in strings for i in range(len(s)) for j in range(i + 2, len(s) + 1)}
    held = {w: min(len(re.findall(re.escape(w), s)) for s in strings) for w in subs}
    held = {w: n for w, n in held.items() if n}
    return {
        w: n for w, n in held.items() if not any(v != w and w in v and held[v] >= n for v in held)
    }


@settings(max_examples=300, derandomize=True, deadline=None)
@given(STRINGS)
def test_shared_factors_are_the_common_substrings_no_other_implies(strings: list[str]) -> None:
    found = shared_factors(strings)
    assert found == brute_force(strings)
    assert [len(w) for w in found] == sorted((len(w) for w in found), reverse=True)


@settings(max_examples=300, derandomize=True, deadline=None)
@given(STRINGS, st.lists(st.text(alphabet="abc#", max_size=12), max_size=6))
def test_every_hypothesis_accepts_every_positive(strings: list[str], negatives: list[str]) -> None:
    # negatives (those that are not also positives) refute hypotheses and so call up the rest
    negatives = [n for n in negatives if n not in strings]
    for regex, how in factor_hypotheses(
        strings, negatives, ABC, [CharSet.of("ab")], [CharSet.of("ab"), CharSet.of("c#")]
    ):
        dfa = compile_regex(regex, ABC)
        assert all(dfa.accepts(s) for s in strings), (how, unparse(regex, "extended", ABC))


@settings(max_examples=300, derandomize=True, deadline=None)
@given(
    st.text(alphabet="abc#", max_size=12),
    st.lists(st.sampled_from(["ab", "c", "b#", "a"]), min_size=1, max_size=3),
)
def test_pieces_are_found_one_after_another_as_a_regex_search_finds_them(
    string: str, order: list[str]
) -> None:
    pattern = re.compile(".*" + ".*".join(map(re.escape, order)) + ".*")
    for tight in (True, False):
        starts = starts_of(string, order, RunCache(), tight=tight)
        assert (starts is not None) == bool(pattern.fullmatch(string))
        if starts is not None:
            assert [string[i : i + len(w)] for i, w in zip(starts, order)] == order
            assert all(i + len(w) <= j for i, w, j in zip(starts, order, starts[1:]))


@settings(max_examples=200, derandomize=True, deadline=None)
@given(
    st.text(alphabet="abc#", max_size=12),
    st.lists(st.sampled_from(["ab", "c", "b#", "a"]), min_size=2, max_size=3),
)
def test_every_match_of_an_order_is_found(string: str, order: list[str]) -> None:
    # brute force: every choice of places, each piece wholly after the one before
    def places(piece: str) -> list[int]:
        return [i for i in range(len(string)) if string.startswith(piece, i)]

    expected = sorted(
        tuple(b - (a + len(w)) for a, w, b in zip(starts, order, starts[1:]))
        for starts in itertools.product(*map(places, order))
        if all(a + len(w) <= b for a, w, b in zip(starts, order, starts[1:]))
    )
    assert sorted(all_gaps(string, order, 0, len(string), RunCache())) == expected


@settings(max_examples=200, derandomize=True, deadline=None)
@given(st.text(alphabet="abc#", max_size=12), st.integers(0, 3))
def test_at_most_so_many_runs_of_a_class(string: str, most: int) -> None:
    runs = len(re.findall("[ab]+", string))
    assert _runs(string, CharSet.of("ab")) == runs
    assert compile_regex(_runs_at_most(CharSet.of("ab"), most, ABC), ABC).accepts(string) == (
        runs <= most
    )


@settings(max_examples=300, derandomize=True, deadline=None)
@given(wide_sets, st.data())
def test_characters_and_runs_of_a_class_are_found_as_character_by_character(
    chars: CharSet, data: st.DataObject
) -> None:
    # strings of the set's edge characters (members beside non-members) and any others
    characters = (
        st.sampled_from(edge_characters(chars)) | st.integers(0, 0x10FFFF).map(chr)
        if chars
        else st.characters()
    )
    string = "".join(data.draw(st.lists(characters, max_size=12)))
    assert _count(string, chars) == sum(x in chars for x in string)
    assert _runs(string, chars) == sum(
        x in chars and (i == 0 or string[i - 1] not in chars) for i, x in enumerate(string)
    )
    assert bool(_run_pattern(chars).match(string)) == (
        string[:1] in chars
    )  # starts with one of them


@settings(max_examples=300, derandomize=True, deadline=None)
@given(wide_sets, st.data())
def test_a_class_piece_is_found_first_and_last_as_character_by_character(
    chars: CharSet, data: st.DataObject
) -> None:
    # the first and the last character of the class in a slice, newlines and edge characters among the others
    characters = (
        st.sampled_from([*edge_characters(chars), "\n"]) | st.integers(0, 0x10FFFF).map(chr)
        if chars
        else st.characters()
    )
    string = "".join(data.draw(st.lists(characters, max_size=12)))
    start, end = data.draw(st.integers(0, len(string))), data.draw(st.integers(0, len(string)))
    places = [i for i in range(start, end) if string[i] in chars]
    assert find_piece(string, chars, start, end, RunCache()) == (places[0] if places else -1)
    assert find_piece(string, chars, start, end, RunCache(), last=True) == (
        places[-1] if places else -1
    )


def test_the_conjunction_and_the_sequence() -> None:
    positives = ["xnativeyytribes#", "tribesanative#", "#aanativetribesb#"]
    spelled = {
        how: unparse(regex, "extended", ABC | CharSet.of("abeinrstvxy"))
        for regex, how in factor_hypotheses(positives, [], ABC)
    }
    assert list(spelled) == [
        "shared factors (native, tribes, ends #)",
        "factors in order (native, tribes | tribes, native)",
    ]
    counted = factor_hypotheses(["TugFuguugugF", "ugugugug", "a6#ugug8ug2Kmug6U"], ["ugug"], ABC)
    assert counted[0][1] == "shared factors (ugug, ug ×4)"
    letters = CharSet.of("#abcehkmnorwxy")
    ordered = factor_hypotheses(["monkeyxwrench#a", "#monkey#wrenchb"], [], letters)
    assert [how for _, how in ordered] == [
        "shared factors (monkey, wrench)",
        "factors in order (monkey, wrench)",
    ]
    assert (
        unparse(ordered[1][0], "extended", letters)
        == "[a-cehkm-orw-y#]*monkey[a-cehkm-orw-y#]*wrench[a-cehkm-orw-y#]*"
    )
    sequence = re.compile(unparse(ordered[1][0], "python", letters))
    assert sequence.fullmatch("monkeyxwrench#a") and not sequence.fullmatch("wrench#monkey#")


@settings(max_examples=200, derandomize=True, deadline=None)
@given(STRINGS, st.lists(st.text(alphabet="abc#", max_size=9), max_size=4))
def test_covering_factors_cover_every_positive_and_no_negative(
    positives: list[str], negatives: list[str]
) -> None:
    factors = covering_factors(positives, negatives)
    assert len(factors) <= 3 and all(len(w) >= 3 for w in factors)
    if factors:
        assert all(any(w in p for w in factors) for p in positives)
        assert not any(w in n for w in factors for n in negatives)


def ranked_covering(
    positives: list[str], negatives: list[str], shortest: int, ends: bool
) -> list[str]:
    """The greedy cover as first written: every factor ranked again in every round."""
    end = "\0" if ends else ""
    held: dict[str, set[int]] = {}
    for i, string in enumerate(positives):
        text = string + end
        for start, stop in itertools.combinations(range(len(text) + 1), 2):
            if shortest + len(end) <= stop - start <= 16 and text[start:stop].endswith(
                end
            ):  # the end mark counts
                held.setdefault(text[start:stop], set()).add(i)
    negative_text = "\n".join(n + end for n in negatives)
    uncovered, chosen = set(range(len(positives))), list[str]()
    while uncovered and len(chosen) < 3:
        ranked = sorted(held, key=lambda w: (len(held[w] & uncovered), len(w), w), reverse=True)
        best = next((w for w in ranked if held[w] & uncovered and w not in negative_text), None)
        if best is None:
            break
        chosen.append(best)
        uncovered -= held.pop(best)
    return [] if uncovered else [w.removesuffix(end) for w in chosen]


@settings(max_examples=300, derandomize=True, deadline=None)
@given(
    st.lists(st.text(alphabet="abc#", max_size=12), min_size=1, max_size=8),
    st.lists(st.text(alphabet="abc#", max_size=12), max_size=8),
    st.sampled_from([1, 2, 3]),
    st.booleans(),
)
def test_the_cover_chooses_as_ranking_every_round_does(
    positives: list[str], negatives: list[str], shortest: int, ends: bool
) -> None:
    assert covering_factors(positives, negatives, shortest, ends) == ranked_covering(
        positives, negatives, shortest, ends
    )


@settings(max_examples=200, derandomize=True, deadline=None)
@given(
    st.lists(st.text(alphabet="ab", max_size=24), min_size=1, max_size=30),
    st.lists(st.text(alphabet="ab", min_size=2, max_size=4), max_size=6),
    st.sampled_from([1, 2, 3]),
    st.booleans(),
)
@example(["ab" * 10], [], 3, True)  # the longest suffix: 15 characters and the end mark
@example(["ab" * 10, "b" * 20], ["ba"], 3, False)
def test_the_cover_of_many_long_positives_chooses_as_ranking_every_round_does(
    positives: list[str], negatives: list[str], shortest: int, ends: bool
) -> None:
    # two letters make factors up to the longest allowed shared by many positives, or by a few
    assert covering_factors(positives, negatives, shortest, ends) == ranked_covering(
        positives, negatives, shortest, ends
    )


def test_a_refuted_conjunction_also_asks_for_the_classes_every_positive_has() -> None:
    digits, letters = CharSet.range("0", "9"), CharSet.range("a", "z")
    universe = digits | letters | CharSet.of("W")
    positives, negatives = ["8ndWestburyln", "Westbury2"], ["xWestbury"]
    hows = [how for _, how in factor_hypotheses(positives, negatives, universe, [digits, letters])]
    assert hows[:2] == ["shared factors (Westbury)", "shared factors (Westbury, [0…] ×1)"]
    assert "shared factors (Westbury)" in [
        how for _, how in factor_hypotheses(positives, [], universe, [digits])
    ]
    assert len(factor_hypotheses(positives, [], universe, [digits])) == 1  # not refuted: no classes


def test_contains_one_of_two_words() -> None:
    positives = ["xbedrockyy", "abcyabadabadoo#", "bedrock", "qyabadabadoo"]
    negatives = ["bedroc", "abadaba", "xyz"]
    assert covering_factors(positives, negatives) == ["yabadabadoo", "bedrock"]
    letters = CharSet.of("#abcdekoqrxy")
    spelled = {
        how: unparse(regex, "extended", letters)
        for regex, how in factor_hypotheses(positives, negatives, letters)
    }
    assert (
        spelled["contains one of (yabadabadoo, bedrock)"]
        == "[a-ekoqrxy#]*(yabadabadoo|bedrock)[a-ekoqrxy#]*"
    )


def test_a_contains_a_word_target_is_learned_from_the_shared_factor() -> None:
    # Without the factor hypotheses this run spends its 100 epochs on short negatives (KB13).
    target = "[A-Za-z0-9#]*New#Zealand[A-Za-z0-9#]*"
    config = LoopConfig(
        TeacherConfig(batch=1, mode="shortest", clustered=True), Budgets(epochs=100), evaluate=False
    )
    teacher = ExactTeacher.from_regex(target, "extended", config=config.teacher_config)
    state = asyncio.run(run(Task("extended", target), symbolic(), teacher, config))
    assert state.outcome == "equivalent" and state.epoch <= 5


LETTERS = (
    CharSet.range("a", "z") | CharSet.range("A", "Z") | CharSet.range("0", "9") | CharSet.of("#")
)


def described(
    positives: list[str], negatives: list[str], shown: Sequence[CharSet] = ()
) -> dict[str, str]:
    return {
        how: unparse(regex, "extended", LETTERS)
        for regex, how in factor_hypotheses(positives, negatives, LETTERS, (), shown)
    }


def test_a_factor_inside_a_longer_one_is_counted_apart_in_a_sequence() -> None:
    # "and" twice is "sand" and one "and" more: the sequence has three pieces (KB13)
    hows = described(["xsandyandztide", "tideqandsand#", "sandandtide"], [])
    assert "factors in order (sand, and, tide | tide, and, sand)" in hows


def test_a_refuted_sequence_takes_the_characters_every_positive_has_then_the_gaps() -> None:
    hows = described(["XYXqABC#", "#zABCXYX", "XYXABCpp#r"], ["XYXABC", "ABCXYX"])
    assert "factors in order (XYX, ABC, # | #, ABC, XYX)" in hows
    gapped = described(
        ["hello1world", "xworldabcdehello", "hellopqrworldz"], ["helloworld", "hellopqrstuvworld"]
    )
    assert gapped["factors in order (hello {1,3} world | world {5,5} hello)"] == (
        "[A-Za-z0-9#]*(hello[A-Za-z0-9#]{1,3}world|world[A-Za-z0-9#]{5}hello)[A-Za-z0-9#]*"
    )
    assert "factors in order (hello {1,} world | world {5,} hello)" in gapped


def test_a_refuted_conjunction_asks_for_characters_excludes_what_negatives_hold_and_keeps_orders() -> (
    None
):
    assert "shared factors (helper), none of (little…helper)" in described(
        ["helper", "helperlittle", "ahelperb"], ["littlehelper", "littlexhelper"]
    )
    assert "shared factors (annou, irth), none of (c)" in described(
        ["annouirth", "irthannou", "annouxirth"], ["annoucirth", "irthcannou"]
    )
    either = described(
        ["xingout", "outing", "outxxing", "ingaout"],
        ["shingout", "outshing", "outclaing", "ingclout", "ing"],
    )
    assert (
        "shared factors (ing, out), none of (shing, cl)" in either
    )  # no one factor is in every negative
    assert "shared factors (black, z)" in described(
        ["blackz", "zblack", "xblackyz"], ["black", "blackx"]
    )
    ordered = described(["destcolre", "colderest", "decolstre"], ["stdecolre", "recolstde"])
    assert "shared factors (col, de, re, st), in order (col…re, de…re, de…st)" in ordered


def test_a_refuted_count_bounds_the_runs_of_a_shown_class() -> None:
    letters = CharSet.range("a", "z")
    hows = described(
        ["ab1cd2ef", "g1h", "a1b2c3d"], ["a1b2c3d4e5f", "1"], [letters, CharSet.range("0", "9")]
    )
    assert hows["shared factors ([a…] ×2), at most 4 runs of [a…]"].startswith(
        "[A-Za-z0-9#]*[a-z][A-Za-z0-9#]*[a-z][A-Za-z0-9#]*&"
    )
    assert not any(
        "runs" in how for how in described(["ab1cd2ef", "g1h", "a1b2c3d"], ["1"], [letters])
    )


def test_a_refuted_conjunction_asks_for_one_of_a_few_factors_before_a_shared_one() -> None:
    positives = ["xigynobelq", "physicsnobel", "aigbnobelnobel", "zzphysicsxnobel"]
    hows = described(positives, ["nobelig", "nobel", "anobelphysics", "aignobe"])
    assert (
        hows["shared factors (nobel), one of (physics, ig) before nobel"]
        == "[A-Za-z0-9#]*(physics|ig)[A-Za-z0-9#]*nobel[A-Za-z0-9#]*"
    )


def test_a_start_class_and_a_few_suffixes() -> None:
    hows = described(
        ["1street", "5xyavenue", "12street", "9avenueavenue"],
        ["street", "1streets", "x5avenue", "1"],
        [CharSet.range("0", "9")],
    )
    assert (
        hows["starts [0…], ends with one of (street, avenue)"]
        == "[0-9][A-Za-z0-9#]*&[A-Za-z0-9#]*(street|avenue)"
    )


def test_a_factor_held_more_than_once_is_also_proposed_alone() -> None:
    # a few positives that all start with "fu" and hold "fufu" twice by chance (KB13, one shortest counterexample)
    hows = described(
        ["fufuufu3fufufu5b", "fufugfujvfufufu", "fufufufufufu", "furvGfuQfufutfufu"], ["fufu"]
    )
    assert "shared factors (starts fu, fufu ×2, fu ×6)" in hows and "shared factors (fu ×6)" in hows


def test_after_a_shared_prefix_the_class_every_positive_ends_with() -> None:
    hows = described(
        ["Transport#One5", "Transport#OneabC7", "Transport#One0"],
        ["Transport#Onea"],
        [CharSet.range("0", "9")],
    )
    assert (
        hows["starts Transport#One, ends [0…]"] == "Transport#One[A-Za-z0-9#]*&[A-Za-z0-9#]*[0-9]"
    )


def test_classes_that_leave_no_negative_do_not_hide_the_exclusions() -> None:
    digits = CharSet.range("0", "9")
    positives = ["Fw6psandwich", "zsandwichgIpf7At3dHYao", "N13sandwichy"]
    hows = [how for _, how in factor_hypotheses(positives, ["sandwicham"], LETTERS, [digits])]
    assert (
        "shared factors (sandwich, [0…] ×1)" in hows
        and "shared factors (sandwich), none of (m)" in hows
    )


def test_an_exclusion_is_narrowed_to_the_piece_apart_from_the_shared_word_or_to_minimal_absent_factors() -> (
    None
):
    # KB13 with one shortest counterexample: the one accepted negative holds the shared word too
    hows = described(["firefliesbut", "tufireflies"], ["butterfliesfireflies"])
    assert "shared factors (fireflies), none of (butterflies)" in hows
    assert "shared factors (fireflies), none of (butterfliesfireflies)" in hows
    # "ha" and "am" are each in a positive, so "ham" is the shortest factor no positive holds
    hows = described(["Fw6psandwich", "msandwich", "sandwicha", "amsandwich"], ["sandwicham"])
    assert (
        hows["shared factors (sandwich), none of (ham)"]
        == "[A-Za-z0-9#]*sandwich[A-Za-z0-9#]*&~([A-Za-z0-9#]*ham[A-Za-z0-9#]*)"
    )


def test_a_sequence_starts_from_one_shared_factor_and_the_characters_every_positive_has() -> None:
    hows = described(["a0#Jcglot", "lot#34aB", "lot#a"], ["#alot"])
    assert (
        hows["factors in order (lot, #, a | a, #, lot)"]
        == "[A-Za-z0-9#]*(lot[A-Za-z0-9#]*#[A-Za-z0-9#]*a|a[A-Za-z0-9#]*#[A-Za-z0-9#]*lot)[A-Za-z0-9#]*"
    )


def test_as_many_characters_of_each_shown_class_as_every_positive_has() -> None:
    letters, digits = CharSet.range("a", "z"), CharSet.range("0", "9")
    hows = described(["ab1", "#ab2", "a1b2c3"], ["1"], [letters, digits])
    assert hows["shared factors ([a…] ×2)"] == "[A-Za-z0-9#]*[a-z][A-Za-z0-9#]*[a-z][A-Za-z0-9#]*"
    assert "shared factors ([a…] ×2, [0…] ×1)" in hows


def test_one_of_a_few_factors_with_what_the_negatives_holding_them_hold_excluded() -> None:
    hows = described(["xdogsm", "catsie", "Fdogs#", "zcats"], ["catsmice", "s"])
    assert (
        hows["contains one of (dogs, cats), none of (mice)"]
        == "[A-Za-z0-9#]*(dogs|cats)[A-Za-z0-9#]*&~([A-Za-z0-9#]*mice[A-Za-z0-9#]*)"
    )


def test_gaps_are_bounded_by_the_match_each_positive_needs() -> None:
    # "hellohelloworld" holds hello five characters before world (and none: refuted by "helloworld")
    hows = described(
        ["hello#world", "hello###world", "hellohelloworld", "worldabhello"],
        ["helloworld", "hello######world"],
    )
    assert "factors in order (hello {1,5} world | world {2,2} hello)" in hows


@settings(max_examples=200, derandomize=True, deadline=None)
@given(
    st.lists(st.text("abc", max_size=30), min_size=1, max_size=6),
    st.integers(1, 3),
    st.booleans(),
    st.integers(1, 6),
)
def test_frequent_factors_are_every_factor_held_that_often(
    texts: list[str], shortest: int, ends: bool, least: int
) -> None:
    """The level-by-level search finds what counting every factor of every text finds."""
    brute: dict[str, int] = {}
    for text in texts:
        held = {
            text[i:j]
            for i in range(len(text))
            for j in range(i + shortest, min(len(text), i + LONGEST_ALTERNATIVE) + 1)
            if not ends or j == len(text)
        }
        for w in held:
            brute[w] = brute.get(w, 0) + 1
    expected = {w: n for w, n in brute.items() if n >= least}
    assert dict(_frequent_factors(tuple(texts), shortest, ends, least, RunCache())) == expected
