"""Languages derived from a DFA for the readable printer, against their definitions on all short strings.

Each construction of :mod:`automata.printing.structure` (and the least rest of :mod:`automata.printing.counted`) is
compared with a brute-force reading of what it should accept, over every string up to
:data:`LENGTH` characters: cores by their proper prefixes, suffixes and factors, primes by their
splits into two non-empty strings of the language.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from automata.building.compile import compile_regex, from_text
from automata.core.dfa import DFA
from automata.jit import _jit
from automata.printing import counted, structure
from automata.printing._subsets import WORD_BITS
from automata.printing.structure import closures, core
from regexlang import ast as A
from regexlang.charset import CharSet
from tests.automata.reference import regexes, strings_up_to
from tests.automata.test_counted import counted_concatenations
from tests.automata.test_counting import acceptor

CHARS = "abc"
UNIVERSE = CharSet.of(CHARS)
SIGMA = A.Star(A.Chars(UNIVERSE))
LENGTH = 6
STRINGS = list(strings_up_to(CHARS, LENGTH))


def proper_parts(word: str, kind: str) -> list[str]:
    """The proper prefixes, suffixes or factors of ``word`` (the empty string among them)."""
    n = len(word)
    if kind == "prefix":
        return [word[:j] for j in range(n)]
    if kind == "suffix":
        return [word[i:] for i in range(1, n + 1)]
    return [word[i:j] for i in range(n + 1) for j in range(i, n + 1) if (i, j) != (0, n)]


def in_core(word: str, kind: str, language: set[str]) -> bool:
    """Whether ``word`` is in the ``kind`` core of ``language`` (as far as strings up to LENGTH tell)."""
    if word not in language:
        return False
    if kind == "prime":
        return word != "" and not any(
            word[:i] in language and word[i:] in language for i in range(1, len(word))
        )
    return not any(part in language for part in proper_parts(word, kind))


def accepted(dfa: DFA) -> set[str]:
    accepts = acceptor(dfa)
    return {s for s in STRINGS if accepts(s)}


@st.composite
def languages(draw: st.DrawFn) -> tuple[DFA, str]:
    """A minimal DFA and a kind of core its language allows: prefix and suffix cores and primes of
    any language; factor cores of languages closed on both sides (``Σ*RΣ*``), as the printer asks."""
    kind = draw(st.sampled_from(["factor", "suffix", "prefix", "prime"]))
    regex = draw(regexes(CHARS, max_leaves=5))
    if kind == "factor":
        regex = A.concat(SIGMA, regex, SIGMA)
    return compile_regex(regex, UNIVERSE), kind


@settings(max_examples=300)
@given(languages())
def test_cores_and_primes_accept_what_their_definitions_say(case: tuple[DFA, str]) -> None:
    dfa, kind = case
    found = core(dfa, kind)
    assert found is not None
    language = accepted(dfa)
    assert accepted(found) == {s for s in STRINGS if in_core(s, kind, language)}


@pytest.mark.parametrize(
    ("text", "kind", "expected"),
    [
        ("[abc]*ab[abc]*", "factor", "ab"),
        ("[abc]*(ab|b)", "suffix", "b"),
        ("a[abc]*", "prefix", "a"),
        ("(ab|abab|c)*", "prime", "ab|c"),
        ("(a|aa|aaa)(a|aa|aaa)*", "prime", "a"),
    ],
)
def test_known_cores(text: str, kind: str, expected: str) -> None:
    found = core(from_text(text, "extended"), kind)
    assert found is not None
    assert accepted(found) == accepted(from_text(expected, "extended"))


@pytest.mark.parametrize("mode", ["python", "compiled"])
@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("[abc]*a[abc]{4}c[abc]*", "factor"),
        ("[abc]*a[abc]{4}", "suffix"),
        ("[abc]*a[abc]{4}", "prefix"),
        ("[abc]*a[abc]{4}", "prime"),
    ],
)
def test_sets_of_more_than_one_word(text: str, kind: str, mode: _jit.Mode) -> None:
    dfa = from_text(text, "extended")
    assert 3 * dfa.n_states > WORD_BITS  # the runs and the flagged run take two words
    with _jit.forced(mode):
        found = core(dfa, kind)
    assert found is not None
    language = accepted(dfa)
    assert accepted(found) == {s for s in STRINGS if in_core(s, kind, language)}


def test_a_construction_past_the_state_limit_is_none(monkeypatch: pytest.MonkeyPatch) -> None:
    dfa = from_text(
        "[abc]*(a[abc]{3}|b[abc]{2})", "extended"
    )  # its suffix core tracks which of many runs are alive
    assert core(dfa, "suffix") is not None
    monkeypatch.setattr(structure, "STATE_LIMIT", 4)
    assert core(dfa, "suffix") is None


@settings(max_examples=200)
@given(regexes(CHARS, max_leaves=5), st.sampled_from(["", "left", "right", "both"]))
def test_closures_hold_on_every_short_string(regex: A.Regex, sides: str) -> None:
    parts = [SIGMA] * (sides in ("left", "both")) + [regex] + [SIGMA] * (sides in ("right", "both"))
    dfa = compile_regex(A.concat(*parts), UNIVERSE)
    closed = closures(dfa)
    language = accepted(dfa)
    shorter = [s for s in STRINGS if len(s) < LENGTH]
    halves = [s for s in language if 2 * len(s) <= LENGTH]
    by_side = {
        "right": all(s + c in language for s in shorter if s in language for c in CHARS),
        "left": all(c + s in language for s in shorter if s in language for c in CHARS),
        "concatenation": all(s + t in language for s in halves for t in halves),
    }
    for side, holds in by_side.items():
        if side in closed:
            assert holds
    if sides in ("right", "both"):
        assert "right" in closed
    if (
        sides in ("left", "both") and language
    ):  # the empty language has no live state to read it from
        assert "left" in closed


def test_sets_without_an_alive_bit_are_one_dead_set(monkeypatch: pytest.MonkeyPatch) -> None:
    # bit 0 lives on "a" only; bits 1..3 count round on any character: on "b" every set dies
    like = from_text("a|b", "extended")
    n, a = len(like.alphabet), like.alphabet.class_of("a")
    images = [[int(c == a) for c in range(n)], [4] * n, [8] * n, [2] * n]
    monkeypatch.setattr(
        structure, "STATE_LIMIT", 4
    )  # the three sets reached by "a"s and the dead one
    found = structure.explore(0b11, images, lambda bits: bits == 0b11, like, alive=1)
    assert (
        found is not None and found.accepts("") and found.accepts("aaa") and not found.accepts("ab")
    )
    assert (
        structure.explore(0b11, images, lambda bits: bits == 0b11, like) is None
    )  # {1}, {2}, {3} are kept apart


def in_least_rest(
    word: str, dfa: DFA, classes: tuple[int, ...], counts: counted.Counts, rest: int
) -> bool:
    """Whether ``word`` is in the least rest before ``C^I`` (:func:`automata.printing.counted._needed`), read
    off the word: a prefix of a string of the language, reaching ``rest``, after which a run of
    ``C`` of some length ``i`` in ``I`` can end a string of the language, with no run of ``C``
    since an earlier split at ``rest`` that would join it to a length in ``I``."""
    table = counted._Table(dfa)
    rows, column = table.rows, dfa.alphabet.class_of
    states = [dfa.start]
    for char in word:
        states.append(rows[states[-1]][column(char)])
    if not all(table.live[q] for q in states[1:]) or not rest >> states[-1] & 1:
        return False
    low, high, optional = counts
    cap, _, wanted = counted._lengths(counts)
    runs = [
        j
        for j in range(1, len(word) + 1)
        if all(column(c) in classes for c in word[-j:]) and rest >> states[-1 - j] & 1
    ]
    pending = sum({1 << min(j, cap) for j in runs if j <= cap or high is None})
    ends = [
        (i, table.at(classes, i, every=False))
        for i in range(low, table.top(classes, low, high, every=False) + 1)
    ]
    ends += [(0, table.final)] * optional
    return any(
        ending >> states[-1] & 1 and not pending & counted._joining(i, counts, wanted)
        for i, ending in ends
    )


@settings(max_examples=80)
@given(counted_concatenations())
def test_the_least_rest_holds_what_every_short_string_says(regex: A.Regex) -> None:
    assert_least_rests(compile_regex(regex, UNIVERSE))


@pytest.mark.parametrize("mode", ["python", "compiled"])
def test_the_least_rest_of_sets_of_more_than_one_word(mode: _jit.Mode) -> None:
    dfa = from_text("[abc]*ab[abc]{4}c{2}", "extended")
    assert 2 * dfa.n_states > WORD_BITS
    with _jit.forced(mode):
        assert assert_least_rests(dfa) > 0


def assert_least_rests(dfa: DFA) -> int:
    """Checks every least rest before the counted classes found at the end of ``dfa``'s language; how many."""
    checked = 0
    table = counted._Table(dfa)
    classes = table.last()
    for counts in table.counts(classes, counted._paired(table, table)) if classes else []:
        found = counted._longest(table, table, classes, counts)
        if found is None:
            continue
        needed = counted._needed(table, table, classes, *found, dfa)
        assert needed is not None
        expected = {s for s in STRINGS if in_least_rest(s, dfa, classes, found[0], found[1])}
        assert accepted(needed) == expected
        checked += 1
    return checked
