"""What a teacher answers, and the small protocols a user implements to plug in an oracle.

Following AALpy, the learner, the teacher and the loop are separate objects: the loop calls
``teacher.check(hypothesis, already_given)`` and gets a :class:`Verdict` value back. Anything with
that method is a :class:`Teacher` — no base class to inherit — so an exact DFA teacher, a hidden
test suite or a user's own oracle are interchangeable. A learner that asks membership queries uses
a :class:`MembershipOracle` (``label(string) -> bool``), wrapped in :class:`CountedMembership` when
the queries must be counted. A teacher's optional abilities are protocols too, which the loop asks
with ``isinstance``: answering membership queries (:class:`MembershipOracle`, counting them:
:class:`CountsQueries`), keeping its own schedule of examples (:class:`ExampleSchedule`), judging
a hypothesis from the automaton its learner already built (:class:`AutomatonTeacher`), and
showing the learner only the tests it fails (:class:`ShowsOnlyTests`).

The teacher keeps no memory between rounds: what was already shown to the learner is an immutable
collection passed in, and :func:`remember` folds a verdict's counterexamples into it, so a run is a
fold ``given = remember(given, teacher.check(h, given))``.

Bad input never escapes a teacher as an exception. A target or hypothesis that does not parse or
exceeds the state limit, or a language that is empty or universal, is reported as an :class:`Issue`
in the verdict; blocking issues (the hypothesis or target could not be judged at all) make the
verdict invalid, the others are flags.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import Literal, Protocol, get_args, runtime_checkable

import attrs

from automata.core.dfa import DFA
from oracle.errors import ContradictoryTeacher as ContradictoryTeacher
from oracle.examples import Counterexample, Example, ExampleKey, identity
from regexlang.ast import Regex

#: How an exact teacher picks counterexamples from the difference languages.
SamplingMode = Literal["paths", "shortest", "uniform"]
SAMPLING_MODES: tuple[SamplingMode, ...] = get_args(SamplingMode)

Subject = Literal["target", "hypothesis"]
IssueKind = Literal[
    "syntax_error",  # the regex text does not parse in the dialect
    "state_limit",  # its minimal DFA would exceed the state limit
    "unsupported",  # it parses but has no exact automaton (e.g. an assertion under complement)
    "empty_language",  # it denotes the empty language
    "universal_language",  # it denotes every string over the universe
    "beyond_max_len",  # the languages differ, but only on strings longer than max_len
    "exhausted",  # every counterexample within max_len was already given (proven, never guessed)
    "resource_limit",  # a length, depth or memory guard stopped the subject from being compiled or judged
    "search_budget",  # the languages differ but the counterexample search stopped short of max_len
]
BLOCKING: frozenset[IssueKind] = frozenset(
    {"syntax_error", "state_limit", "unsupported", "resource_limit"}
)


@attrs.frozen
class Issue:
    """A typed reason why a target or hypothesis is unusual or could not be judged."""

    subject: Subject
    kind: IssueKind
    detail: str = ""

    @property
    def blocking(self) -> bool:
        """Whether the subject could not be judged at all."""
        return self.kind in BLOCKING

    def __str__(self) -> str:
        return f"{self.subject}: {self.kind.replace('_', ' ')}" + (
            f" ({self.detail})" if self.detail else ""
        )


@attrs.frozen
class Spend:
    """What an oracle spent on one answer: wall-clock seconds and strings (or paths) examined."""

    seconds: float = 0.0
    strings_examined: int = 0

    def __add__(self, other: Spend) -> Spend:
        return Spend(self.seconds + other.seconds, self.strings_examined + other.strings_examined)


@attrs.frozen
class Verdict:
    """A teacher's answer to one hypothesis.

    ``equivalent`` is the teacher's judgement that no disagreement exists; ``exact`` (required, by
    keyword) says whether it was decided on the languages themselves (True) or only on finite tests
    or samples (False: "no disagreement found" is then consistency, not equivalence, and the loop's
    outcome says ``consistent``). Counterexamples are
    labeled by the target: a positive one (label 1) is in the target and rejected by the hypothesis,
    a negative one (label 0) the reverse. ``mode`` names how they were chosen for records and
    reports (``paths``, ``shortest+clustered``, ``tests``, or a custom oracle's own name); nothing
    reads it back. What a learner may rely on is a typed field: ``shortest`` (by keyword) is the
    teacher's promise that the hypothesis labels every string shorter than the shortest
    counterexample as the target does, so a learner may take those labels as facts (the agreements
    of :mod:`cegis.symbolic.merging.rounds.agreement`, after Ibarra & Jiang).
    """

    equivalent: bool
    counterexamples: tuple[Counterexample, ...] = ()
    mode: str = ""
    spend: Spend = Spend()
    issues: tuple[Issue, ...] = ()
    exact: bool = attrs.field(kw_only=True)
    shortest: bool = attrs.field(default=False, kw_only=True)

    @property
    def valid(self) -> bool:
        """Whether both target and hypothesis could be judged (no blocking issue)."""
        return not any(issue.blocking for issue in self.issues)

    @property
    def positives(self) -> tuple[Counterexample, ...]:
        """Counterexamples in the target that the hypothesis rejects."""
        return tuple(c for c in self.counterexamples if c.label)

    @property
    def negatives(self) -> tuple[Counterexample, ...]:
        """Counterexamples the hypothesis accepts that are not in the target."""
        return tuple(c for c in self.counterexamples if not c.label)

    def has(self, kind: IssueKind) -> bool:
        """Whether the verdict reports an issue of this kind."""
        return any(issue.kind == kind for issue in self.issues)


class Teacher(Protocol):
    """An equivalence oracle: judge a hypothesis, answering with new counterexamples.

    ``hypothesis`` is a parsed tree (:class:`regexlang.ast.Regex`), not text: test it on strings
    with :func:`oracle.matcher` (``matcher(hypothesis, universe)(s)``) or print it with
    :func:`regexlang.unparse`. ``already_given`` holds plain and clustered examples; both list
    the strings they stand for with ``.strings()`` and one of them with ``.representative()``.
    """

    def check(self, hypothesis: Regex, already_given: Collection[Counterexample] = ...) -> Verdict:
        """Judge ``hypothesis``; never repeat a counterexample in ``already_given``."""
        ...


@runtime_checkable
class AutomatonTeacher(Teacher, Protocol):
    """Optional for a teacher: it judges a hypothesis from its minimal DFA, which the learner built
    anyway (``Proposal.automaton``), instead of compiling the hypothesis again."""

    def check_automaton(
        self, hypothesis: Regex, automaton: DFA, already_given: Collection[Counterexample] = ...
    ) -> Verdict:
        """:meth:`Teacher.check` of ``hypothesis``, whose minimal DFA over the task's universe (as
        :func:`automata.compile_regex` builds it) is ``automaton``."""
        ...


@runtime_checkable
class ExampleSchedule(Protocol):
    """Optional for a teacher that keeps its own schedule of examples (Standard's sample sizes):
    when a proposal fails, the loop adds the schedule's next examples instead of random ones."""

    def next_examples(self, already_given: Collection[Counterexample]) -> Sequence[Counterexample]:
        """The examples that follow ``already_given`` in the schedule."""
        ...


@runtime_checkable
class MembershipOracle(Protocol):
    """A membership oracle: whether the target contains a string (optional for a teacher: one that
    has it can drive a learner that asks queries, and label random examples)."""

    def label(self, string: str) -> bool:
        """Whether ``string`` is in the target language."""
        ...


@runtime_checkable
class CountsQueries(MembershipOracle, Protocol):
    """Optional for a membership oracle: it counts the queries asked through it, so a learner can
    report what its proposal cost (:class:`CountedMembership` is the one the loop hands out)."""

    @property
    def queries(self) -> int:
        """The queries asked so far."""
        ...


@runtime_checkable
class ShowsOnlyTests(Protocol):
    """Optional for a teacher whose learner may see no string but the tests it fails (A-CEGIS's
    hidden test suite): with ``tests_only`` true the loop adds no random examples, neither before
    the first epoch nor when a verdict adds nothing."""

    @property
    def tests_only(self) -> bool:
        """Whether the learner may see only the tests it fails."""
        ...


class CountedMembership(CountsQueries):
    """A membership oracle that counts the queries asked through it (a thin, mutable edge)."""

    def __init__(self, oracle: MembershipOracle) -> None:
        self._oracle = oracle
        self._queries = 0

    @property
    def queries(self) -> int:
        """The queries asked through this oracle so far."""
        return self._queries

    def label(self, string: str) -> bool:
        """The wrapped oracle's answer; counts one query."""
        self._queries += 1
        return self._oracle.label(string)


def remember(
    already_given: Iterable[Counterexample], verdict: Verdict
) -> tuple[Counterexample, ...]:
    """The counterexamples given so far followed by the verdict's new ones, without duplicates;
    :class:`ContradictoryTeacher` when the verdict labels an example given before the other way
    (no hypothesis can satisfy both, so the run could only spend its budget)."""
    seen: dict[ExampleKey, Counterexample] = {}
    for example in (*already_given, *verdict.counterexamples):
        before = seen.setdefault(identity(example), example)
        if before.label != example.label:
            raise ContradictoryTeacher(
                f"the teacher labeled {_written(example)} {_label(example.label)} "
                f"after labeling it {_label(before.label)}"
            )
    return tuple(seen.values())


def _written(example: Counterexample) -> str:
    return repr(example.string) if isinstance(example, Example) else example.pattern()


def _label(label: bool) -> str:
    return "positive (in the target)" if label else "negative (not in the target)"
