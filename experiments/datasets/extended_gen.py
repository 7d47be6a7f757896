"""Extended-dialect targets, generated: words, classes and counted repeats bucketed by (#States, StarDepth).

The seed paper's Extended Regex list (60 targets) and KB13 are the benchmark's own rows, and the
symbolic learner's families were tuned on them. This module draws targets of the same cells that
nobody tuned to, as :mod:`experiments.datasets.simple_gen` does for the Simple list, in the shapes a
user writes over ``[A-Za-z0-9#]``:

* a leaf is a word of 1-3 characters of the universe (``Q7r``) or a class (``[0-9]``,
  ``[AEIOUaeiou]``), sometimes counted (``(xy){3}``, ``(a){0,2}``) or optional;
* an inner node is a union or a concatenation of two subtrees, or, while StarDepth is still owed
  and not directly under another loop, a loop: ``*``, ``+``, ``{1,}`` or ``{k,}``;
* every subtree is printed in parentheses (``((xy)+)|(Q7r)``), as a generator prints, and read
  back with the extended dialect's parser, which also gives the cell.

A target lands in its cell if the cell is in the grid and not yet full and its language (the minimal
DFA over the universe) is new; ``exclude`` drops texts of other lists. Everything random comes from
one ``random.Random(seed)``, so a grid always gives the same targets in the same order; the default
grid (#States 3-9 × StarDepth 0-2, 3 per cell: 63 targets, the size of the Extended list's grid)
takes about two seconds.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Collection

import attrs

from experiments.datasets.errors import GenerationShortfall
from experiments.datasets.task import Task, make_task
from regexlang import parse, universe

SOURCE = "extended-generated"
#: The characters words are drawn from: the extended dialect's universe.
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789#"
#: The classes a leaf may be (the classes the paper's Extended list uses).
CLASSES = ("[0-9]", "[A-Z]", "[a-z]", "[A-Za-z]", "[AEIOUaeiou]", "[A-Za-z0-9#]")


@attrs.frozen
class ExtendedGrid:
    """What to generate: ``per_cell`` targets for each #States in ``states`` and StarDepth in
    ``depths`` (inclusive), from trees of at most ``max_leaves`` leaves."""

    states: tuple[int, int] = (3, 9)
    depths: tuple[int, int] = (0, 2)
    per_cell: int = 3
    max_leaves: int = 4
    seed: int = 36
    max_attempts: int = 200_000

    def __attrs_post_init__(self) -> None:
        if not 1 <= self.states[0] <= self.states[1] or not 0 <= self.depths[0] <= self.depths[1]:
            raise ValueError(
                f"#States {self.states} and StarDepth {self.depths} must be increasing ranges"
            )
        if self.max_leaves < max(1, self.depths[1]):
            raise ValueError(f"StarDepth {self.depths[1]} needs at least {self.depths[1]} leaves")


def generate_extended(
    grid: ExtendedGrid = ExtendedGrid(), exclude: Collection[str] = ()
) -> tuple[Task, ...]:
    """The generated targets of ``grid`` whose text is not in ``exclude``, ordered by StarDepth, then
    discovery. Raises ``GenerationShortfall`` naming the cells still short after ``grid.max_attempts``
    trees per StarDepth."""
    rng = random.Random(grid.seed)
    sigma = universe("extended")
    seen: set[tuple[bytes, bytes]] = set()
    tasks: list[Task] = []
    wanted = range(grid.states[0], grid.states[1] + 1)
    for depth in range(grid.depths[0], grid.depths[1] + 1):
        filled: Counter[int] = Counter()
        for _ in range(grid.max_attempts):
            if all(filled[s] == grid.per_cell for s in wanted):
                break
            text = _tree(rng, rng.randint(max(1, depth), grid.max_leaves), depth, under_loop=False)
            if text is None or text in exclude:
                continue
            task, dfa = make_task(
                f"extended-gen-seed{grid.seed}-{len(tasks)}",
                parse(text, "extended", sigma),
                text,
                "extended",
                sigma,
                SOURCE,
            )
            key = (dfa.transitions.tobytes(), dfa.accepting.tobytes())
            cell = task.metrics
            if (
                cell.star_depth == depth
                and cell.states in wanted
                and filled[cell.states] < grid.per_cell
                and key not in seen
            ):
                seen.add(key)
                filled[cell.states] += 1
                tasks.append(task)
        else:
            missing = {
                (s, depth): grid.per_cell - filled[s] for s in wanted if filled[s] < grid.per_cell
            }
            if missing:
                raise GenerationShortfall(missing, grid.max_attempts)
    return tuple(tasks)


def _leaf(rng: random.Random) -> str:
    """A word or a class, sometimes counted or optional."""
    leaf = (
        rng.choice(CLASSES)
        if rng.random() < 0.3
        else "".join(rng.choice(LETTERS) for _ in range(rng.randint(1, 3)))
    )
    draw = rng.random()
    if draw < 0.15:
        return f"({leaf}){{{rng.randint(2, 4)}}}"
    if draw < 0.25:
        return f"({leaf})?"
    if draw < 0.33:
        least = rng.randint(0, 2)
        return f"({leaf}){{{least},{least + rng.randint(1, 3)}}}"
    return leaf


def _tree(rng: random.Random, leaves: int, depth: int, *, under_loop: bool) -> str | None:
    """The text of a random tree of ``leaves`` leaves whose loops nest ``depth`` deep at most (the
    caller keeps the targets whose StarDepth is ``depth``); None when a split leaves a side too few
    leaves for the depth it owes (the draw is dropped, as the measured set was drawn)."""
    if leaves == 1 and depth == 0:
        return _leaf(rng)
    can_split = leaves >= 2 and leaves - 1 >= max(1, depth)
    if depth > 0 and not under_loop and (not can_split or rng.random() < 0.5):
        inner = _tree(rng, leaves, depth - 1, under_loop=True)
        loop = rng.choice(["*", "+", "+", "{1,}", f"{{{rng.randint(2, 3)},}}"])
        return None if inner is None else f"({inner}){loop}"
    if not can_split:
        return None
    carrier_leaves = rng.randint(max(1, depth), leaves - 1)
    other_leaves = leaves - carrier_leaves
    other_depth = rng.randint(0, min(depth, other_leaves))
    carrier = _tree(rng, carrier_leaves, depth, under_loop=False)
    other = None if carrier is None else _tree(rng, other_leaves, other_depth, under_loop=False)
    if carrier is None or other is None:
        return None
    left, right = (carrier, other) if rng.random() < 0.5 else (other, carrier)
    return f"({left})|({right})" if rng.random() < 0.5 else f"({left})({right})"
