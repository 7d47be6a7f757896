"""A teacher that gives back a string with the opposite of the label it gave before contradicts
itself: no hypothesis can satisfy both, so it is an error naming the string and both labels, never
a silently dropped example (the run then spent its whole budget on an unlearnable set)."""

from __future__ import annotations

import asyncio
from collections.abc import Collection

import pytest

from cegis import LoopConfig, Task, run
from cegis.registry import build
from oracle import Counterexample, Example, Verdict, remember
from oracle.protocol import ContradictoryTeacher
from regexlang.ast import Regex


def test_remember_refuses_a_flipped_label() -> None:
    given = (Example("ab", True), Example("b", False))
    with pytest.raises(
        ContradictoryTeacher,
        match=r"'ab' negative \(not in the target\) after labeling it positive",
    ):
        remember(given, Verdict(False, (Example("ab", False),), exact=True))
    again = remember(given, Verdict(False, (Example("ab", True), Example("c", False)), exact=True))
    assert again == (*given, Example("c", False))  # the same label twice is one example


class FlipFlop:
    """Says ``x`` is in the target, then that it is not."""

    def __init__(self) -> None:
        self.calls = 0

    def check(self, hypothesis: Regex, already_given: Collection[Counterexample] = ()) -> Verdict:
        self.calls += 1
        return Verdict(False, (Example("x", self.calls == 1),), mode="flip-flop", exact=False)


def test_a_run_with_a_contradicting_teacher_stops_with_the_error() -> None:
    task = Task("python", examples=(Example("y", True),), name="flip-flop")
    with pytest.raises(ContradictoryTeacher, match="'x'"):
        asyncio.run(run(task, build("union"), FlipFlop(), LoopConfig()))
