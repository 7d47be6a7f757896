"""Prints with lookaheads: short, and exactly the language, by the DFA and by ``re.fullmatch``."""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest

from automata.algebra.ops import accepts_many, equivalent
from automata.building.compile import compile_regex
from automata.printing.lookahead_print import lookahead_prints
from automata.strings.sampling import sample_strings
from cegis.symbolic.passive import printed_for
from regexlang import parse
from regexlang.ast import intersection
from regexlang.charset import CharSet
from regexlang.dialects import universe
from regexlang.flavors import render

SIGMA = universe("extended")  # [A-Za-z0-9#]
PASSWORD = "([a-z0-9]{8,})&([A-Za-z0-9#]*[0-9][A-Za-z0-9#]*)&([A-Za-z0-9#]*[a-z][A-Za-z0-9#]*)"
#: How the learner answers the password rule in the extended dialect (no ``&``: its automaton's print).
LEARNED = (
    "([0-9]{7,}[a-z]|([0-9]{6}[a-z]|([0-9]{5}[a-z]|([0-9]{4}[a-z]|([0-9]{3}[a-z]|([0-9]{2}[a-z]|([0-9][a-z]|[a-z][0-9])"
    "[a-z0-9]|[a-z]{2}[0-9])[a-z0-9]|[a-z]{3}[0-9])[a-z0-9]|[a-z]{4}[0-9])[a-z0-9]|[a-z]{5}[0-9])[a-z0-9]|[a-z]{6}[0-9])"
    "[a-z0-9]|[a-z]{7,}[0-9])[a-z0-9]*"
)


def _random_strings(rng: np.random.Generator, n: int) -> list[str]:
    chars = np.array(list("abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ#"))
    return ["".join(rng.choice(chars, size=int(rng.integers(0, 14)))) for _ in range(n)]


def test_the_learned_password_rule_prints_as_two_lookaheads_that_re_agrees_with() -> None:
    tree = parse(LEARNED, "extended", SIGMA)
    dfa = compile_regex(tree, SIGMA)
    printed = printed_for(tree, "python", universe=SIGMA)
    assert printed == "(?=.*[0-9])(?=.*[a-z])[a-z0-9]{8,}" and len(printed) <= 50
    assert equivalent(dfa, compile_regex(parse(printed, "python", SIGMA), SIGMA))
    rng = np.random.default_rng(38)
    strings = _random_strings(rng, 5_000) + sample_strings(
        dfa, 5_000, rng, max_len=20, unique=False
    )
    pattern = re.compile(printed)
    assert accepts_many(dfa, strings).tolist() == [
        pattern.fullmatch(s) is not None for s in strings
    ]


def test_an_intersection_prints_as_written_too() -> None:
    tree = parse(PASSWORD, "extended", SIGMA)
    prints = {
        render(p, "python", None, SIGMA) for p in lookahead_prints(compile_regex(tree, SIGMA), tree)
    }
    assert "(?=.*[0-9])(?=.*[a-z])[a-z0-9]{8,}" in prints
    assert any(
        p.startswith("(?=[a-z0-9]{8,}\\Z)") for p in prints
    )  # a part not closed on the right ends in \Z


@pytest.mark.parametrize(
    ("extended", "expected"),
    [
        ("[a-z#]*&~([A-Za-z0-9#]*##[A-Za-z0-9#]*)", "(?!.*##)[a-z#]*"),  # no two in a row: a factor
        ("[a-z]*&~([A-Za-z0-9#]*tmp)", "(?!.*tmp\\Z)[a-z]*"),  # not ending in: a suffix
        ("[a-z]+&~(ab[A-Za-z0-9#]*)", "(?!ab)[a-z]+"),  # not starting with: a prefix
    ],
)
def test_what_the_classes_let_through_is_excluded_by_one_negative_lookahead(
    extended: str, expected: str
) -> None:
    tree = parse(extended, "extended", SIGMA)
    prints = [
        render(p, "python", None, SIGMA) for p in lookahead_prints(compile_regex(tree, SIGMA), None)
    ]
    assert prints == [expected]


def test_the_search_flavours_anchor_and_spell_their_end() -> None:
    tree = parse("[a-z]*&~([A-Za-z0-9#]*tmp)", "extended", SIGMA)
    (found,) = lookahead_prints(compile_regex(tree, SIGMA), None)
    assert render(found, "pcre", None, SIGMA) == "\\A(?!.*tmp\\z)[a-z]*\\z"
    assert render(found, "javascript", None, SIGMA) == "^(?!.*tmp$)[a-z]*$"


def test_engines_without_lookarounds_keep_the_automaton_print() -> None:
    tree = parse(PASSWORD, "extended", SIGMA)
    for flavor in ("re2", "posix"):
        printed = printed_for(tree, flavor, universe=SIGMA)
        assert "(?=" not in printed and "(?!" not in printed and len(printed) > 100


def test_over_a_universe_with_a_newline_prints_read_back_in_python() -> None:
    # Python's "." misses "\n": a class holding the universe is spelled [\s\S], and what is shown
    # agrees with re on every short string
    sigma = CharSet.of("ab\n")
    parts = ("[ab\\n]*a[ab\\n]*", "[ab\\n]{2,}")
    tree = intersection(*(parse(part, "python", sigma) for part in parts))
    dfa = compile_regex(tree, sigma)
    (found, *_) = lookahead_prints(dfa, None)
    assert render(found, "python", None, sigma).startswith("(?=[\\s\\S]*")
    shown = printed_for(tree, "python", universe=sigma)
    words = ["".join(w) for n in range(5) for w in itertools.product("ab\n", repeat=n)]
    assert [bool(re.fullmatch(shown, w)) for w in words] == accepts_many(dfa, words).tolist()


def test_a_dfa_with_many_paths_into_a_loop_is_measured_once_per_state() -> None:
    # an NL-RX-Turk target: its DFA reaches the loop of .* by exponentially many paths, each of
    # which the measure of the longest accepted text walked again before it remembered the loop
    tree = parse("(?:[AEIOUaeiou]|dog.*[A-Z].*){6,}", "python")
    not_newline = CharSet.of("\n").complement()
    assert printed_for(tree, "python", "fullmatch", not_newline) == (
        "(?:[AEIOUaeiou]|dog.*[A-Z].*){6,}"
    )
