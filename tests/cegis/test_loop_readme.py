"""The README's example of a custom oracle driving the whole loop with the symbolic learner.

The code below is the README's block verbatim (the block that defines ``PredicateTeacher``); once
the README holds it, the test also checks that the two copies agree.
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

EXAMPLE = '''
import asyncio
import itertools
from collections.abc import Callable, Collection, Iterator

from automata.compile import compile_regex
from cegis import Budgets, LoopConfig, Task, run
from cegis.registry import build
from oracle import Counterexample, Example, Verdict
from regexlang import CharSet
from regexlang.ast import Regex


class PredicateTeacher:  # no base class: `check` makes it an oracle.Teacher, `label` lets the loop sample
    """Judges a hypothesis against a Python predicate on every string up to max_len."""

    def __init__(self, predicate: Callable[[str], bool], alphabet: str, max_len: int = 6) -> None:
        self.predicate, self.alphabet, self.max_len = predicate, alphabet, max_len

    def strings(self) -> Iterator[str]:
        for n in range(self.max_len + 1):
            yield from map("".join, itertools.product(self.alphabet, repeat=n))

    def label(self, string: str) -> bool:
        return self.predicate(string)

    def check(self, hypothesis: Regex, already_given: Collection[Counterexample] = ()) -> Verdict:
        dfa = compile_regex(hypothesis, CharSet.of(self.alphabet))
        wrong = [Example(s, self.predicate(s)) for s in self.strings() if dfa.accepts(s) != self.predicate(s)]
        shown = {e.string for e in already_given if isinstance(e, Example)}
        fresh = tuple(e for e in wrong if e.string not in shown)[:4]
        return Verdict(equivalent=not wrong, counterexamples=fresh, mode="exhaustive", exact=False)


def identifier(s: str) -> bool:  # a letter, then letters or digits
    return s[:1].isalpha() and s.isalnum()


teacher = PredicateTeacher(identifier, "ab01")
task = Task("extended", universe=CharSet.of("ab01"))
state = asyncio.run(run(task, build("symbolic"), teacher, LoopConfig(budgets=Budgets(epochs=20))))
print(state.outcome, state.hypothesis, state.epoch, len(state.examples))
'''

README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_readme_example_learns_the_predicates_language() -> None:
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(EXAMPLE, "README example", "exec"), {"__name__": "readme_example"})
    outcome, regex, epochs, examples = printed.getvalue().split()
    assert outcome == "equivalent" and int(epochs) <= 20 and int(examples) > 0
    for string in ("a", "b01", "ab1a", "", "0", "1a", "a#"):
        assert bool(re.fullmatch(regex, string)) == (string[:1] in ("a", "b") and set(string) <= set("ab01"))


def test_the_readme_holds_the_same_example_when_it_has_one() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    ours = [block for block in blocks if "class PredicateTeacher" in block]
    assert all(block.strip() == EXAMPLE.strip() for block in ours)
