"""A proposal carries its automaton: the merging learner hands over the DFA it checked its print
with, which is the language of the printed text (the print is what the record keeps; checked
against ``re`` on every short string), and the teacher and the loop's scoring use it, so the
hypothesis is compiled once per epoch (counted)."""

from __future__ import annotations

import asyncio
import itertools
import re
from collections.abc import Callable, Sequence

import attrs
import pytest

import automata.building.compile
from automata.core.dfa import DFA
from cegis.config import Budgets, LoopConfig
from cegis.learner import LearnerContext, Proposal
from cegis.loop import run
from cegis.state import EpochState, Task
from cegis.symbolic.merging import symbolic
from oracle import ExactTeacher, TeacherConfig
from regexlang.ast import Regex
from regexlang.charset import CharSet

TARGETS = ("a(b|c)*a", "(ab|c)*b?", "[ab]c+|b")
UNIVERSE = CharSet.of("abc")


@attrs.frozen
class Watched:
    """The symbolic learner, its proposals kept as it made them (before the loop reprints one)."""

    made: list[Proposal] = attrs.field(factory=list)
    name: str = "symbolic"

    async def propose(self, context: LearnerContext) -> Proposal:
        proposal = await symbolic().propose(context)
        self.made.append(proposal)
        return proposal


def learned(
    target: str, config: LoopConfig, on_epoch: Callable[[EpochState], None] | None = None
) -> tuple[EpochState, list[Proposal]]:
    task = Task("python", target, universe=UNIVERSE)
    teacher = ExactTeacher.from_regex(
        target, "python", universe=UNIVERSE, config=config.teacher_config
    )
    learner = Watched()
    return asyncio.run(run(task, learner, teacher, config, on_epoch=on_epoch)), learner.made


CONFIG = LoopConfig(TeacherConfig(batch=2, clustered=False), Budgets(epochs=12), seed=1)


@pytest.mark.parametrize("target", TARGETS)
def test_the_carried_automaton_is_the_language_of_the_printed_text(target: str) -> None:
    state, made = learned(target, CONFIG)
    assert state.outcome == "equivalent"
    carried = [p for p in made if p.automaton is not None]
    assert carried and all(p.ok for p in made)
    words = ["".join(t) for n in range(6) for t in itertools.product("abc", repeat=n)]
    for proposal in carried:
        dfa: DFA = proposal.automaton  # type: ignore[assignment]
        assert dfa.alphabet.universe == UNIVERSE
        assert [dfa.accepts(w) for w in words] == [
            re.fullmatch(proposal.text, w) is not None for w in words
        ]


def test_a_proposals_automaton_is_compiled_once_per_epoch(monkeypatch: pytest.MonkeyPatch) -> None:
    compiled: list[Regex | None] = []
    original = automata.building.compile.compile_many

    def counting(regexes: Sequence[Regex], *args: object, **kwargs: object) -> list[DFA]:
        compiled.extend(regexes)
        return original(regexes, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(automata.building.compile, "compile_many", counting)
    seen: list[int] = []
    state, made = learned(
        "b(a|c)*c?", CONFIG, on_epoch=lambda _: seen.append(len(compiled))
    )  # not compiled before
    assert (
        state.outcome == "equivalent"
        and len(made) == len(seen) > 1
        and state.records[-1].scores is not None
    )
    starts = [0, *seen[:-1]]
    counts = [compiled[start:end].count(p.regex) for p, start, end in zip(made, starts, seen)]
    assert max(counts) == 1, (
        counts
    )  # by the learner, checking its print; not by the teacher, nor by the scoring
    assert counts.count(1) >= len(set(p.regex for p in made))
