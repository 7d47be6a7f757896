"""Checking one model answer: the repair loop's checks, the guard's contract, and RepairScore.

Every candidate regex a model writes goes through the same atomic checks, in order: there is an
answer, it parses in the dialect, it compiles to an automaton, it stays in the task's alphabet and
(when the setting regularizes) within the length and StarDepth bounds, and it labels every
accumulated example correctly, clustered ones universally (:func:`oracle.misclassified`). The
result is an :class:`Assessment` value holding every failing check, so one answer can be judged
under two contracts:

* the seed paper's repair loop (Sec. 4) asks for the *syntax* and *satisfaction* checks and ranks
  candidates by RepairScore = ½·Compiles + ½·(1 − |misclassified| / |examples|);
* SEVerA's guard (Sec. 4.2) asks for all of them, bounds included, and feeds the failing ones back
  to the next draw (its ``Err_Ψ``) as :meth:`Assessment.feedback`.

An answer that does not compile has no language, so its misclassified set is undefined; its score is
0, below every compiling answer. With no examples the satisfaction term is 1.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Literal

import attrs

from automata.core.dfa import DFA
from cegis.learner import FailureKind
from cegis.llm.answer_memory import AnswerMemory
from cegis.llm.answers import AnswerError, ParsedAnswer
from cegis.llm.prompts import Regularization
from oracle.clustered import ClusteredReading, misclassified
from oracle.compiling import ANSWER_SECONDS, compile_subject
from oracle.examples import Counterexample, format_position
from regexlang.charset import CharSet
from regexlang.dialects import Dialect
from regexlang.metrics import star_depth, text_length, used_chars

CheckName = Literal[
    "complete", "answer", "syntax", "compiles", "alphabet", "length", "star_depth", "consistent"
]

#: The checks of the seed paper's repair loop; the guard adds the bounds and the alphabet.
REPAIR_CHECKS: frozenset[CheckName] = frozenset(
    {"complete", "answer", "syntax", "compiles", "alphabet", "consistent"}
)
GUARD_CHECKS: frozenset[CheckName] = REPAIR_CHECKS | {"length", "star_depth"}

_FAILURE_KIND: dict[CheckName, FailureKind] = {
    "complete": "truncated",
    "answer": "no_regex",
    "syntax": "syntax_error",
    "compiles": "does_not_compile",
    "alphabet": "outside_dialect",
    "length": "outside_dialect",
    "star_depth": "outside_dialect",
    "consistent": "inconsistent",
}


@attrs.frozen
class Violation:
    """One failing atomic check and what exactly failed."""

    check: CheckName
    detail: str


@attrs.frozen(eq=False)
class Assessment:
    """One candidate answer judged against the examples: its regex (when it parsed), its minimal
    DFA over the task's universe (when it compiled: a proposal of it hands the DFA to the teacher),
    every failing check, and the misclassified examples."""

    text: str
    reasoning: str
    parsed: ParsedAnswer | None
    automaton: DFA | None
    misclassified: tuple[Counterexample, ...]
    examples: int
    violations: tuple[Violation, ...]

    @property
    def compiled(self) -> bool:
        """Whether the answer compiled."""
        return self.automaton is not None

    @property
    def score(self) -> float:
        """RepairScore: ½·Compiles + ½·(1 − |misclassified| / |examples|); 0 when it does not compile."""
        if not self.compiled:
            return 0.0
        wrong = len(self.misclassified) / self.examples if self.examples else 0.0
        return 0.5 + 0.5 * (1.0 - wrong)

    def failing(self, contract: frozenset[CheckName]) -> tuple[Violation, ...]:
        """The violations that ``contract`` counts."""
        return tuple(v for v in self.violations if v.check in contract)

    def meets(self, contract: frozenset[CheckName]) -> bool:
        """Whether no check of ``contract`` fails."""
        return not self.failing(contract)

    def failure_kind(self, contract: frozenset[CheckName]) -> FailureKind | None:
        """The typed failure of the first failing check of ``contract``, if any."""
        failing = self.failing(contract)
        return _FAILURE_KIND[failing[0].check] if failing else None

    def feedback(self, contract: frozenset[CheckName]) -> str:
        """The failing checks of ``contract`` as a learner should read them, one per line (the
        misclassified examples themselves go to the prompt's example block)."""
        return "\n".join(f"- {violation.detail}" for violation in self.failing(contract))


def truncated(text: str, reasoning: str, examples: int) -> Assessment:
    """The assessment of a reply that ran out of completion tokens before a usable answer."""
    violation = Violation(
        "complete", "the reply was cut off at the completion-token limit; answer more briefly"
    )
    return Assessment(text, reasoning, None, None, (), examples, (violation,))


def assess(
    answer: ParsedAnswer | AnswerError,
    reasoning: str,
    examples: Sequence[Counterexample],
    *,
    dialect: Dialect,
    universe: CharSet,
    bounds: Regularization | None,
    state_limit: int,
    reading: ClusteredReading = "universal",
    seconds: float = ANSWER_SECONDS,
    memory: AnswerMemory | None = None,
) -> Assessment:
    """Run every check on one parsed (or unparsable) answer; ``reading`` is how clustered negatives
    are scored (the ``cegml`` teacher profile's ``loose`` reading, or ``universal``); its compile
    stops at ``state_limit`` states or after ``seconds``, a ``compiles`` violation either way.
    ``memory``: the run's :class:`AnswerMemory`, so an answer seen before is not checked again."""
    if isinstance(answer, AnswerError):
        check: CheckName = "answer" if answer.kind == "missing" else "syntax"
        violation = Violation(check, answer.feedback())
        return Assessment(answer.text, reasoning, None, None, (), len(examples), (violation,))
    memory = AnswerMemory() if memory is None else memory
    key = (answer, dialect, universe, bounds, state_limit, seconds)
    checked, dfa = memory.remembered(key, functools.partial(_compiled, *key))
    if dfa is None:
        return Assessment(answer.text, reasoning, answer, None, (), len(examples), checked)
    found = dfa
    wrong = memory.misclassified(
        (key, reading), examples, lambda: misclassified(found, examples, reading=reading)
    )
    violations = list(checked)
    if wrong:
        violations.append(
            Violation("consistent", f"it labels {len(wrong)} of {len(examples)} examples wrongly")
        )
    return Assessment(answer.text, reasoning, answer, dfa, wrong, len(examples), tuple(violations))


def _compiled(
    answer: ParsedAnswer,
    dialect: Dialect,
    universe: CharSet,
    bounds: Regularization | None,
    state_limit: int,
    seconds: float,
) -> tuple[tuple[Violation, ...], DFA | None]:
    """The checks of ``answer`` that do not read the examples (its compile first when it fails),
    and its minimal DFA (None when it does not compile)."""
    violations = _bound_violations(answer, universe, bounds)
    compiled = compile_subject(
        answer.regex,
        "hypothesis",
        dialect=dialect,
        universe=universe,
        state_limit=state_limit,
        seconds=seconds,
    )
    if compiled.dfa is None:
        reason = "; ".join(str(issue) for issue in compiled.issues if issue.blocking)
        violations.insert(0, Violation("compiles", f"the regex cannot be compiled ({reason})"))
    return tuple(violations), compiled.dfa


def _bound_violations(
    answer: ParsedAnswer, universe: CharSet, bounds: Regularization | None
) -> list[Violation]:
    found = []
    outside = used_chars(answer.regex).difference(universe)
    if not outside.is_empty():
        found.append(
            Violation(
                "alphabet", f"it uses characters outside the alphabet: {format_position(outside)}"
            )
        )
    if bounds is not None:
        length = text_length(answer.text)
        if length > bounds.max_length:
            found.append(
                Violation(
                    "length", f"it is {length} characters long; at most {bounds.max_length} allowed"
                )
            )
        depth = star_depth(answer.regex)
        if depth > bounds.max_star_depth:
            found.append(
                Violation(
                    "star_depth",
                    f"its repetitions nest {depth} deep; at most {bounds.max_star_depth} allowed",
                )
            )
    return found
