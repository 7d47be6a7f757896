"""The generated Extended targets: deterministic for their seed, one language each, every cell of the
grid filled, and each target's language the one Python's ``re`` reads from its text (brute force on
the short strings over its own characters and one of each class)."""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter

import pytest

from automata import accepts_many, compile_regex
from experiments.datasets import GenerationShortfall, Task
from experiments.datasets.extended_gen import ExtendedGrid, generate_extended
from regexlang import universe

TASKS = generate_extended()
#: A character of each class a leaf may be (a digit, capitals and lower case, vowels or not, '#').
PROBES = "0A a E e #".replace(" ", "")


def test_the_default_grid_is_filled_once_per_language_and_drawn_the_same_each_time() -> None:
    assert generate_extended() == TASKS and len(TASKS) == 63
    cells = Counter((t.metrics.states, t.metrics.star_depth) for t in TASKS)
    assert cells == {(states, depth): 3 for states in range(3, 10) for depth in range(3)}
    sigma = universe("extended")
    languages = {
        (d.transitions.tobytes(), d.accepting.tobytes())
        for d in (compile_regex(t.regex(), sigma) for t in TASKS)
    }
    assert len(languages) == len(TASKS) and all(
        t.dialect == "extended" and t.alphabet == sigma for t in TASKS
    )


@pytest.mark.parametrize("task", TASKS[::4], ids=lambda t: t.target)
def test_a_target_means_what_python_reads_in_its_text(task: Task) -> None:
    chars = sorted(set(re.sub(r"\[[^]]*\]|\{[^}]*\}|[()|?*+]", "", task.target)) | set(PROBES))
    rng = random.Random(0)
    strings = ["".join(s) for n in range(4) for s in itertools.product(chars, repeat=n)]
    strings += ["".join(rng.choice(chars) for _ in range(rng.randint(4, 12))) for _ in range(300)]
    dfa = compile_regex(task.regex(), task.alphabet)
    python = re.compile(task.target)
    assert [bool(x) for x in accepts_many(dfa, strings)] == [
        python.fullmatch(s) is not None for s in strings
    ]


def test_excluded_texts_are_not_drawn_and_an_impossible_grid_says_which_cells_are_short() -> None:
    first = TASKS[0].target
    assert first not in {t.target for t in generate_extended(exclude={first})}
    with pytest.raises(GenerationShortfall) as raised:
        generate_extended(ExtendedGrid(states=(40, 40), depths=(0, 0), max_attempts=50))
    assert raised.value.missing == {(40, 0): 3}
