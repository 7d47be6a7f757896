"""The exact teacher: the target regex is known, so equivalence is decided on the automata.

A hypothesis is compiled to its minimal DFA and compared with the target's. When the languages
differ, counterexamples come from the two one-sided difference automata, both minimal: positives
from ``L* ∖ L(h)`` (strings the hypothesis wrongly rejects) and negatives from ``L(h) ∖ L*``. The
batch is split evenly between the two sides when both exist, and a side that runs short hands its
share to the other. Three sampling modes decide *which* strings, since that drives how much a
learner gets out of each round:

* ``paths`` (default, the seed paper's code): loop-free start-to-accept paths of the difference
  DFA in diverse order (:func:`automata.strings.paths.accepting_paths`), one string per path per round so
  the batch spreads over distinct "mistakes" before it repeats one;
* ``shortest``: the shortest witnesses first, in shortlex order; the odd slot of an odd batch goes
  to the side with the shorter next witness, so a batch of one is a shortest counterexample overall;
* ``uniform``: a length uniformly among those that have witnesses, then a witness of that length
  uniformly: a string (:func:`oracle.draws.random_strings`), or with ``clustered`` a
  super-character path, each distinct clustered example counting once
  (:func:`oracle.draws.random_walks`).

With ``clustered`` the teacher answers with :class:`~oracle.examples.ClusteredExample` values, the
super-character paths of the difference automaton, drawn as paths (:mod:`oracle.draws`) so that
every draw is a distinct example. In ``paths`` mode a plain string spells each step with a
*readable* member (:func:`oracle.mutations.readable`), so a step such as "anything but a digit"
over Unicode prints a visible character.

When a mode runs short of new counterexamples (loop-free paths are finitely many, and all of them
may have been shown), the side falls back to the shortest witnesses and then, for plain strings, to
uniform strings. When that proves that no new witness of length <= ``max_len`` is left (every one
was already given, or none exists: the hypothesis equals the target up to ``max_len``), the round
answers with the shortest new witnesses beyond ``max_len``, whatever their length, and says so
(``beyond_max_len``): a teacher that knows the languages differ never answers "not equivalent"
with nothing to show, which would leave a learner nothing to learn from (``(xy)+|Q7r`` unrolled 16
times is right up to length 32; ``a{33}`` has no string that short). A search that stops on a
budget says so (``search_budget``), and a guard of the automata layer (state limit, length, depth,
memory) becomes an :class:`~oracle.protocol.Issue`, never an exception.

The ``cegml`` profile (:mod:`oracle.config`) replaces all of this with the reference code's
sampling (:mod:`oracle.cegml`).

The teacher is a frozen value and keeps no history: ``check(hypothesis, already_given)`` never
returns a counterexample whose string (or clustered positions) is in ``already_given``, and its
random choices are seeded by ``config.seed`` and the number of examples already given, so a run is
reproducible. Every length is at most ``config.max_len``, except the witnesses beyond it above.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from collections.abc import Set as AbstractSet
from typing import Any

import attrs
import numpy as np

from automata.algebra.ops import accepts_many, difference, equivalence_witness, equivalent, is_empty
from automata.core.dfa import DFA
from automata.errors import AutomataError, StateLimitExceeded
from automata.jit import compile_time
from automata.strings.counting import completions
from automata.strings.paths import Path, accepting_paths
from oracle import cegml
from oracle.clustered import from_path
from oracle.compiling import Compiled, compile_carried, compile_subject, guard_issue
from oracle.config import Order, TeacherConfig
from oracle.draws import (
    Edges,
    Grain,
    SearchTooLarge,
    Walk,
    random_strings,
    random_walks,
    shortest_walks,
)
from oracle.examples import ClusteredExample, Counterexample, Example, ExampleKey, identity, length
from oracle.mutations import readable
from oracle.protocol import Issue, Spend, Verdict
from regexlang.ast import Regex
from regexlang.charset import CharSet
from regexlang.dialects import Dialect, parse
from regexlang.dialects import universe as dialect_universe
from regexlang.errors import RegexError
from regexlang.metrics import used_chars

__all__ = ["ExactTeacher", "Order", "TeacherConfig"]

#: A lazily built source of candidate counterexamples.
_Source = Callable[[], Iterable[Any]]

#: Errors of a draw that end the search for counterexamples but not the verdict.
_DRAW_GUARDS = (AutomataError, SearchTooLarge, MemoryError, RecursionError)


@attrs.frozen
class _Side:
    """One side's new counterexamples, how many candidates were examined, whether it is proven
    that no other new one exists up to ``max_len``, and how many given ones lie in the side."""

    examples: list[Counterexample]
    examined: int
    complete: bool
    collisions: int
    problem: str = ""


@attrs.frozen(eq=False)
class ExactTeacher:
    """A teacher that knows the target regex; build it with :meth:`from_regex`."""

    target: Compiled
    dialect: Dialect
    universe: CharSet
    config: TeacherConfig = TeacherConfig()
    clock: Callable[[], float] = compile_time.clock

    @classmethod
    def from_regex(
        cls,
        target: str | Regex,
        dialect: Dialect,
        *,
        universe: CharSet | None = None,
        config: TeacherConfig = TeacherConfig(),
        clock: Callable[[], float] = compile_time.clock,
    ) -> ExactTeacher:
        """A teacher for ``target`` (text in ``dialect`` or a tree); a bad target is reported by
        :attr:`issues` and in every verdict, never raised. Under the ``cegml`` profile a simple
        target's universe is its own letters, as in the reference code."""
        sigma = dialect_universe(dialect) if universe is None else universe
        if universe is None and config.profile == "cegml" and dialect == "simple":
            sigma = _own_letters(target, sigma)
        compiled = compile_subject(
            target, "target", dialect=dialect, universe=sigma, state_limit=config.state_limit
        )
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
            hypothesis,
            "hypothesis",
            dialect=self.dialect,
            universe=self.universe,
            state_limit=self.config.state_limit,
        )

    def label(self, string: str) -> bool:
        """Membership query: whether the target contains ``string``."""
        if self.target.dfa is None:
            raise ValueError(f"the target cannot be queried: {'; '.join(map(str, self.issues))}")
        return self.target.dfa.accepts(string)

    def check(
        self, hypothesis: str | Regex, already_given: Collection[Counterexample] = ()
    ) -> Verdict:
        """Decide equivalence; on disagreement return up to ``config.batch`` new counterexamples.
        A ``hypothesis`` that is neither text nor a regex tree raises TypeError."""
        return self._checked(lambda: self.compile(hypothesis), already_given)

    def check_automaton(
        self, hypothesis: Regex, automaton: DFA, already_given: Collection[Counterexample] = ()
    ) -> Verdict:
        """:meth:`check` of ``hypothesis`` from its minimal DFA ``automaton`` (compiled again when
        it is over another universe than the teacher's; :class:`oracle.AutomatonTeacher`)."""
        limit = self.config.state_limit
        return self._checked(
            lambda: compile_carried(
                hypothesis,
                automaton,
                "hypothesis",
                dialect=self.dialect,
                universe=self.universe,
                state_limit=limit,
            ),
            already_given,
        )

    def _checked(
        self, compiled: Callable[[], Compiled], already_given: Collection[Counterexample]
    ) -> Verdict:
        started = self.clock()
        verdict = self._judge(compiled(), already_given)
        spend = Spend(self.clock() - started, verdict.spend.strings_examined)
        return attrs.evolve(verdict, spend=spend, shortest=self.config.promises_shortest)

    def _judge(self, hypothesis: Compiled, already_given: Collection[Counterexample]) -> Verdict:
        mode = self.config.mode_name
        issues = self.target.issues + hypothesis.issues
        target, guess = self.target.dfa, hypothesis.dfa
        if target is None or guess is None:
            return Verdict(False, mode=mode, issues=issues, exact=True)
        limit = self.config.state_limit
        try:
            if equivalent(target, guess, state_limit=limit):
                return Verdict(True, mode=mode, issues=issues, exact=True)
            too_little = difference(target, guess, state_limit=limit)
            too_much = difference(guess, target, state_limit=limit)
        except StateLimitExceeded as error:
            return Verdict(
                False,
                mode=mode,
                issues=(*issues, Issue("hypothesis", "state_limit", str(error))),
                exact=True,
            )
        except (AutomataError, MemoryError, RecursionError) as error:
            return Verdict(
                False, mode=mode, issues=(*issues, guard_issue("hypothesis", error)), exact=True
            )
        if self.config.profile == "cegml":
            try:
                examples, examined = self.counterexamples(too_little, too_much, already_given)
            except _DRAW_GUARDS as error:
                return Verdict(
                    False,
                    mode=mode,
                    issues=(*issues, _none_cegml(f"{type(error).__name__}: {error}")),
                    exact=True,
                )
            found = issues if examples else (*issues, _why_none_cegml(target, guess, self.config))
            return Verdict(False, examples, mode, Spend(0.0, examined), found, exact=True)
        pos, neg = self._sides(too_little, too_much, already_given)
        examples = self._arrange(pos.examples, neg.examples)
        examined = pos.examined + neg.examined
        if not examples and pos.complete and neg.complete:  # proven: nothing new up to max_len
            problems: list[str] = []
            beyond = list(
                _guarded(lambda: self._beyond(too_little, too_much, already_given), problems)
            )
            examples, examined = tuple(beyond), examined + len(beyond)
            issues = (*issues, _beyond_issue(pos, neg, self.config.max_len, examples, problems))
        elif not examples or pos.problem or neg.problem:
            issues = (*issues, _why_short(pos, neg, self.config.max_len))
        return Verdict(False, examples, mode, Spend(0.0, examined), issues, exact=True)

    def counterexamples(
        self, too_little: DFA, too_much: DFA, already_given: Collection[Counterexample] = ()
    ) -> tuple[tuple[Counterexample, ...], int]:
        """Up to ``batch`` new counterexamples from the two difference DFAs (positives from
        ``too_little``, negatives from ``too_much``), and how many candidates were examined."""
        if self.config.profile == "cegml":
            examples = cegml.counterexamples(too_little, too_much, self.config, len(already_given))
            return examples, len(examples)
        pos, neg = self._sides(too_little, too_much, already_given)
        return self._arrange(pos.examples, neg.examples), pos.examined + neg.examined

    def _sides(
        self, too_little: DFA, too_much: DFA, already_given: Collection[Counterexample]
    ) -> tuple[_Side, _Side]:
        batch = self.config.batch
        given = {identity(e) for e in already_given}
        seeds = [
            int(s) for s in np.random.SeedSequence([self.config.seed, len(given)]).generate_state(2)
        ]
        want_pos, want_neg = (batch + 1) // 2, batch // 2
        odd = int(
            self.config.mode == "shortest" and batch % 2 == 1
        )  # the odd slot goes to the shorter side
        if is_empty(too_much):  # one side only: it gets the whole batch in one draw
            want_pos, want_neg, odd = batch, 0, 0
        elif is_empty(too_little):
            want_pos, want_neg, odd = 0, batch, 0
        pos = self._side(too_little, True, want_pos, given, seeds[0])
        neg = self._side(too_much, False, want_neg + odd, given, seeds[1])
        if odd and len(pos.examples) == want_pos and len(neg.examples) > want_neg:
            pos, neg = _odd_to_shorter(pos, neg, len(given))
        if len(pos.examples) < want_pos and len(neg.examples) >= want_neg:
            neg = self._side(too_much, False, batch - len(pos.examples), given, seeds[1])
        elif len(neg.examples) < want_neg and len(pos.examples) == want_pos:
            pos = self._side(too_little, True, batch - len(neg.examples), given, seeds[0])
        return pos, neg

    def _side(
        self, diff: DFA, label: bool, want: int, given: AbstractSet[ExampleKey], seed: int
    ) -> _Side:
        """Up to ``want`` new counterexamples of one side: the mode's own candidates first, then the
        fallbacks, all lazily, so a fallback costs nothing unless the mode runs short. ``paths``
        mode falls back only when none of its loop-free paths is new, so a round stays made of
        distinct mistakes while there are any. A source stopped by a guard is skipped (and noted);
        the others still run."""
        if want <= 0 or is_empty(diff):
            return _Side([], 0, complete=True, collisions=0)
        collisions = _collisions(diff, given)
        problems: list[str] = []
        sources = self._sources(diff, label, want + collisions, np.random.default_rng(seed))
        own = 1 if self.config.mode == "paths" else 0
        fresh, examined = _fresh(_chained(sources[:own], problems), given, want)
        if fresh and own:
            return _Side(fresh, examined, False, collisions, "; ".join(problems))
        more, seen = _fresh(
            _chained(sources[own:], problems), {*given, *map(identity, fresh)}, want - len(fresh)
        )
        fresh, examined = fresh + more, examined + seen
        complete = False
        if len(fresh) < want and not problems:  # every source ran dry: prove that nothing is left
            complete = all(
                _guarded(lambda: [self._proven_complete(diff, collisions, len(fresh))], problems)
            )
        return _Side(fresh, examined, complete and not problems, collisions, "; ".join(problems))

    def _sources(
        self, diff: DFA, label: bool, need: int, rng: np.random.Generator
    ) -> list[_Source]:
        """The candidate sources of one side, in the order they are tried."""
        cfg = self.config
        universe = diff.alphabet.universe
        grain: Grain = "step" if cfg.clustered else "class"
        edges = Edges(diff, grain)
        primary: list[_Source] = []
        listed_all = False  # set when a uniform draw happened to list every clustered example

        def uniform_walks() -> Iterable[Counterexample]:
            nonlocal listed_all
            walks, listed_all = random_walks(edges, need, cfg.max_len, rng)
            return _as_examples(walks, label, universe, True)

        def shortest() -> Iterable[Counterexample]:
            if listed_all:
                return ()
            return _as_examples(shortest_walks(edges, cfg.max_len), label, universe, cfg.clustered)

        if cfg.mode == "paths":
            primary.append(lambda: self._paths(diff, label, need, rng))
        elif cfg.mode == "uniform" and cfg.clustered:
            primary.append(uniform_walks)
        elif cfg.mode == "uniform":
            primary.append(
                lambda: (Example(s, label) for s in random_strings(diff, need, cfg.max_len, rng))
            )
        if cfg.clustered:
            return [*primary, shortest]

        def uniform() -> Iterable[Example]:
            return (Example(s, label) for s in random_strings(diff, need, cfg.max_len, rng))

        return [*primary, shortest, uniform]

    def _paths(
        self, diff: DFA, label: bool, need: int, rng: np.random.Generator
    ) -> Iterable[Counterexample]:
        cfg = self.config
        paths = accepting_paths(
            diff,
            max_paths=need,
            max_len=cfg.max_len,
            max_expansions=cfg.max_expansions,
            max_frontier=cfg.max_frontier,
            seed=int(rng.integers(2**63)),
        )
        if cfg.clustered:
            return (from_path(p, label, diff) for p in paths)
        return (Example(s, label) for s in _path_strings(paths, 4 * need, rng))

    def _beyond(
        self, too_little: DFA, too_much: DFA, already_given: Collection[Counterexample]
    ) -> Iterator[Counterexample]:
        """The shortest new witnesses longer than ``max_len`` (up to ``batch``, of one length, both
        sides together), for a round that has proven that no new one of length <= ``max_len``
        exists: a teacher that knows the languages differ never answers with nothing. The shortest
        string longer than ``max_len`` that an automaton of ``n`` states accepts is at most
        ``max_len + n`` long (a longer one has a loop past ``max_len`` to cut out), so the walks
        listed stop there; those up to ``max_len`` are all given already and are skipped."""
        cfg = self.config
        given = {identity(e) for e in already_given}
        found: list[Counterexample] = []
        for diff, label in ((too_little, True), (too_much, False)):
            if is_empty(diff):
                continue
            edges = Edges(diff, "step" if cfg.clustered else "class")
            walks = (
                w
                for w in shortest_walks(edges, cfg.max_len + diff.n_states)
                if len(w[1]) > cfg.max_len
            )
            found += _fresh(
                _as_examples(walks, label, diff.alphabet.universe, cfg.clustered), given, cfg.batch
            )[0]
        shortest = min(map(length, found), default=0)
        return itertools.islice((e for e in found if length(e) == shortest), cfg.batch)

    def _proven_complete(self, diff: DFA, collisions: int, found: int) -> bool:
        """Whether no other new counterexample exists, once every candidate has been examined: the
        shortest walks list every clustered example, but plain strings are checked by count."""
        if self.config.clustered:
            return True
        total = sum(completions(diff, self.config.max_len).by_length())
        return total <= collisions + found

    def _arrange(
        self, pos: list[Counterexample], neg: list[Counterexample]
    ) -> tuple[Counterexample, ...]:
        if self.config.order == "grouped":
            return (*pos, *neg)
        alternating = [e for pair in itertools.zip_longest(pos, neg) for e in pair if e is not None]
        if self.config.order == "by_length":
            return tuple(sorted(alternating, key=length))
        return tuple(alternating)


def _own_letters(target: str | Regex, default: CharSet) -> CharSet:
    """The letters a simple target uses (the reference code's alphabet for simple targets)."""
    try:
        tree = parse(target, "simple", default) if isinstance(target, str) else target
    except (RegexError, RecursionError):
        return default
    letters = used_chars(tree)
    return default if letters.is_empty() else letters


def _none_cegml(problem: str = "") -> Issue:
    return Issue(
        "hypothesis",
        "search_budget",
        problem or "the reference sampling found no witness within its budgets",
    )


def _why_none_cegml(target: DFA, guess: DFA, config: TeacherConfig) -> Issue:
    """Why the ``cegml`` sampling answered with nothing: its searches stop at ``max_len`` and the
    reference code then answers with no witness (its loop asks the learner again on the same
    data), so when the shortest witness is longer the languages differ only beyond ``max_len``;
    else its budgets stopped it."""
    try:
        witness = equivalence_witness(target, guess, state_limit=config.state_limit)
    except (AutomataError, MemoryError, RecursionError):
        witness = None
    if witness is None or len(witness.string) <= config.max_len:
        return _none_cegml()
    detail = (
        f"the languages differ only beyond length {config.max_len} (the shortest witness has "
        f"{len(witness.string)}), where the reference sampling does not look"
    )
    return Issue("hypothesis", "beyond_max_len", detail)


def _beyond_issue(
    pos: _Side, neg: _Side, max_len: int, beyond: Sequence[Counterexample], problems: Sequence[str]
) -> Issue:
    """What a round that found nothing new up to ``max_len`` answered instead: the record says
    that its counterexamples lie beyond ``max_len`` (or why there are none)."""
    shorter = (
        "every one of length <= {} was already given"
        if pos.collisions or neg.collisions
        else "none of length <= {} exists"
    )
    if beyond:
        return Issue(
            "hypothesis",
            "beyond_max_len",
            f"{shorter.format(max_len)}: the shortest beyond it have length {length(beyond[0])}",
        )
    if problems:
        return Issue(
            "hypothesis",
            "search_budget",
            f"{shorter.format(max_len)}; the search beyond it stopped: {'; '.join(problems)}",
        )
    return Issue(
        "hypothesis",
        "exhausted",
        f"{shorter.format(max_len)}, and every longer witness listed was already given",
    )


def _why_short(pos: _Side, neg: _Side, max_len: int) -> Issue:
    """Why a round stopped short of proving that no new counterexample is left (a proven round
    answers beyond ``max_len``, :func:`_beyond_issue`)."""
    problem = pos.problem or neg.problem
    if problem:
        return Issue("hypothesis", "search_budget", f"the counterexample search stopped: {problem}")
    return Issue(
        "hypothesis",
        "search_budget",
        f"no new counterexample found within the search budgets (max_len {max_len})",
    )


def _as_examples(
    walks: Iterable[Walk], label: bool, universe: CharSet, clustered: bool
) -> Iterator[Counterexample]:
    for _, chars in walks:
        if clustered:
            yield ClusteredExample(chars, label, universe)
        else:
            yield Example(_first(chars), label)


def _chained(sources: Sequence[_Source], problems: list[str]) -> Iterator[Any]:
    """The items of every source in turn, each guarded (see :func:`_guarded`)."""
    return itertools.chain.from_iterable(_guarded(source, problems) for source in sources)


def _guarded(source: _Source, problems: list[str]) -> Iterator[Any]:
    """The items of ``source()``, built only when reached; a guard error ends them and is noted."""
    try:
        yield from source()
    except _DRAW_GUARDS as error:
        problems.append(f"{type(error).__name__}: {error}" if str(error) else type(error).__name__)


def _path_strings(paths: Sequence[Path], limit: int, rng: np.random.Generator) -> Iterator[str]:
    """Up to ``limit`` strings spread over ``paths``, one per path per round (a path leaves once it
    has been spelled as often as it has strings), each step spelled with a random readable character."""
    rounds = [([readable(step.chars) for step in path.steps], path.size()) for path in paths]
    spelled = 0
    while rounds and spelled < limit:
        for members, _ in rounds[: limit - spelled]:
            yield "".join(_pick(m, rng) for m in members)
        spelled += min(len(rounds), limit - spelled)
        rounds = [(members, size - 1) for members, size in rounds if size > 1]


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
    if want <= 0:
        return out, examined
    for example in candidates:  # stops right after the last one needed, so no fallback runs early
        examined += 1
        key = identity(example)
        if key not in seen:
            seen.add(key)
            out.append(example)
            if len(out) == want:
                break
    return out, examined


def _odd_to_shorter(pos: _Side, neg: _Side, given: int) -> tuple[_Side, _Side]:
    """In ``shortest`` mode the odd slot of a batch goes to the side whose next witness is
    shorter, so a batch of one is *the* shortest counterexample; a tie alternates with the
    number of examples already given, so neither side starves."""
    longer_pos, longer_neg = length(pos.examples[-1]), length(neg.examples[-1])
    if longer_pos < longer_neg or (longer_pos == longer_neg and given % 2 == 0):
        return pos, attrs.evolve(neg, examples=neg.examples[:-1])
    return attrs.evolve(pos, examples=pos.examples[:-1]), neg
