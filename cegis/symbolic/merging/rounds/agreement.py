"""What a shortest counterexample implies: below its length, the hypothesis was right.

When a teacher answers with shortest counterexamples, the earlier hypothesis labels every shorter
string as the target does (Ibarra & Jiang, JCSS 1991). A candidate that differs from it there is
refuted by a string whose label follows from the teacher's contract, with no query asked; the
:class:`Memory` keeps those strings, facts about the target, for the next proposal."""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from automata.algebra.ops import equivalence_witness
from automata.core.dfa import DFA
from automata.errors import AutomataError
from cegis.hypothesis import read_hypothesis
from cegis.learner import LearnerContext
from cegis.symbolic.merging.candidate import automaton_of
from cegis.symbolic.merging.core.symbols import interned
from oracle.examples import Example, length
from regexlang.charset import CharSet
from regexlang.dialects import Dialect
from regexlang.errors import RegexError


@attrs.frozen
class Agreement:
    """The target labels every string shorter than ``below`` as the regex ``hypothesis`` does."""

    hypothesis: str
    below: int


@attrs.frozen
class Memory:
    """What a learner carries from one proposal to the next: the agreement that holds the most, and
    the examples agreements have implied so far (in the order found)."""

    agreements: tuple[Agreement, ...] = ()
    implied: tuple[Example, ...] = ()


def remembered(context: LearnerContext) -> Memory:
    """The previous proposal's memory, with the agreement its verdict adds (:func:`agreements`)."""
    previous = context.previous
    known = (
        previous.memo if previous is not None and isinstance(previous.memo, Memory) else Memory()
    )
    return Memory(agreements(context), known.implied)


def agreements(context: LearnerContext) -> tuple[Agreement, ...]:
    """The agreement that holds the most: of the previous proposal's memo and the one its verdict
    implies when the teacher answered with shortest counterexamples, the one with the largest
    ``below`` (the newest on a tie). It alone constrains as much as all of them: every agreement
    says the target equals its hypothesis below its length, so a candidate that agrees with the
    longest one agrees with the target, hence with every other, below theirs."""
    previous, verdict = context.previous, context.verdict
    known = (
        previous.memo.agreements
        if previous is not None and isinstance(previous.memo, Memory)
        else ()
    )
    if previous is None or not previous.ok or verdict is None or not verdict.counterexamples:
        return known
    if not verdict.shortest:
        return known
    below = min(map(length, verdict.counterexamples))
    if not below or any(a.below > below for a in known):
        return known
    return (Agreement(previous.text, below),)


def encode(memo: object) -> object:
    """A :class:`Memory` as JSON data."""
    if not isinstance(memo, Memory):
        return None
    return {
        "agreements": [[a.hypothesis, a.below] for a in memo.agreements],
        "implied": [[e.string, e.label] for e in memo.implied],
    }


def decode(data: object) -> object:
    """The :class:`Memory` :func:`encode` wrote (or the agreements alone, as records written before
    the implied examples were kept hold them)."""
    if isinstance(data, list):
        data = {"agreements": data, "implied": []}
    if not isinstance(data, dict):
        return None
    agreed = tuple(Agreement(str(text), int(below)) for text, below in data["agreements"])
    return Memory(
        agreed, tuple(Example(str(string), bool(label)) for string, label in data["implied"])
    )


@attrs.frozen
class Agreements:
    """Agreements compiled once for a learner call (those that do not compile are skipped)."""

    automata: tuple[tuple[DFA, int], ...]

    @classmethod
    def compile(
        cls, items: Sequence[Agreement], dialect: Dialect, universe: CharSet, state_limit: int
    ) -> Agreements:
        """The agreements' hypotheses as automata over ``universe``."""
        out = []
        for item in items:
            try:
                out.append(
                    (
                        automaton_of(
                            read_hypothesis(item.hypothesis, dialect, universe),
                            universe,
                            state_limit,
                        ),
                        item.below,
                    )
                )
            except (RegexError, AutomataError):
                continue
        return cls(tuple(out))

    def implied(self, dfa: DFA) -> list[Example]:
        """For each agreement ``dfa`` breaks, the shortest string where it does, labeled as the
        earlier hypothesis (so as the target) labels it."""
        out = []
        for earlier, below in self.automata:
            witness = equivalence_witness(dfa, earlier)
            if witness is not None and len(witness.string) < below:
                out.append(interned(witness.string, witness.accepted_by == "right"))
        return out
