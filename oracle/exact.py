"""The exact teacher: the target regex is known, so equivalence is decided on the automata.

A hypothesis is compiled to its minimal DFA and compared with the target's. When the languages
differ, counterexamples come from the two one-sided difference automata, both minimal: positives
from ``L* ∖ L(h)`` (strings the hypothesis wrongly rejects) and negatives from ``L(h) ∖ L*``. The
batch is split evenly between the two sides when both exist, and a side that runs short hands its
share to the other. Three sampling modes decide *which* strings, since that drives how much a
learner gets out of each round:

* ``paths`` (default, the seed paper's code): loop-free start-to-accept paths of the difference
  DFA in diverse order (:func:`automata.paths.accepting_paths`), one string per path per round so
  the batch spreads over distinct "mistakes" before it repeats one;
* ``shortest``: the shortest witnesses first, in shortlex order (breadth first);
* ``uniform``: uniform random strings, a length first and then a string of that length, from exact
  counts (:func:`automata.sampling.sample_strings`).

With ``clustered`` the teacher answers with :class:`~oracle.examples.ClusteredExample` values: the
super-character path itself in ``paths`` mode, and each witness lifted to the super-character path
it follows in the other modes. In ``paths`` mode a step's character is drawn among its *readable*
members (:func:`oracle.mutations.readable`), so a step such as "anything but a digit" over Unicode
prints a visible character.

The teacher is a frozen value and keeps no history: ``check(hypothesis, already_given)`` never
returns a counterexample whose string (or clustered positions) is in ``already_given``, and its
random choices are seeded by ``config.seed`` and the number of examples already given, so a run is
reproducible. Every length is at most ``config.max_len``.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence, Set as AbstractSet
from typing import Literal

import attrs
import numpy as np

from automata.dfa import DFA
from automata.errors import DEFAULT_STATE_LIMIT, StateLimitExceeded
from automata.ops import accepts_many, difference, equivalent, is_empty
from automata.paths import Path, accepting_paths
from automata.sampling import sample_strings, shortest
from oracle.clustered import from_path, lift_many
from oracle.compiling import Compiled, compile_subject
from oracle.examples import Counterexample, Example, ExampleKey, identity
from oracle.mutations import readable
from oracle.protocol import Issue, SamplingMode, Spend, Verdict
from regexlang.ast import Regex
from regexlang.charset import CharSet
from regexlang.dialects import Dialect
from regexlang.dialects import universe as dialect_universe

#: Most witness strings drawn for one side of one verdict before settling for fewer than asked.
_MAX_DRAWS = 4096

#: How a verdict lists its counterexamples: alternating sides, positives first, or shortest first.
Order = Literal["interleaved", "grouped", "by_length"]


@attrs.frozen
class TeacherConfig:
    """Settings of an exact teacher; the defaults are the seed paper's (Appendix D)."""

    batch: int = 250
    max_len: int = 32
    mode: SamplingMode = "paths"
    clustered: bool = False
    order: Order = "interleaved"
    seed: int = 0
    state_limit: int = DEFAULT_STATE_LIMIT
    max_expansions: int = 10_000
    max_frontier: int = 1_000

    @property
    def mode_name(self) -> str:
        """The mode as recorded in verdicts, e.g. ``paths`` or ``shortest+clustered``."""
        return self.mode + ("+clustered" if self.clustered else "")


@attrs.frozen(eq=False)
class ExactTeacher:
    """A teacher that knows the target regex; build it with :meth:`from_regex`."""

    target: Compiled
    dialect: Dialect
    universe: CharSet
    config: TeacherConfig = TeacherConfig()
    clock: Callable[[], float] = time.perf_counter

    @classmethod
    def from_regex(
        cls,
        target: str | Regex,
        dialect: Dialect,
        *,
        universe: CharSet | None = None,
        config: TeacherConfig = TeacherConfig(),
        clock: Callable[[], float] = time.perf_counter,
    ) -> ExactTeacher:
        """A teacher for ``target`` (text in ``dialect`` or a tree); a bad target is reported by
        :attr:`issues` and in every verdict, never raised."""
        sigma = dialect_universe(dialect) if universe is None else universe
        compiled = compile_subject(target, "target", dialect=dialect, universe=sigma, state_limit=config.state_limit)
        return cls(compiled, dialect, sigma, config, clock)

    @property
    def issues(self) -> tuple[Issue, ...]:
        """What is wrong or unusual about the target (empty when it is an ordinary language)."""
        return self.target.issues

    def with_config(self, **changes: object) -> ExactTeacher:
        """The same target under changed settings (the target is not recompiled)."""
        return attrs.evolve(self, config=attrs.evolve(self.config, **changes))  # type: ignore[arg-type]

    def compile(self, hypothesis: str | Regex) -> Compiled:
        """A hypothesis compiled in the teacher's dialect and universe, with its issues."""
        return compile_subject(
            hypothesis, "hypothesis", dialect=self.dialect, universe=self.universe, state_limit=self.config.state_limit
        )

    def label(self, string: str) -> bool:
        """Membership query: whether the target contains ``string``."""
        if self.target.dfa is None:
            raise ValueError(f"the target cannot be queried: {'; '.join(map(str, self.issues))}")
        return self.target.dfa.accepts(string)

    def check(self, hypothesis: str | Regex, already_given: Collection[Counterexample] = ()) -> Verdict:
        """Decide equivalence; on disagreement return up to ``config.batch`` new counterexamples."""
        started = self.clock()
        verdict = self._judge(self.compile(hypothesis), already_given)
        return attrs.evolve(verdict, spend=Spend(self.clock() - started, verdict.spend.strings_examined))

    def _judge(self, hypothesis: Compiled, already_given: Collection[Counterexample]) -> Verdict:
        mode = self.config.mode_name
        issues = self.target.issues + hypothesis.issues
        target, guess = self.target.dfa, hypothesis.dfa
        if target is None or guess is None:
            return Verdict(False, mode=mode, issues=issues)
        limit = self.config.state_limit
        try:
            if equivalent(target, guess, state_limit=limit):
                return Verdict(True, mode=mode, issues=issues)
            too_little = difference(target, guess, state_limit=limit)
            too_much = difference(guess, target, state_limit=limit)
        except StateLimitExceeded as error:
            return Verdict(False, mode=mode, issues=(*issues, Issue("hypothesis", "state_limit", str(error))))
        examples, examined = self.counterexamples(too_little, too_much, already_given)
        if not examples:
            issues = (*issues, self._why_none(too_little, too_much))
        return Verdict(False, examples, mode, Spend(0.0, examined), issues)

    def counterexamples(
        self, too_little: DFA, too_much: DFA, already_given: Collection[Counterexample] = ()
    ) -> tuple[tuple[Counterexample, ...], int]:
        """Up to ``batch`` new counterexamples from the two difference DFAs (positives from
        ``too_little``, negatives from ``too_much``), and how many candidates were examined."""
        batch = self.config.batch
        given = {identity(e) for e in already_given}
        seeds = [int(s) for s in np.random.SeedSequence([self.config.seed, len(given)]).generate_state(2)]
        want_pos, want_neg = (batch + 1) // 2, batch // 2
        pos, seen_pos = self._draw(too_little, True, want_pos, given, seeds[0])
        neg, seen_neg = self._draw(too_much, False, want_neg, given, seeds[1])
        if len(pos) < want_pos and len(neg) == want_neg:
            neg, more = self._draw(too_much, False, batch - len(pos), given, seeds[1])
            seen_neg += more
        elif len(neg) < want_neg and len(pos) == want_pos:
            pos, more = self._draw(too_little, True, batch - len(neg), given, seeds[0])
            seen_pos += more
        return self._arrange(pos, neg), seen_pos + seen_neg

    def _draw(
        self, diff: DFA, label: bool, want: int, given: AbstractSet[ExampleKey], seed: int
    ) -> tuple[list[Counterexample], int]:
        if want <= 0 or is_empty(diff):
            return [], 0
        cfg = self.config
        need = want + _collisions(diff, given)  # enough candidates to survive the exclusion of old ones
        if cfg.mode == "paths":
            paths = accepting_paths(
                diff,
                max_paths=need,
                max_len=cfg.max_len,
                max_expansions=cfg.max_expansions,
                max_frontier=cfg.max_frontier,
                seed=seed,
            )
            if cfg.clustered:
                return _fresh((from_path(p, label, diff) for p in paths), given, want)
            spread = _path_strings(paths, 4 * need, np.random.default_rng(seed))
            return _fresh((Example(s, label) for s in spread), given, want)
        # Witness strings. Lifted ones often share a super-character path, so draw four times more
        # until enough distinct ones turn up, the language runs out, a larger draw adds nothing to
        # what the previous one found (saturation), or the draw cap is reached.
        draws, examined, found = need, 0, -1
        while True:
            if cfg.mode == "shortest":
                strings = shortest(diff, draws, max_len=cfg.max_len)
            else:
                strings = sample_strings(diff, draws, np.random.default_rng(seed), max_len=cfg.max_len)
            candidates = lift_many(diff, strings, label) if cfg.clustered else (Example(s, label) for s in strings)
            fresh, _ = _fresh(candidates, given, want)
            examined += len(strings)
            if len(fresh) == want or 0 < len(fresh) == found or len(strings) < draws or draws >= _MAX_DRAWS:
                return fresh, examined
            draws, found = min(4 * draws, _MAX_DRAWS), len(fresh)

    def _arrange(self, pos: list[Counterexample], neg: list[Counterexample]) -> tuple[Counterexample, ...]:
        if self.config.order == "grouped":
            return (*pos, *neg)
        alternating = [e for pair in itertools.zip_longest(pos, neg) for e in pair if e is not None]
        if self.config.order == "by_length":
            return tuple(sorted(alternating, key=_length))
        return tuple(alternating)

    def _why_none(self, too_little: DFA, too_much: DFA) -> Issue:
        max_len = self.config.max_len
        if shortest(too_little, 1, max_len=max_len) or shortest(too_much, 1, max_len=max_len):
            return Issue("hypothesis", "exhausted", f"no new counterexample of length <= {max_len}")
        return Issue("hypothesis", "beyond_max_len", f"the languages differ only beyond length {max_len}")


def _path_strings(paths: Sequence[Path], limit: int, rng: np.random.Generator) -> Iterator[str]:
    """Up to ``limit`` strings spread over ``paths``, one per path per round, each step spelled with
    a random readable character."""
    if not paths:
        return
    for path in itertools.islice(itertools.cycle(paths), limit):
        yield "".join(_pick(readable(step.chars), rng) for step in path.steps)


def _collisions(diff: DFA, given: AbstractSet[ExampleKey]) -> int:
    """How many already-given examples lie in ``diff`` (only those can be drawn again)."""
    if not given:
        return 0
    return int(sum(accepts_many(diff, [k if isinstance(k, str) else _first(k) for k in given])))


def _first(positions: tuple[CharSet, ...]) -> str:
    return "".join(p.first() for p in positions)


def _pick(members: str, rng: np.random.Generator) -> str:
    return members[int(rng.integers(len(members)))]


def _fresh(
    candidates: Iterable[Counterexample], given: AbstractSet[ExampleKey], want: int
) -> tuple[list[Counterexample], int]:
    """The first ``want`` distinct candidates not in ``given``, and how many were examined."""
    seen = set(given)
    out: list[Counterexample] = []
    examined = 0
    for example in candidates:
        if len(out) == want:
            break
        examined += 1
        key = identity(example)
        if key not in seen:
            seen.add(key)
            out.append(example)
    return out, examined


def _length(example: Counterexample) -> int:
    return len(example.string) if isinstance(example, Example) else len(example.positions)
