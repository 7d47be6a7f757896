"""Angluin's L* with Rivest–Schapire counterexample processing: the exact-learning reference.

The learner keeps an observation table: access strings ``S`` (one per state of the hypothesis, rows
pairwise distinct), distinguishing suffixes ``E`` (starting with the empty string) and the
membership answers seen so far. Each epoch it closes the table (every one-letter extension of an
access string has the row of some access string), reads the hypothesis DFA off it, and processes
every example the hypothesis gets wrong as a counterexample: Rivest and Schapire's binary search
finds the one suffix that, added to ``E``, splits a new state off, so the table only grows by what
the counterexample proves. It stops when the hypothesis satisfies every example, clustered ones
universally (a clustered example that is not satisfied yields a concrete misclassified string of
its own). The examples answer every query they cover (a string of a clustered example has its
label), so the membership oracle is asked only what the examples do not already say.

Letters. Over a small universe (simple ``{a,b,c}``, extended's 63 characters) the letters are the
universe's characters, so the hypothesis is exact whatever the target; the printed regex still
reads ``[A-Za-z]`` because DFA → regex groups the characters leading to the same state. Over a large
universe (python, all of Unicode) a letter is a class of the partition the examples' character
sets generate (one representative per class), which is exact when the target does not split those
classes.

The table travels between epochs as the proposal's memo (an immutable :class:`Table`), encoded as
JSON for the records so a resumed run continues with the same table. The search runs in a worker
thread; a table past ``max_states`` states is a ``budget`` failure.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable

import attrs
import numpy as np

from automata.core.alphabet import Alphabet, partition
from automata.core.dfa import DFA
from automata.printing.readable import draft
from cegis.errors import CegisError
from cegis.hypothesis import print_hypothesis
from cegis.learner import (
    LearnerContext,
    LearnerCost,
    Proposal,
    ProposalFailure,
    RestartableLearner,
)
from oracle.examples import ClusteredExample, Counterexample, Example
from oracle.protocol import CountsQueries, MembershipOracle
from regexlang.charset import CharSet

#: Universes up to this many characters are learned letter by letter (exact for any target).
SMALL_UNIVERSE = 256


@attrs.frozen
class Table:
    """An observation table: access strings, suffixes and the membership answers known so far."""

    prefixes: tuple[str, ...] = ("",)
    suffixes: tuple[str, ...] = ("",)
    answers: tuple[tuple[str, bool], ...] = ()


class _Failed(CegisError):
    """A typed failure leaving the search (internal: becomes a ProposalFailure)."""

    def __init__(self, failure: ProposalFailure) -> None:
        super().__init__(str(failure))
        self.failure = failure


class _Session:
    """One epoch's work on a table (mutable scratch space inside one call of ``propose``)."""

    def __init__(
        self,
        table: Table,
        letters: tuple[str, ...],
        oracle: MembershipOracle,
        examples: tuple[Counterexample, ...],
        max_states: int,
    ) -> None:
        self.prefixes = list(table.prefixes)
        self.suffixes = list(table.suffixes)
        self.answers = dict(table.answers)
        self.answers.update((e.string, e.label) for e in examples if isinstance(e, Example))
        self.clustered: dict[int, list[ClusteredExample]] = {}
        for example in examples:
            if isinstance(example, ClusteredExample):
                self.clustered.setdefault(len(example.positions), []).append(example)
        self.letters = letters
        self.oracle = oracle
        self.max_states = max_states

    def member(self, string: str) -> bool:
        known = self.answers.get(string)
        if known is None:
            known = next(
                (e.label for e in self.clustered.get(len(string), ()) if string in e), None
            )
            if known is None:
                known = self.oracle.label(string)
            self.answers[string] = known
        return known

    def row(self, prefix: str) -> tuple[bool, ...]:
        return tuple(self.member(prefix + suffix) for suffix in self.suffixes)

    def close(self) -> dict[tuple[bool, ...], int]:
        """Add access strings until every one-letter extension has a row in ``S``; the row index."""
        rows = {self.row(p): i for i, p in enumerate(self.prefixes)}
        i = 0
        while i < len(self.prefixes):
            for letter in self.letters:
                extension = self.prefixes[i] + letter
                row = self.row(extension)
                if row not in rows:
                    if len(self.prefixes) >= self.max_states:
                        raise _Failed(
                            ProposalFailure("budget", f"more than {self.max_states} states")
                        )
                    rows[row] = len(self.prefixes)
                    self.prefixes.append(extension)
            i += 1
        return rows

    def hypothesis(self, alphabet: Alphabet) -> tuple[DFA, list[str]]:
        """The DFA read off the closed table, and the access string of each state."""
        rows = self.close()
        transitions = np.array(
            [[rows[self.row(p + letter)] for letter in self.letters] for p in self.prefixes],
            dtype=np.int32,
        )
        accepting = np.array([self.member(p) for p in self.prefixes], dtype=np.bool_)
        return DFA(transitions, accepting, 0, alphabet), list(self.prefixes)

    def split(self, word: str, dfa: DFA, access: list[str]) -> None:
        """Rivest–Schapire: add the suffix of ``word`` on which the hypothesis first goes wrong."""

        def alpha(i: int) -> bool:
            state = dfa.start
            for cls in dfa.alphabet.encode(word[:i]):
                state = int(dfa.transitions[state, cls])
            return self.member(access[state] + word[i:])

        lo, hi, first = 0, len(word), self.member(word)
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if alpha(mid) == first:
                lo = mid
            else:
                hi = mid
        suffix = word[hi:]
        if suffix in self.suffixes:  # only possible when the oracle contradicts the table
            raise _Failed(
                ProposalFailure(
                    "inconsistent", f"membership answers contradict themselves on {word!r}"
                )
            )
        self.suffixes.append(suffix)

    def table(self) -> Table:
        return Table(tuple(self.prefixes), tuple(self.suffixes), tuple(self.answers.items()))


def letters_for(universe: CharSet, examples: Iterable[Counterexample]) -> Alphabet:
    """The alphabet L* learns over: one class per character of a small universe, else the classes
    of the partition the examples' characters and positions generate."""
    if len(universe) <= SMALL_UNIVERSE:
        return partition(universe, (CharSet.of(c) for c in universe))
    sets: set[CharSet] = set()
    for example in examples:
        if isinstance(example, Example):
            sets.update(CharSet.of(c) for c in example.string)
        else:
            sets.update(example.positions)
    return partition(universe, sets)


class _Witnesses:
    """Finds a string of an example that a hypothesis labels wrongly. The classes each clustered
    position covers are looked up once per call of ``propose`` (character by character when the
    position is small), since the same positions are checked against every hypothesis."""

    def __init__(self, alphabet: Alphabet) -> None:
        self.alphabet = alphabet
        self.covered: dict[CharSet, list[int]] = {}

    def classes(self, chars: CharSet) -> list[int]:
        found = self.covered.get(chars)
        if found is None:
            if len(chars) <= SMALL_UNIVERSE:
                found = sorted({self.alphabet.class_of(c) for c in chars} - {-1})
            else:
                found = self.alphabet.classes_within(chars)
            self.covered[chars] = found
        return found

    def wrong(self, dfa: DFA, example: Counterexample) -> str | None:
        """A string of ``example`` that ``dfa`` labels differently from it, or None."""
        if isinstance(example, Example):
            return None if dfa.accepts(example.string) == example.label else example.string
        frontier = {dfa.start: ""}  # state -> the first string found reaching it
        for chars in example.positions:
            following: dict[int, str] = {}
            for state, prefix in frontier.items():
                for cls in self.classes(chars):
                    member = self.alphabet.representative(cls)
                    char = (
                        member if member in chars else (self.alphabet.classes[cls] & chars).first()
                    )
                    following.setdefault(int(dfa.transitions[state, cls]), prefix + char)
            frontier = following
        wrong = [
            s
            for state, s in sorted(frontier.items())
            if bool(dfa.accepting[state]) != example.label
        ]
        return wrong[0] if wrong else None


def learn(
    table: Table,
    alphabet: Alphabet,
    examples: tuple[Counterexample, ...],
    oracle: MembershipOracle,
    max_states: int,
) -> tuple[DFA, Table]:
    """Refine ``table`` until its hypothesis satisfies every example; the hypothesis and the table."""
    session = _Session(
        table,
        tuple(alphabet.representative(c) for c in range(len(alphabet))),
        oracle,
        examples,
        max_states,
    )
    for example in examples:
        if (
            isinstance(example, ClusteredExample)
            and example.label
            and not all(p.issubset(alphabet.universe) for p in example.positions)
        ):
            raise _Failed(
                ProposalFailure(
                    "outside_dialect", f"{example.text()!r} has characters outside the universe"
                )
            )
    witnesses = _Witnesses(alphabet)
    while True:
        dfa, access = session.hypothesis(alphabet)
        wrong = next(
            (w for w in (witnesses.wrong(dfa, e) for e in examples) if w is not None), None
        )
        if wrong is None:
            return dfa, session.table()
        if any(alphabet.class_of(c) < 0 for c in wrong):
            raise _Failed(ProposalFailure("outside_dialect", f"{wrong!r} leaves the universe"))
        if session.member(wrong) == dfa.accepts(wrong):
            raise _Failed(
                ProposalFailure(
                    "inconsistent", f"the membership oracle and the examples disagree on {wrong!r}"
                )
            )
        session.split(wrong, dfa, access)


@attrs.frozen
class LStarLearner(RestartableLearner[Table]):
    """L* over a membership oracle; the loop's equivalence queries are the teacher's verdicts."""

    max_states: int = 10_000
    name: str = "lstar"
    needs_membership: bool = True

    async def propose(self, context: LearnerContext[Table]) -> Proposal[Table]:
        """The hypothesis of the closed table after processing every misclassified example."""
        oracle = context.membership
        if oracle is None:
            return Proposal(None, failure=ProposalFailure("budget", "L* needs a membership oracle"))
        previous = context.previous.memo if context.previous is not None else None
        table = Table() if previous is None else previous
        alphabet = letters_for(context.universe, context.examples)
        try:
            dfa, table = await asyncio.to_thread(
                learn, table, alphabet, context.examples, oracle, self.max_states
            )
        except _Failed as failed:
            return Proposal(None, failure=failed.failure, memo=table)
        regex = draft(dfa, dialect=context.dialect)  # the loop prints a run's last one readably
        text = print_hypothesis(regex, context.dialect, context.universe)
        cost = LearnerCost(
            membership_queries=oracle.queries if isinstance(oracle, CountsQueries) else 0
        )
        return Proposal(
            regex,
            text,
            f"{dfa.n_states} states, {len(table.suffixes)} suffixes",
            cost=cost,
            memo=table,
            draft=True,
        )

    def encode_memo(self, memo: Table) -> object:
        """The table as JSON data."""
        return {
            "prefixes": list(memo.prefixes),
            "suffixes": list(memo.suffixes),
            "answers": [list(a) for a in memo.answers],
        }

    def decode_memo(self, data: object) -> Table | None:
        """The table :meth:`encode_memo` wrote (None for anything else: the run starts afresh)."""
        if not isinstance(data, dict):
            return None
        return Table(
            tuple(data["prefixes"]),
            tuple(data["suffixes"]),
            tuple((s, bool(b)) for s, b in data["answers"]),
        )
