"""The data term read along each positive's path (:mod:`cegis.symbolic.merging.rounds.paths`):
checked against sums written by hand and against Kraft's equality over every string of a finite
language, and shown to rank a record that generalizes above a loose free field."""

from __future__ import annotations

import itertools
import math
import re

import pytest

from automata import compile_regex
from automata.core.minimize import minimize
from cegis.symbolic.merging.core.run_cache import RunCache
from cegis.symbolic.merging.rounds.paths import path_bits
from cegis.symbolic.merging.rounds.scoring import score
from regexlang import CharSet, parse

LETTERS = CharSet.range("a", "z") | CharSet.range("0", "9") | CharSet.of(" -")


def automaton(text: str, universe: CharSet = LETTERS):  # type: ignore[no-untyped-def]
    return minimize(compile_regex(parse(text, "python", universe), universe))


def test_a_literal_costs_nothing_and_a_class_its_size() -> None:
    assert path_bits(automaton("ab[0-9]"), ["ab5"]) == pytest.approx(math.log2(10))
    # ``[a-z]+``: the first letter one of 26, each later step one of 26 letters or the end
    assert path_bits(automaton("[a-z]+"), ["abc"]) == pytest.approx(
        math.log2(26) + 3 * math.log2(27)
    )


@pytest.mark.parametrize(
    ("text", "chars", "longest"),
    [
        ("(?:ab|c)[0-9]?", "abc0123456789", 3),
        ("[a-c]{1,3}-(?:x|yz)", "abc-xyz", 6),
        ("a?b?c?", "abc", 3),
    ],
)
def test_the_paths_of_a_finite_language_fill_the_code(text: str, chars: str, longest: int) -> None:
    # Kraft's equality: a minimal automaton's path code names every string of a finite language
    # with no bit to spare (its strings enumerated over the characters it uses, matched by ``re``).
    dfa = automaton(text)
    pattern = re.compile(text)
    strings = [
        "".join(letters)
        for n in range(longest + 1)
        for letters in itertools.product(chars, repeat=n)
        if pattern.fullmatch("".join(letters))
    ]
    assert sum(2 ** -path_bits(dfa, [s]) for s in strings) == pytest.approx(1.0)


def test_a_record_with_a_hex_field_outscores_one_free_field() -> None:
    # Named among the strings of its length, each line costs the record its widest field's bits
    # per character, hex digits too, and the loose field of the classes the lines show won by
    # four bits; along their paths the hex digits cost four bits each, and the record wins.
    universe = CharSet([(0x20, 0x7E)])
    lines = [
        f'{head} "{agent}" id={trace}'
        for head, agent, trace in (
            ("12.7.33.1", "curl/8.6.0", "9f" * 60),
            ("4.250.3.18", "Wget/1.21 (linux-gnu)", "0a1b" * 40),
            ("131.5.77.9", "Mozilla/5.0 (X11; Linux x86_64)", "c3d2e1" * 25),
        )
    ]
    record = r'[0-9]{1,3}(?:\.[0-9]{1,3}){3} "[^"]+" id=[0-9a-f]+'
    loose = r'[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+ [ "()./0-9;=A-Za-z_-]+'  # the classes shown
    assert all(re.fullmatch(record, s) and re.fullmatch(loose, s) for s in lines)
    written = {
        text: score(automaton(text, universe), lines, RunCache(), None, True)[0]
        for text in (record, loose)
    }
    assert written[record] < written[loose]
    assert path_bits(automaton(record, universe), lines) < path_bits(
        automaton(loose, universe), lines
    )
