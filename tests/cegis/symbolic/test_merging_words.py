"""Packed symbolic words checked on a DFA table (cegis.symbolic.merging.core.words through the compiled kernel):
a word is missed exactly when one of its strings gets the wrong label (brute force over every
string it stands for), and the string reported is that of a plain breadth-first reference."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from automata.core.alphabet import partition
from automata.core.dfa import DFA
from cegis.symbolic.merging.core.symbols import SymbolicWord
from cegis.symbolic.merging.core.words import PackedWords
from regexlang.charset import CharSet

SYMBOLS = 3
ALPHABET = partition(CharSet.of("abc"), [CharSet.of(c) for c in "abc"])


def reference_path(
    rows: list[list[int]], accepting: list[bool], word: SymbolicWord
) -> list[int] | None:
    """Layer by layer, each state reached first from the smallest state by a position's first
    class; the classes on the way to the smallest wrongly labeled state at the end, if any."""
    layers, states = [], {0}
    for position in word.positions:
        layer: dict[int, tuple[int, int]] = {}
        for state in sorted(states):
            for symbol in position:
                layer.setdefault(rows[state][symbol], (state, symbol))
        layers.append(layer)
        states = set(layer)
    wrong = [s for s in states if accepting[s] != word.label]
    if not wrong:
        return None
    state, path = min(wrong), []
    for layer in reversed(layers):
        state, symbol = layer[state]
        path.append(symbol)
    return path[::-1]


positions = st.lists(
    st.sampled_from(range(SYMBOLS)), min_size=1, max_size=SYMBOLS, unique=True
).map(tuple)
words = st.lists(
    st.builds(SymbolicWord, st.lists(positions, max_size=5).map(tuple), st.booleans()), max_size=6
)
tables = st.integers(1, 6).flatmap(
    lambda n: st.tuples(
        st.lists(
            st.lists(st.integers(0, n - 1), min_size=SYMBOLS, max_size=SYMBOLS),
            min_size=n,
            max_size=n,
        ),
        st.lists(st.booleans(), min_size=n, max_size=n),
    )
)


@settings(max_examples=300, derandomize=True, deadline=None)
@given(tables, words)
def test_misses_are_the_words_with_a_wrongly_labeled_string(
    table: tuple[list[list[int]], list[bool]], batch: list[SymbolicWord]
) -> None:
    rows, accepting = table
    dfa = DFA(np.array(rows, dtype=np.int32), np.array(accepting, dtype=np.bool_), 0, ALPHABET)
    missed = dict(PackedWords.pack(batch).misses(dfa))
    for index, word in enumerate(batch):
        wrong = []
        for string in itertools.product(*word.positions):
            state = 0
            for symbol in string:
                state = rows[state][symbol]
            if accepting[state] != word.label:
                wrong.append(list(string))
        assert (index in missed) == bool(wrong)
        if index in missed:
            assert missed[index] in wrong
            assert missed[index] == reference_path(rows, accepting, word)


def test_no_words_no_misses() -> None:
    dfa = DFA(np.zeros((1, SYMBOLS), dtype=np.int32), np.array([False]), 0, ALPHABET)
    assert PackedWords.pack([]).misses(dfa) == []
    assert PackedWords.pack([SymbolicWord((), True)]).misses(dfa) == [(0, [])]


@settings(max_examples=100, derandomize=True, deadline=None)
@given(st.lists(positions, max_size=6).map(tuple), st.booleans())
def test_a_word_keeps_its_classes_as_the_machine_integers_the_kernels_read(
    spelled: tuple[tuple[int, ...], ...], label: bool
) -> None:
    """The bytes a word keeps for the compiled code (joined for thousands of words a round) read
    back to its positions, whichever way the word was made."""
    made = [SymbolicWord(spelled, label)]
    if all(len(p) == 1 for p in spelled):
        made.append(SymbolicWord.literal([p[0] for p in spelled], label))
    for word in made:
        assert np.frombuffer(word.packing, dtype=np.int64).tolist() == [
            k for p in spelled for k in p
        ]
        assert np.frombuffer(word.widths, dtype=np.int64).tolist() == [len(p) for p in spelled]
        one_each = all(len(p) == 1 for p in spelled)
        assert np.frombuffer(word.spelling, dtype=np.intc).tolist() == (
            [p[0] for p in spelled] if one_each else []
        )
