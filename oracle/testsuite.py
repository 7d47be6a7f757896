"""The A-CEGIS test-suite oracle: judge a hypothesis on hidden labeled strings, then harden it.

When no exact teacher is wanted (or no target regex exists), a hypothesis is judged on a finite
suite of labeled strings the learner never sees. Built from a gold regex (python dialect by
default, ``re.fullmatch`` semantics), the suite holds 12 positives sampled from the gold language
and 12 negatives taken from one-edit mutations of the positives and from random strings, kept only
when the gold rejects them; built from user-supplied labeled strings, the suite is those strings.
The verdict is pass/fail per test with *directional* witnesses: false negatives (the hypothesis is
too narrow) become positive counterexamples, false positives (too broad) negative ones.

Two additions go beyond finite tests. In *exact* mode (A-CEGIS's stated future work) the gold's
DFA also decides equivalence, so a report says both "passes the hidden tests" and "equivalent", and
a hypothesis that passes every test but is not equivalent gets exact counterexamples from an
:class:`~oracle.exact.ExactTeacher`. *Hardening* (:mod:`oracle.probes`) probes a passing
hypothesis near the description, the literals and the tests; robust success is passing the hidden
tests and every probe.

Test strings are sampled per class sequence and then respelled with readable members of each class
(:func:`oracle.mutations.respell`), so a suite over Unicode shows ``xdogdog!`` rather than control
characters; labels always come from the gold DFA.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Collection, Sequence

import attrs
import numpy as np

from automata.algebra.ops import accepts_many, align, equivalent
from automata.core.dfa import DFA
from automata.errors import DEFAULT_STATE_LIMIT, StateLimitExceeded
from automata.jit import compile_time
from automata.strings.sampling import sample_strings
from oracle import mutations
from oracle.compiling import Compiled, compile_subject
from oracle.config import at_least, is_bool
from oracle.exact import ExactTeacher, TeacherConfig
from oracle.examples import Counterexample, Example, identity
from oracle.probes import (
    ProbeReport,
    description_tokens,
    harden,
    probe_strings,
    regex_literals,
    repetition_seeds,
)
from oracle.protocol import Issue, Spend, Verdict
from regexlang.ast import Regex
from regexlang.charset import CharSet
from regexlang.dialects import Dialect
from regexlang.dialects import universe as dialect_universe


@attrs.frozen
class SuiteConfig:
    """Settings of a test-suite oracle; the sizes are A-CEGIS's reported configuration."""

    positives: int = attrs.field(default=12, validator=at_least(0))
    negatives: int = attrs.field(default=12, validator=at_least(0))
    max_len: int = attrs.field(default=16, validator=at_least(0))
    seed: int = attrs.field(default=0, validator=at_least(0))
    exact: bool = attrs.field(default=False, validator=is_bool)
    witnesses: int = attrs.field(default=3, validator=at_least(0))
    probes: int = attrs.field(default=400, validator=at_least(0))
    state_limit: int = attrs.field(default=DEFAULT_STATE_LIMIT, validator=at_least(1))


@attrs.frozen
class SuiteReport:
    """A hypothesis judged on the hidden tests (and, when asked, exactly and by probes)."""

    tests: tuple[Example, ...]
    predicted: tuple[bool, ...]
    equivalent: bool | None = None
    probes: ProbeReport | None = None
    issues: tuple[Issue, ...] = ()
    spend: Spend = Spend()

    @property
    def valid(self) -> bool:
        """Whether the hypothesis (and gold) could be judged."""
        return not any(issue.blocking for issue in self.issues)

    @property
    def outcomes(self) -> tuple[bool, ...]:
        """Pass (True) or fail for each hidden test, in order."""
        return tuple(p == t.label for t, p in zip(self.tests, self.predicted))

    @property
    def passed(self) -> bool:
        """Whether the hypothesis was judged and passes every hidden test."""
        return self.valid and len(self.predicted) == len(self.tests) and all(self.outcomes)

    @property
    def false_negatives(self) -> tuple[Example, ...]:
        """Tests in the gold language that the hypothesis rejects (it is too narrow)."""
        return tuple(t for t, p in zip(self.tests, self.predicted) if t.label and not p)

    @property
    def false_positives(self) -> tuple[Example, ...]:
        """Tests outside the gold language that the hypothesis accepts (it is too broad)."""
        return tuple(t for t, p in zip(self.tests, self.predicted) if p and not t.label)

    @property
    def robust(self) -> bool:
        """Robust success: passes the hidden tests and every hardening probe."""
        return self.passed and self.probes is not None and self.probes.passed


def hidden_tests(
    gold: DFA, *, positives: int, negatives: int, max_len: int, rng: np.random.Generator
) -> tuple[Example, ...]:
    """Positives sampled from ``gold`` and negatives from mutations and random strings it rejects."""
    alphabet = gold.alphabet
    pos = [
        mutations.respell(s, alphabet, rng)
        for s in sample_strings(gold, positives, rng, max_len=max_len, mode="representatives")
    ]
    pool = mutations.char_pool(alphabet.classes, rng)
    tries = 32 * max(negatives, 1)
    edited = (
        [mutations.one_edit(pos[int(i)], pool, rng) for i in rng.integers(len(pos), size=tries)]
        if pos
        else []
    )
    noise = mutations.random_strings(pool, tries, max_len, rng)
    mixed = (c for pair in itertools.zip_longest(edited, noise) for c in pair if c is not None)
    taken = set(pos)
    candidates = [c for c in mutations.unique(mixed, max_len) if c not in taken]
    rejected = [
        c for c, accepted in zip(candidates, accepts_many(gold, candidates)) if not accepted
    ]
    return (*(Example(s, True) for s in pos), *(Example(s, False) for s in rejected[:negatives]))


@attrs.frozen(eq=False)
class SuiteOracle:
    """A test-suite oracle; build it with :meth:`from_gold` or :meth:`from_examples`."""

    tests: tuple[Example, ...]
    gold: Compiled | None
    dialect: Dialect
    universe: CharSet
    description: str = ""
    config: SuiteConfig = SuiteConfig()
    clock: Callable[[], float] = compile_time.clock

    @classmethod
    def from_gold(
        cls,
        gold: str | Regex,
        *,
        dialect: Dialect = "python",
        universe: CharSet | None = None,
        description: str = "",
        config: SuiteConfig = SuiteConfig(),
    ) -> SuiteOracle:
        """Hidden tests generated from a gold regex; a bad gold is reported, never raised."""
        sigma = dialect_universe(dialect) if universe is None else universe
        compiled = compile_subject(
            gold, "target", dialect=dialect, universe=sigma, state_limit=config.state_limit
        )
        tests: tuple[Example, ...] = ()
        if compiled.dfa is not None:
            rng = np.random.default_rng(config.seed)
            tests = hidden_tests(
                compiled.dfa,
                positives=config.positives,
                negatives=config.negatives,
                max_len=config.max_len,
                rng=rng,
            )
        return cls(tests, compiled, dialect, sigma, description, config)

    @classmethod
    def from_examples(
        cls,
        examples: Sequence[Example],
        *,
        dialect: Dialect = "python",
        universe: CharSet | None = None,
        description: str = "",
        config: SuiteConfig = SuiteConfig(),
    ) -> SuiteOracle:
        """Hidden tests supplied by the user; no gold, so no exact mode and no probes."""
        sigma = dialect_universe(dialect) if universe is None else universe
        return cls(tuple(examples), None, dialect, sigma, description, config)

    @property
    def issues(self) -> tuple[Issue, ...]:
        """What is wrong or unusual about the gold regex."""
        return () if self.gold is None else self.gold.issues

    def evaluate(self, hypothesis: str | Regex, *, probe: bool = True) -> SuiteReport:
        """Run the hidden tests; in exact mode decide equivalence; probe a passing hypothesis."""
        started = self.clock()
        compiled = compile_subject(
            hypothesis,
            "hypothesis",
            dialect=self.dialect,
            universe=self.universe,
            state_limit=self.config.state_limit,
        )
        report = self._evaluate(compiled, probe)
        return attrs.evolve(
            report, spend=Spend(self.clock() - started, report.spend.strings_examined)
        )

    def _evaluate(self, hypothesis: Compiled, probe: bool) -> SuiteReport:
        issues = self.issues + hypothesis.issues
        guess = hypothesis.dfa
        gold = None if self.gold is None else self.gold.dfa
        if guess is None or (self.gold is not None and gold is None):
            return SuiteReport(self.tests, (), issues=issues)
        predicted = tuple(bool(x) for x in accepts_many(guess, [t.string for t in self.tests]))
        report = SuiteReport(
            self.tests, predicted, issues=issues, spend=Spend(0.0, len(self.tests))
        )
        if self.gold is None or gold is None:
            return report
        if self.config.exact:
            try:
                report = attrs.evolve(
                    report, equivalent=equivalent(gold, guess, state_limit=self.config.state_limit)
                )
            except StateLimitExceeded as error:
                return attrs.evolve(
                    report, issues=(*issues, Issue("hypothesis", "state_limit", str(error)))
                )
        if probe and report.passed and self.config.probes > 0:
            regexes = [r for r in (hypothesis.regex, self.gold.regex) if r is not None]
            probes = harden(guess, gold, self._probes(regexes, gold, guess))
            report = attrs.evolve(report, probes=probes, spend=report.spend + probes.spend)
        return report

    def _probes(self, regexes: Sequence[Regex], gold: DFA, guess: DFA) -> tuple[str, ...]:
        rng = np.random.default_rng(self.config.seed)
        literals = [s for r in regexes for s in (*regex_literals(r), *repetition_seeds(r))]
        return probe_strings(
            tokens=description_tokens(self.description),
            literals=literals,
            examples=[t.string for t in self.tests],
            pool=mutations.char_pool(align(gold, guess)[0].alphabet.classes, rng),
            rng=rng,
            limit=self.config.probes,
            max_len=2 * self.config.max_len,
        )

    def check(
        self, hypothesis: str | Regex, already_given: Collection[Counterexample] = ()
    ) -> Verdict:
        """The :class:`~oracle.protocol.Teacher` view: failed hidden tests as directional witnesses,
        at most ``config.witnesses`` per direction; in exact mode, exact counterexamples once the
        tests pass but the languages still differ."""
        report = self.evaluate(hypothesis, probe=False)
        exact = self.config.exact and self.gold is not None and self.gold.dfa is not None
        accepted = bool(report.equivalent) if exact else report.passed
        if report.passed and report.equivalent is False and self.gold is not None:
            config = TeacherConfig(batch=2 * self.config.witnesses, seed=self.config.seed)
            teacher = ExactTeacher(self.gold, self.dialect, self.universe, config, self.clock)
            verdict = teacher.check(hypothesis, already_given)
            return attrs.evolve(verdict, spend=report.spend + verdict.spend)
        given = {identity(e) for e in already_given}
        n = self.config.witnesses
        too_narrow = [t for t in report.false_negatives if t.string not in given][:n]
        too_broad = [t for t in report.false_positives if t.string not in given][:n]
        witnesses = tuple(
            e
            for pair in itertools.zip_longest(too_narrow, too_broad)
            for e in pair
            if e is not None
        )
        return Verdict(accepted, witnesses, "tests", report.spend, report.issues, exact=exact)
