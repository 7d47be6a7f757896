"""The exbar search: its quotient is consistent and no larger than the smallest complete DFA that
brute-force enumeration finds for the same sample; the greedy orders are never smaller."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from cegis.symbolic.merging.core.exact import smallest
from cegis.symbolic.merging.core.quotient import ACCEPT, Quotient
from cegis.symbolic.merging.core.redblue import MergeOrder, red_blue
from cegis.symbolic.merging.core.symbols import SymbolicWord

SYMBOLS = 2


def words_of(labels: dict[str, bool]) -> list[SymbolicWord]:
    return [SymbolicWord(tuple((int(c),) for c in s), label) for s, label in labels.items()]


def brute_force_minimum(labels: dict[str, bool], most: int) -> int | None:
    """States of the smallest complete DFA over {0, 1} consistent with ``labels`` (≤ ``most``)."""
    for n in range(1, most + 1):
        for table in itertools.product(range(n), repeat=n * SYMBOLS):
            for accepting in itertools.product((False, True), repeat=n):
                if all(_accepts(table, accepting, s) == label for s, label in labels.items()):
                    return n
    return None


def _accepts(table: tuple[int, ...], accepting: tuple[bool, ...], s: str) -> bool:
    """Whether the DFA of transition ``table`` (state × symbol) and ``accepting`` accepts ``s``."""
    state = 0
    for c in s:
        state = table[state * SYMBOLS + int(c)]
    return accepting[state]


def labeled_by(tree: Quotient, red: list[int], labels: dict[str, bool]) -> bool:
    """Whether the quotient (missing transitions rejecting) labels every string as given."""
    for s, label in labels.items():
        state: int | None = tree.find(0)
        for c in s:
            state = None if state is None else tree.target(state, int(c))
        accepted = state is not None and state in red and tree.label[state] == ACCEPT
        if accepted != label:
            return False
    return True


@settings(max_examples=30)
@given(st.dictionaries(st.text(alphabet="01", max_size=5), st.booleans(), min_size=1, max_size=10))
def test_exbar_is_consistent_and_minimal(labels: dict[str, bool]) -> None:
    tree, _ = Quotient.prefix_tree(words_of(labels))
    greedy = red_blue(tree, MergeOrder("edsm", sinks=False))
    assert greedy is not None
    tree = Quotient.prefix_tree(words_of(labels))[0]
    red = smallest(tree, below=len(greedy) + 1, budget=200_000, sinks=False)
    assert red is not None and len(red) <= len(greedy)
    assert labeled_by(tree, red, labels)
    minimum = brute_force_minimum(labels, 3)
    if minimum is not None:
        assert len(red) <= minimum
