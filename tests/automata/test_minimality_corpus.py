"""Minimal DFA sizes against the seed paper's labels and against pyformlang.

``num_states`` counts the states of the minimal DFA without the dead state, as ``#States`` in
``regex_list.json``. The simple labels match that count exactly. Seven extended labels are one
more: the paper's builder counted the dead state for them, e.g. ``(A[A-Za-z0-9#]*)|(An[A-Za-z0-9#]*)``
is ``A`` then anything, two live states. Every extended label must be our count or our count + 1,
and the + 1 cases must be exactly the seven listed here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings

from automata.algebra.ops import num_states
from automata.building.compile import compile_regex, from_text
from regexlang import ast as A
from regexlang import unparse
from regexlang.charset import SIMPLE_ALPHABET
from tests.automata.reference import regexes

pyformlang = pytest.importorskip("pyformlang.regular_expression")

LABELLED_WITH_DEAD_STATE = {
    "(A[A-Za-z0-9#]*)|(An[A-Za-z0-9#]*)",
    "([A-Za-z0-9#]*z[A-Za-z0-9#]*)&~([A-Za-z0-9#]*q[A-Za-z0-9#]*)",
    "(Al[A-Za-z0-9#]*)&~([A-Za-z0-9#]*[0-9][A-Za-z0-9#]*)",
    "(([A-Za-z]+)&(how))[A-Za-z0-9#]*",
    "~([A-Za-z0-9#]*[A-Za-z0-9#]{4,}[A-Za-z0-9#]*)",
    "([A-Za-z0-9#]{5})&~([A-Za-z0-9#]*[AEIOUaeiou][A-Za-z0-9#]*)",
    "~([A-Za-z0-9#]*old[A-Za-z0-9#]*)&([A-Za-z0-9#]*ion[A-Za-z0-9#]*)",
}


def _labelled(shared_data: Path, key: str, per_cell: int) -> list[tuple[str, int]]:
    cells = json.loads((shared_data / "cegml" / "regex_list.json").read_text())[key]
    return [
        (regex, cell["#States"])
        for cell in cells
        for depth in cell["regex_list"]
        for regex in depth["regex_list"][:per_cell]
    ]


def test_simple_labels_are_exact(shared_data: Path) -> None:
    labelled = _labelled(shared_data, "simplyrx", per_cell=5)
    assert len(labelled) == 175
    wrong = [(r, n, num_states(from_text(r, "simple"))) for r, n in labelled]
    assert [w for w in wrong if w[1] != w[2]] == []


def test_extended_labels_are_our_count_or_count_plus_dead_state(shared_data: Path) -> None:
    labelled = _labelled(shared_data, "extrx", per_cell=3)
    assert len(labelled) == 60
    plus_one = set()
    for regex, label in labelled:
        count = num_states(from_text(regex, "extended"))
        assert label in (count, count + 1), (regex, label, count)
        if label == count + 1:
            plus_one.add(regex)
    assert plus_one == LABELLED_WITH_DEAD_STATE


def _pyformlang_size(regex: A.Regex) -> int:
    text = unparse(regex, "simple")
    return len(pyformlang.Regex(text).to_epsilon_nfa().minimize().states)


@settings(max_examples=150)
@given(regexes(max_leaves=7).filter(lambda r: "EmptySet" not in repr(r)))
def test_sizes_match_pyformlang_on_random_simple_regexes(regex: A.Regex) -> None:
    assert num_states(compile_regex(regex, SIMPLE_ALPHABET)) == _pyformlang_size(regex)
