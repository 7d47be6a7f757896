"""The enumerative learner: bottom-up search by size over regex trees, deduplicated on what the
examples can observe, returning a smallest consistent regex or a typed failure past its budgets."""

from cegis.symbolic.enumerative.learner import (
    EnumerativeConfig,
    EnumerativeLearner,
    Synthesis,
    synthesize,
)

__all__ = ["EnumerativeConfig", "EnumerativeLearner", "Synthesis", "synthesize"]
