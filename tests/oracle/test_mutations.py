"""String edits and probe generation (no automata: labels are checked in test_testsuite)."""

from __future__ import annotations

import numpy as np

from oracle import mutations
from oracle.probes import description_tokens, probe_strings, regex_literals, repetition_seeds
from regexlang.ast import Chars, Concat, Plus, Repeat, Star, literal, text, union
from regexlang.charset import UNICODE, CharSet


def test_edits_enumerate_one_edit_neighbours() -> None:
    assert list(mutations.deletions("abc")) == ["bc", "ac", "ab"]
    assert list(mutations.insertions("a", "xy")) == ["xa", "ya", "ax", "ay"]
    assert list(mutations.substitutions("ab", "ab")) == ["bb", "aa"]
    assert list(mutations.repetitions("ab")) == ["abab", "aab", "abb"]
    assert list(mutations.boundaries("abc")) == ["", "a", "ab", "bc", "c", "abcc"]
    assert mutations.unique(["a", "bb", "a", "ccc"], max_len=2) == ["a", "bb"]


def test_one_edit_and_random_strings_are_seeded() -> None:
    first = [mutations.one_edit("hello", "xyz", np.random.default_rng(3)) for _ in range(5)]
    again = [mutations.one_edit("hello", "xyz", np.random.default_rng(3)) for _ in range(5)]
    assert first == again
    strings = mutations.random_strings("ab", 20, 5, np.random.default_rng(1))
    assert len(strings) == 20 and all(len(s) <= 5 and set(s) <= {"a", "b"} for s in strings)


def test_readable_members_prefer_printable_ascii() -> None:
    not_digit = UNICODE - CharSet.range("0", "9")
    assert mutations.readable(not_digit)[0] == " "
    assert "\x00" not in mutations.readable(not_digit)
    assert mutations.readable(CharSet.of("é\x01")) == "é"
    pool = mutations.char_pool([CharSet.range("0", "9"), not_digit], np.random.default_rng(0))
    assert any(c.isdigit() for c in pool) and any(not c.isdigit() for c in pool)


def test_regex_literals_and_repetition_seeds() -> None:
    dot_star = Star(Chars(UNICODE))
    dogs = Concat((dot_star, Repeat(text("dog"), 2, None), dot_star))
    assert regex_literals(dogs) == ["dog"]
    assert repetition_seeds(dogs) == ["dog", "dogdog", "dogdogdog"]
    mixed = Concat((literal("x"), literal("y"), Chars(CharSet.range("0", "9")), literal("z")))
    assert regex_literals(mixed) == ["xy", "z"]
    assert repetition_seeds(Plus(union(literal("a"), literal("b")))) == ["", "a", "aa"]


def test_description_tokens() -> None:
    assert description_tokens("lines with 'dog' at least twice, dog!") == [
        "lines",
        "with",
        "dog",
        "at",
        "least",
        "twice",
    ]


def test_probe_strings_cover_every_seed_within_budget() -> None:
    probes = probe_strings(
        tokens=["dog"],
        literals=["cat"],
        examples=["xdogx"],
        pool="ab",
        rng=np.random.default_rng(0),
        limit=30,
    )
    assert len(probes) == 30 == len(set(probes))
    assert {"dog", "cat", "xdogx"} <= set(probes)
    assert any("dog" in p and "xdogx" not in p and p != "dog" for p in probes)
    again = probe_strings(
        tokens=["dog"],
        literals=["cat"],
        examples=["xdogx"],
        pool="ab",
        rng=np.random.default_rng(0),
        limit=30,
    )
    assert probes == again
