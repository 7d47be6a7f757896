"""How close a hypothesis is to the target: held-out accuracy and the Diff Ratio.

The seed paper reports two distances besides exact success. *Accuracy* on an evaluation set of
800 strings of length at most 32, half drawn from the target and half from its complement, so that
a trivial hypothesis (∅ or Σ*) scores 50% instead of whatever the language's density would give it.
Each half is drawn with replacement, a length uniformly among those that have strings and then a
string of that length uniformly (:func:`automata.strings.sampling.sample_strings`): a small language keeps
its half of the weight by repeating strings. When one side has no string within the length bound,
the other side fills the set. *Diff Ratio* at ``k = 32`` is exact rather than sampled: the share of
strings up to length ``k`` on which the two languages disagree among those either accepts
(:func:`automata.strings.counting.diff_ratio`).

A hypothesis that does not compile scores accuracy 0 and Diff Ratio 1, as in the reference code.
Under the ``cegml`` profile the evaluation set is the reference code's instead: each string a fair
coin flip between target and complement (:func:`oracle.cegml.coin_flip_set`), so the balance is
only expected, not exact. Its datasets hold 3,000 strings; the paper reports 800 (the default size).
"""

from __future__ import annotations

import attrs
import numpy as np

from automata.algebra.ops import accepts_many, complement
from automata.core.dfa import DFA
from automata.strings.counting import diff_ratio
from automata.strings.sampling import sample_strings
from oracle import cegml
from oracle.config import Profile
from oracle.examples import Example


@attrs.frozen
class EvaluationSet:
    """Labeled strings for measuring accuracy, in a seeded shuffled order."""

    examples: tuple[Example, ...]

    def __len__(self) -> int:
        return len(self.examples)

    @property
    def positives(self) -> int:
        """How many examples are in the target."""
        return sum(e.label for e in self.examples)


@attrs.frozen
class Scores:
    """A hypothesis measured against the target."""

    accuracy: float
    diff_ratio: float


def evaluation_set(
    target: DFA, *, size: int = 800, max_len: int = 32, seed: int = 0, profile: Profile = "improved"
) -> EvaluationSet:
    """``size`` strings of length ``<= max_len``, balanced between ``target`` and its complement
    (under the ``cegml`` profile, a coin flip per string)."""
    if profile == "cegml":
        return EvaluationSet(tuple(cegml.coin_flip_set(target, size, max_len, seed)))
    rng = np.random.default_rng(seed)
    rest = complement(target)
    pos = sample_strings(target, size // 2, rng, max_len=max_len, unique=False)
    neg = sample_strings(rest, size - len(pos), rng, max_len=max_len, unique=False)
    if len(pos) + len(neg) < size:
        pos += sample_strings(
            target, size - len(pos) - len(neg), rng, max_len=max_len, unique=False
        )
    examples = [Example(s, True) for s in pos] + [Example(s, False) for s in neg]
    order = rng.permutation(len(examples))
    return EvaluationSet(tuple(examples[int(i)] for i in order))


def accuracy(hypothesis: DFA, examples: EvaluationSet) -> float:
    """The share of ``examples`` the hypothesis labels correctly (1.0 for an empty set)."""
    if not examples.examples:
        return 1.0
    predicted = accepts_many(hypothesis, [e.string for e in examples.examples])
    labels = np.fromiter((e.label for e in examples.examples), dtype=np.bool_, count=len(examples))
    return float(np.mean(predicted == labels))


def score(target: DFA, hypothesis: DFA | None, examples: EvaluationSet, *, k: int = 32) -> Scores:
    """Accuracy on ``examples`` and Diff Ratio at ``k``; a hypothesis that did not compile
    (``None``) scores 0 and 1."""
    if hypothesis is None:
        return Scores(0.0, 1.0)
    return Scores(accuracy(hypothesis, examples), diff_ratio(target, hypothesis, k))
