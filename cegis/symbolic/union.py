"""The last-resort learner: the union of the positive examples, always consistent when anything is.

Each positive example becomes one option, a plain string as its literal text and a clustered one as
its sequence of character classes, so the hypothesis accepts exactly the strings the positives
stand for. It satisfies every negative example unless a negative shares a string with a positive;
then no regex can satisfy both, and the proposal is the typed failure ``inconsistent``. With no
positive at all the hypothesis is the empty language.
"""

from __future__ import annotations

import attrs

from cegis.hypothesis import print_hypothesis
from cegis.learner import Learner, LearnerContext, Proposal, ProposalFailure
from oracle.examples import ClusteredExample, Counterexample, Example
from regexlang.ast import Chars, Regex, concat, text, union


def as_regex(example: Counterexample) -> Regex:
    """The regex denoting exactly the strings of ``example``."""
    if isinstance(example, Example):
        return text(example.string)
    return concat(*(Chars(p) for p in example.positions))


def overlap(a: Counterexample, b: Counterexample) -> bool:
    """Whether two examples stand for a common string."""
    if isinstance(a, Example):
        return a.string == b.string if isinstance(b, Example) else a.string in b
    if isinstance(b, Example):
        return b.string in a
    return len(a.positions) == len(b.positions) and all(
        p & q for p, q in zip(a.positions, b.positions)
    )


def contradiction(
    examples: tuple[Counterexample, ...],
) -> tuple[Counterexample, Counterexample] | None:
    """A positive and a negative example that share a string, if any."""
    positives = [e for e in examples if e.label]
    plain = {e.string for e in positives if isinstance(e, Example)}
    clustered = [e for e in positives if isinstance(e, ClusteredExample)]
    for negative in (e for e in examples if not e.label):
        if isinstance(negative, Example) and negative.string in plain:
            return next(
                p for p in positives if isinstance(p, Example) and p.string == negative.string
            ), negative
        for positive in clustered if isinstance(negative, Example) else positives:
            if overlap(positive, negative):
                return positive, negative
    return None


@attrs.frozen
class UnionLearner(Learner[None]):
    """Proposes the union of the positive examples (the classical trivial consistent learner);
    it remembers nothing between epochs (its memo type is ``None``)."""

    name: str = "union"

    async def propose(self, context: LearnerContext[None]) -> Proposal[None]:
        """The union of the positives, or ``inconsistent`` when a negative contradicts a positive."""
        clash = contradiction(context.examples)
        if clash is not None:
            positive, negative = clash
            detail = f"positive {positive.text()!r} and negative {negative.text()!r} share a string"
            return Proposal(None, failure=ProposalFailure("inconsistent", detail))
        options = dict.fromkeys(as_regex(e) for e in context.examples if e.label)
        hypothesis = union(*options)
        return Proposal(hypothesis, print_hypothesis(hypothesis, context.dialect, context.universe))
