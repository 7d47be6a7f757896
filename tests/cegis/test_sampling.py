"""Random labeled examples: spelled with readable characters unless the config says otherwise."""

from __future__ import annotations

import re

import numpy as np
import pytest

from automata import Alphabet, from_text, sample_strings
from automata.algebra.ops import complement
from automata.core.dfa import DFA
from cegis.config import LoopConfig
from cegis.loop import initial_state
from cegis.sampling import TargetSampler, from_target, readably_spelled, rng_for
from cegis.state import Task
from oracle.exact import ExactTeacher
from oracle.examples import Example
from oracle.mutations import readable
from regexlang.dialects import Dialect


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


def _spelled_one_by_one(string: str, alphabet: Alphabet) -> str:
    """The speller as it was written per string: each character's class looked up alone."""
    out = []
    for char in string:
        members = readable(alphabet.classes[alphabet.class_of(char)])
        out.append(char if char in members else members[ord(char) % len(members)])
    return "".join(out)


@pytest.mark.parametrize("pattern", [".*dog.*[A-Z].*", "[^ab]*a.{3}", "(?:[a-z]+[0-9]){2,}", "é?"])
def test_strings_are_spelled_together_as_each_one_alone(pattern: str) -> None:
    dfa = from_text(pattern, "python")
    strings = sample_strings(dfa, 300, np.random.default_rng(7), max_len=12) + ["", ""]
    spelled = readably_spelled(strings, dfa.alphabet)
    assert spelled == [_spelled_one_by_one(s, dfa.alphabet) for s in strings]
    # a class of all of Unicode draws unreadable characters; [a-z], [0-9] and é are kept
    assert any(a != b for a, b in zip(spelled, strings)) == ("." in pattern or "^" in pattern)
    assert readably_spelled([], dfa.alphabet) == []


def test_spelling_many_strings_at_once_spells_each_as_alone() -> None:
    dfa = from_text(r"[a-z]+\d{2}\W|.é", "python")
    strings = sample_strings(dfa, 60, np.random.default_rng(3), max_len=12, unique=False)
    strings += sample_strings(complement(dfa), 60, np.random.default_rng(4), max_len=12)
    strings += ["", "\ud800x", "\U00058457"]
    assert not all(s.isascii() for s in strings)  # some are spelled anew
    assert readably_spelled(strings, dfa.alphabet) == [
        _spelled_one_by_one(s, dfa.alphabet) for s in strings
    ]


@pytest.mark.parametrize(
    ("dialect", "pattern"), [("simple", "a (b + c)*"), ("python", "[a-z]+dog|é+")]
)
def test_a_kept_target_sampler_draws_what_fresh_draws_do(dialect: Dialect, pattern: str) -> None:
    """A run's sampler, drawing epoch after epoch, gives each epoch what from_target gives it."""
    target = from_text(pattern, dialect)
    kept = TargetSampler(target)
    have: set[str] = set()
    for epoch in range(6):
        fresh = from_target(target, 8, rng_for(3, epoch), max_len=12, exclude=frozenset(have))
        again = kept.examples(8, rng_for(3, epoch), max_len=12, exclude=frozenset(have))
        assert again == fresh
        have.update(e.string for e in fresh)
    assert len(have) >= 40


@pytest.mark.parametrize(
    ("dialect", "pattern"), [("simple", "a (b + c)*"), ("python", "[ab]{0,3}"), ("python", ".*x")]
)
def test_examples_are_the_first_new_strings_of_one_whole_draw(
    dialect: Dialect, pattern: str
) -> None:
    """Drawing only as far as needed gives what one draw of ``want + |exclude|`` strings, filtered,
    gives; ``[ab]{0,3}`` runs out of new strings, so both sides fill in for each other."""
    target = from_text(pattern, dialect)
    sides = {True: target, False: complement(target)}
    kept = TargetSampler(target)
    have: set[str] = set()
    for epoch in range(8):
        exclude, reference = frozenset(have), rng_for(5, epoch)
        pos = _first_new(sides[True], 4 + len(exclude), 4, reference, exclude)
        neg = _first_new(
            sides[False], 8 - len(pos) + len(exclude), 8 - len(pos), reference, exclude
        )
        if len(pos) + len(neg) < 8:
            pos = _first_new(sides[True], 8 + len(exclude), 8 - len(neg), reference, exclude)
        drawn = kept.examples(8, rng_for(5, epoch), max_len=6, exclude=exclude)
        assert [e.string for e in drawn if e.label] == pos
        assert [e.string for e in drawn if not e.label] == neg
        have.update(e.string for e in drawn)


def _first_new(
    side: DFA, k: int, want: int, rng: np.random.Generator, exclude: frozenset[str]
) -> list[str]:
    """The first ``want`` strings outside ``exclude`` of one draw of ``k``, spelled readably."""
    spelled = dict.fromkeys(
        readably_spelled(sample_strings(side, k, rng, max_len=6), side.alphabet)
    )
    return [s for s in spelled if s not in exclude][:want]
