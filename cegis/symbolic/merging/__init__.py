"""Passive state-merging learners: RPNI and EDSM over characters, and the symbolic learner over
the atoms of the examples' character sets (:mod:`cegis.symbolic.merging.merger`)."""

from cegis.symbolic.merging.merger import MergingLearner, edsm, rpni, symbolic, symbolic_exbar
from cegis.symbolic.merging.core.redblue import MergeOrder

__all__ = ["MergeOrder", "MergingLearner", "edsm", "rpni", "symbolic", "symbolic_exbar"]
