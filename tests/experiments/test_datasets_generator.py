"""The generated Simple Regex set: deterministic for its seed, every target in the cell it claims.

Cells are recomputed apart from the code under test: StarDepth from Python's own regex parser on the
target translated to Python syntax, #States from pyformlang (the paper's library), and the language
by brute force against ``re.fullmatch`` on every short string.
"""

from __future__ import annotations

import itertools
import re
import re._parser as sre  # type: ignore[import-not-found]  # no stubs for the private parser
from collections import Counter
from typing import Any

import pytest

from automata import accepts_many, compile_regex
from experiments.datasets import GenerationShortfall, SimpleGrid, Task, bucket, generate_simple
from experiments.datasets.task import Metrics
from regexlang import CharSet
from regexlang.charset import SIMPLE_ALPHABET

DEFAULT = generate_simple()


def _python(simple_text: str) -> str:
    """The Python spelling of a generated target (letters, ``+``, ``*``, parentheses, spaces)."""
    return simple_text.replace(" ", "").replace("+", "|")


def _sre_star_depth(items: Any) -> int:
    deepest = 0
    for op, argument in items:
        if op in (sre.MAX_REPEAT, sre.MIN_REPEAT):
            _, high, inner = argument
            depth = (high == sre.MAXREPEAT) + _sre_star_depth(inner)
        elif op is sre.SUBPATTERN:
            depth = _sre_star_depth(argument[-1])
        elif op is sre.BRANCH:
            depth = max(_sre_star_depth(branch) for branch in argument[1])
        else:
            depth = 0
        deepest = max(deepest, depth)
    return deepest


def _strings(letters: str, max_len: int) -> list[str]:
    return ["".join(t) for n in range(max_len + 1) for t in itertools.product(letters, repeat=n)]


def test_the_default_grid_has_three_targets_in_every_cell() -> None:
    cells = bucket(DEFAULT)
    assert list(cells) == [Metrics(s, d) for s in range(3, 10) for d in range(5)]
    assert {len(group) for group in cells.values()} == {3}
    assert len({task.id for task in DEFAULT}) == 105
    assert {task.source for task in DEFAULT} == {"simple-generated"}


def test_same_seed_same_tasks_other_seed_other_tasks() -> None:
    grid = SimpleGrid(states=(3, 6), depths=(0, 3), per_cell=2, seed=11)
    first, again = generate_simple(grid), generate_simple(grid)
    assert first == again
    other = generate_simple(SimpleGrid(states=(3, 6), depths=(0, 3), per_cell=2, seed=12))
    assert [t.target for t in first] != [t.target for t in other]


def test_star_depth_read_by_pythons_parser_is_the_claimed_one() -> None:
    for task in DEFAULT:
        assert _sre_star_depth(sre.parse(_python(task.target))) == task.metrics.star_depth, task


def test_state_count_and_language_by_pyformlang_are_the_claimed_ones() -> None:
    pyformlang = pytest.importorskip("pyformlang.regular_expression")
    strings = _strings("abc", 5)
    for task in DEFAULT:
        minimal = pyformlang.Regex(task.target).to_epsilon_nfa().minimize()
        assert len(minimal.states) == task.metrics.states, task
        dfa = compile_regex(task.regex(), task.alphabet)
        assert [dfa.accepts(s) for s in strings] == [minimal.accepts(list(s)) for s in strings], (
            task
        )


def test_languages_agree_with_re_on_every_short_string() -> None:
    # Python's backtracking matcher is exponential on deeply nested stars; StarDepth <= 2 stays fast.
    strings = _strings("abc", 6)
    shallow = [task for task in DEFAULT if task.metrics.star_depth <= 2]
    assert len(shallow) == 63
    for task in shallow:
        dfa = compile_regex(task.regex(), task.alphabet)
        pattern = re.compile(_python(task.target))
        wrong = [s for s in strings if dfa.accepts(s) != (pattern.fullmatch(s) is not None)]
        assert wrong == [], task


def test_no_language_appears_twice() -> None:
    strings = _strings("abc", 7)
    by_signature: dict[tuple[bool, ...], list[Task]] = {}
    for task in DEFAULT:
        signature = tuple(accepts_many(compile_regex(task.regex(), task.alphabet), strings))
        by_signature.setdefault(signature, []).append(task)
    same_short_strings = [group for group in by_signature.values() if len(group) > 1]
    if same_short_strings:  # decide those exactly, with pyformlang
        pyformlang = pytest.importorskip("pyformlang.regular_expression")
        for group in same_short_strings:
            for left, right in itertools.combinations(group, 2):
                nfas = [pyformlang.Regex(t.target).to_epsilon_nfa() for t in (left, right)]
                assert not nfas[0].is_equivalent_to(nfas[1]), (left.target, right.target)


def test_alphabet_is_the_targets_letters_or_the_one_given() -> None:
    for task in DEFAULT:
        assert task.alphabet == CharSet.of(set(task.target) & set("abc"))
    fixed = generate_simple(
        SimpleGrid(states=(3, 4), depths=(0, 1), per_cell=2, alphabet=SIMPLE_ALPHABET)
    )
    assert {task.alphabet for task in fixed} == {SIMPLE_ALPHABET}
    assert [t.target for t in fixed] == [
        t.target for t in generate_simple(SimpleGrid(states=(3, 4), depths=(0, 1), per_cell=2))
    ]


def test_other_letters_and_larger_cells() -> None:
    tasks = generate_simple(
        SimpleGrid(states=(2, 12), depths=(1, 2), per_cell=2, letters="xy", seed=3)
    )
    assert Counter((t.metrics.states, t.metrics.star_depth) for t in tasks) == {
        (s, d): 2 for s in range(2, 13) for d in (1, 2)
    }
    assert set("".join(t.target for t in tasks)) <= set("xy+*() ")


def test_a_cell_no_tree_can_reach_is_reported_short() -> None:
    # A star-free language of letters is finite and lacks the empty string: two states at least.
    with pytest.raises(GenerationShortfall) as raised:
        generate_simple(SimpleGrid(states=(1, 2), depths=(0, 0), per_cell=1, max_attempts=300))
    assert raised.value.missing == {(1, 0): 1}
    assert "(#States 1, StarDepth 0): 1 short" in str(raised.value)


@pytest.mark.parametrize(
    "options",
    [
        {"states": (5, 3)},
        {"depths": (-1, 2)},
        {"depths": (0, 5), "max_leaves": 4},
        {"letters": "aa"},
        {"letters": ""},
        {"letters": "abd", "alphabet": SIMPLE_ALPHABET},
    ],
)
def test_impossible_grids_are_rejected(options: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        SimpleGrid(**options)
