"""The Simple Regex benchmark, generated: random syntax trees bucketed by (#States, StarDepth).

Appendix C of the seed paper builds its Simple Regex set by sampling syntax trees over union,
concatenation and Kleene star under a size and a star-depth budget, collapsing duplicated stars
(``(a*)*`` is written ``a*``), printing the trees as regexes and keeping a few per complexity cell.
This module does the same, built in, so the benchmark needs no download:

* For each StarDepth ``d`` of the grid, a tree with exactly ``d`` nested stars and a number of
  leaves (letters) drawn uniformly up to ``max_leaves`` is sampled top-down. Every node decides
  between a star (when depth is still owed) and a union or concatenation whose leaves are split at
  random, one side carrying the owed depth and the other any depth its leaves allow. A star never
  sits directly under a star, so the collapse of Appendix C is built in rather than applied after,
  and the StarDepth asked for is the StarDepth printed.
* The tree is compiled to its canonical minimal DFA over the generator's letters; that DFA gives
  #States and is the language's identity, so no language appears twice in the set, whatever its
  spelling or cell.
* A tree lands in its cell if the cell is in the grid and not yet full; sampling at that depth
  stops when every cell of the row is full, or fails with :class:`GenerationShortfall` naming the
  cells still short after ``max_attempts`` trees.

Everything random comes from one ``numpy.random.Generator`` seeded by ``seed``, so a grid and a
seed always give the same tasks in the same order. The default grid (#States 3–9 × StarDepth 0–4,
3 per cell, the 105 targets of the paper's runs) samples about 400–700 trees and takes half a second
on a loaded 2-core machine, plus a second in a fresh process to load the compiled automata kernels.
"""

from __future__ import annotations

from collections import Counter

import attrs
import numpy as np

from automata import compile_regex
from experiments.datasets.errors import GenerationShortfall
from experiments.datasets.task import Metrics, Task, make_task, measure, own_letters
from regexlang import CharSet, unparse
from regexlang.ast import Regex, Star, concat, literal, union

SOURCE = "simple-generated"


@attrs.frozen
class SimpleGrid:
    """What to generate: ``per_cell`` targets for each #States in ``states`` and StarDepth in ``depths``.

    Both ranges are inclusive. ``alphabet`` is the alphabet every task is learned over; None gives
    each target the letters it uses, as the paper's code does.
    """

    states: tuple[int, int] = (3, 9)
    depths: tuple[int, int] = (0, 4)
    per_cell: int = 3
    letters: str = "abc"
    max_leaves: int = 16
    seed: int = 0
    max_attempts: int = 200_000
    alphabet: CharSet | None = None

    def __attrs_post_init__(self) -> None:
        if not 1 <= self.states[0] <= self.states[1]:
            raise ValueError(
                f"#States range {self.states} must be increasing and start at 1 or more"
            )
        if not 0 <= self.depths[0] <= self.depths[1]:
            raise ValueError(
                f"StarDepth range {self.depths} must be increasing and start at 0 or more"
            )
        if self.max_leaves < max(1, self.depths[1]):
            raise ValueError(f"StarDepth {self.depths[1]} needs at least {self.depths[1]} leaves")
        if not self.letters or len(set(self.letters)) != len(self.letters):
            raise ValueError(f"letters {self.letters!r} must be distinct and not empty")
        if self.alphabet is not None and not CharSet.of(self.letters).issubset(self.alphabet):
            raise ValueError(f"alphabet {self.alphabet} must contain the letters {self.letters!r}")


def generate_simple(grid: SimpleGrid = SimpleGrid()) -> tuple[Task, ...]:
    """The generated Simple Regex tasks of ``grid``, ordered by StarDepth, then #States, then discovery.

    Raises ``GenerationShortfall`` when a cell cannot be filled within ``grid.max_attempts`` trees
    per StarDepth.
    """
    rng = np.random.default_rng(grid.seed)
    letters = CharSet.of(grid.letters)
    columns = [
        CharSet.of(letter) for letter in grid.letters
    ]  # one shared alphabet: canonical DFAs compare
    seen: set[tuple[bytes, bytes]] = set()
    found: list[tuple[Metrics, Regex]] = []
    wanted_states = range(grid.states[0], grid.states[1] + 1)
    for depth in range(grid.depths[0], grid.depths[1] + 1):
        filled: Counter[int] = Counter()
        attempts = 0
        while any(filled[s] < grid.per_cell for s in wanted_states):
            if attempts == grid.max_attempts:
                missing = {
                    (s, depth): grid.per_cell - filled[s]
                    for s in wanted_states
                    if filled[s] < grid.per_cell
                }
                raise GenerationShortfall(missing, attempts)
            attempts += 1
            leaves = int(rng.integers(_least_leaves(depth, under_star=False), grid.max_leaves + 1))
            tree = _tree(rng, grid.letters, leaves, depth, under_star=False)
            dfa = compile_regex(tree, letters, extra_sets=columns)
            cell = measure(tree, dfa)
            key = (dfa.transitions.tobytes(), dfa.accepting.tobytes())
            if (
                cell.states in wanted_states
                and filled[cell.states] < grid.per_cell
                and key not in seen
            ):
                seen.add(key)
                filled[cell.states] += 1
                found.append((cell, tree))
    return tuple(
        _task(tree, cell, index, grid)
        for index, (cell, tree) in enumerate(sorted(found, key=_cell_order))
    )


def _cell_order(item: tuple[Metrics, Regex]) -> tuple[int, int]:
    return item[0].star_depth, item[0].states


def _task(tree: Regex, cell: Metrics, index: int, grid: SimpleGrid) -> Task:
    alphabet = own_letters(tree) if grid.alphabet is None else grid.alphabet
    text = unparse(tree, "simple", CharSet.of(grid.letters))
    task_id = f"simple-s{cell.states}-d{cell.star_depth}-seed{grid.seed}-{index}"
    return make_task(task_id, tree, text, "simple", alphabet, SOURCE)[0]


def _least_leaves(depth: int, *, under_star: bool) -> int:
    """The fewest letters a tree of exactly ``depth`` nested stars needs (``(a* b)*`` for 2).

    Under a star the root cannot be a star itself, so a tree with stars needs one more letter.
    """
    if depth == 0:
        return 1
    return depth + 1 if under_star else depth


def _tree(
    rng: np.random.Generator, letters: str, leaves: int, depth: int, *, under_star: bool
) -> Regex:
    """A random tree with exactly ``leaves`` letters and StarDepth exactly ``depth``.

    The caller guarantees ``leaves >= _least_leaves(depth, under_star=under_star)``.
    """
    if leaves == 1:
        letter = literal(letters[int(rng.integers(len(letters)))])
        return Star(letter) if depth else letter
    can_split = leaves - 1 >= _least_leaves(depth, under_star=False)
    can_star = depth > 0 and not under_star
    if can_star and (not can_split or rng.random() < 0.5):
        return Star(_tree(rng, letters, leaves, depth - 1, under_star=True))
    carrier_leaves = int(rng.integers(_least_leaves(depth, under_star=False), leaves))
    other_leaves = leaves - carrier_leaves
    other_depth = int(rng.integers(0, min(depth, other_leaves) + 1))
    carrier = _tree(rng, letters, carrier_leaves, depth, under_star=False)
    other = _tree(rng, letters, other_leaves, other_depth, under_star=False)
    left, right = (carrier, other) if rng.random() < 0.5 else (other, carrier)
    return union(left, right) if rng.random() < 0.5 else concat(left, right)
