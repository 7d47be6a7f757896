"""``shortest`` against the set-based Python listing it replaced, against brute force over every
character, in both kernel forms, and (when interegular is installed) against interegular's listing."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from automata.algebra import ops
from automata.building.compile import from_text
from automata.core.dfa import DFA, coreachable
from automata.jit import _jit
from automata.strings.sampling import shortest
from regexlang.charset import UNICODE, CharSet
from tests.automata.reference import strings_up_to
from tests.automata.test_counting import acceptor, dfa_from_rows, dfas

# --- the listing before the kernel (commit 9c81ae7), kept as the reference -----------------------


def shortest_by_sets(dfa: DFA, k: int, max_len: int | None = None) -> list[str]:
    alphabet = dfa.alphabet
    order = sorted(range(len(alphabet)), key=alphabet.representative)
    chars = [alphabet.representative(c) for c in order]
    rows = dfa.transitions[:, order].tolist()
    accepting = dfa.accepting.tolist()
    live = coreachable(dfa).tolist()
    layers: list[list[int]] = []
    layer = [dfa.start] if live[dfa.start] else []
    out: list[str] = []
    while len(out) < k and layer and (max_len is None or len(layers) <= max_len):
        layers.append(layer)
        if any(accepting[state] for state in layer):
            viable = _viable(layers, rows, accepting)
            out.extend(itertools.islice(_strings(dfa.start, viable, rows, chars), k - len(out)))
        layer = [target for target in {t for state in layer for t in rows[state]} if live[target]]
    return out


def _viable(
    layers: list[list[int]], rows: list[list[int]], accepting: list[bool]
) -> list[set[int]]:
    ahead = {state for state in layers[-1] if accepting[state]}
    viable = [ahead]
    for layer in reversed(layers[:-1]):
        ahead = {state for state in layer if not ahead.isdisjoint(rows[state])}
        viable.append(ahead)
    viable.reverse()
    return viable


def _strings(
    start: int, viable: list[set[int]], rows: list[list[int]], chars: list[str]
) -> Iterator[str]:
    length = len(viable) - 1
    if start not in viable[0]:
        return
    prefix: list[str] = []
    stack = [(start, 0)]
    while stack:
        state, cls = stack[-1]
        if len(stack) > length:
            yield "".join(prefix)
        else:
            row, ahead = rows[state], viable[len(stack)]
            while cls < len(row) and row[cls] not in ahead:
                cls += 1
            if cls < len(row):
                stack[-1] = (state, cls + 1)
                prefix.append(chars[cls])
                stack.append((row[cls], 0))
                continue
        stack.pop()
        if prefix and len(prefix) >= len(stack):
            prefix.pop()


# --- tests ---------------------------------------------------------------------------------------

_FORMS = ("python", "compiled")


@pytest.mark.parametrize("form", _FORMS)
@settings(max_examples=150)
@given(dfas(max_states=7), st.integers(0, 300), st.sampled_from([None, 0, 1, 3, 6]))
def test_shortest_is_the_set_based_listing(
    form: str, dfa: DFA, k: int, max_len: int | None
) -> None:
    with _jit.forced(form):  # type: ignore[arg-type]
        assert shortest(dfa, k, max_len=max_len) == shortest_by_sets(dfa, k, max_len)


@pytest.mark.parametrize("form", _FORMS)
@settings(max_examples=100)
@given(dfas(max_states=5), st.integers(1, 40))
def test_characters_spelling_is_shortlex_over_every_character(form: str, dfa: DFA, k: int) -> None:
    universe = "".join(dfa.alphabet.universe)
    expected = [s for s in strings_up_to(universe, 4) if acceptor(dfa)(s)][:k]
    with _jit.forced(form):  # type: ignore[arg-type]
        assert shortest(dfa, k, max_len=4, spelling="characters") == expected


def test_a_listing_over_all_of_unicode_spells_every_character() -> None:
    # No code point is left for a separator: the strings are cut by their lengths instead.
    anything = dfa_from_rows([[1], [1]], [False, True], [UNICODE])
    assert shortest(anything, 3, spelling="characters") == ["\x00", "\x01", "\x02"]
    rest = UNICODE - CharSet.of("a")
    one_then_any = dfa_from_rows([[1, 2], [1, 1], [2, 2]], [False, True, False], ["a", rest])
    assert shortest(one_then_any, 4, spelling="characters") == ["a", "a\x00", "a\x01", "a\x02"]
    assert shortest(one_then_any, 2) == ["a", "a\x00"]


_CASES = [
    ("(a + b)* c", "(a + c)* c", "simple"),
    ("a* b a*", "a* c a*", "simple"),
    ("(a b* + c)*", "(a b + c)*", "simple"),
    ("[A-Za-z]{2}", "[A-Za-z]{3}", "extended"),
    ("[A-Z][A-Za-z0-9]", "[A-Z][A-Za-z0-9]*", "extended"),
    ("x[A-Za-z]{2}", "x[A-Z]{2}", "extended"),
]


@pytest.mark.parametrize(("text", "mutant", "dialect"), _CASES)
def test_the_listing_has_the_lengths_of_interegulars(text: str, mutant: str, dialect: str) -> None:
    """The bench's "250 shortest" rows compare like with like: interegular's ``strings()`` lists
    every character too, so the first 250 have the same lengths as ours (the order within a length
    differs: it sorts by transition first)."""
    interegular = pytest.importorskip("interegular")
    from experiments.bench.peers import _re_spelling

    ours = shortest(
        ops.symmetric_difference(from_text(text, dialect), from_text(mutant, dialect)),  # type: ignore[arg-type]
        250,
        spelling="characters",
    )
    fsms = [
        interegular.parse_pattern(_re_spelling(t, dialect)).to_fsm().reduce()  # type: ignore[arg-type]
        for t in (text, mutant)
    ]
    theirs = list(itertools.islice(fsms[0].symmetric_difference(fsms[1]).strings(), 250))
    assert len(ours) == 250
    assert Counter(map(len, ours)) == Counter(map(len, theirs))
