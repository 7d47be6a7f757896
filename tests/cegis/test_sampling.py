"""Random labeled examples: spelled with readable characters unless the config says otherwise."""

from __future__ import annotations

import re

from cegis.config import LoopConfig
from cegis.loop import initial_state
from cegis.state import Task
from oracle.exact import ExactTeacher
from oracle.examples import Example


def _initial(task: Task, config: LoopConfig) -> tuple[tuple[str, bool], ...]:
    teacher = ExactTeacher.from_regex(task.target or "", task.dialect, universe=task.universe)
    examples = initial_state(task, teacher, config).examples
    return tuple((e.string, e.label) for e in examples if isinstance(e, Example))


def test_examples_over_all_of_unicode_are_readable_and_labeled_by_the_target() -> None:
    task = Task("python", "[a-z]+dog")
    for seed in range(5):
        readable = _initial(task, LoopConfig(seed=seed))
        assert len(readable) == 8
        assert all(s.isprintable() and s.isascii() for s, _ in readable)
        assert all((re.fullmatch("[a-z]+dog", s) is not None) == label for s, label in readable)
    anything = _initial(task, LoopConfig(example_alphabet="universe"))
    assert not all(s.isascii() for s, _ in anything)  # the draw the option replaces


def test_an_alphabet_of_readable_characters_draws_as_before() -> None:
    task = Task("simple", "a (b + c)*")
    for seed in range(5):
        assert _initial(task, LoopConfig(seed=seed)) == _initial(
            task, LoopConfig(seed=seed, example_alphabet="universe")
        )


def test_the_run_record_says_which_alphabet() -> None:
    assert LoopConfig().to_json()["example_alphabet"] == "readable"
