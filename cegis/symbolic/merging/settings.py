"""What the rounds read of a merging learner: its :class:`Settings`.

:class:`cegis.symbolic.merging.merger.MergingLearner` holds them (and the factories there choose
them: RPNI, EDSM, symbolic); the rounds take any value with these attributes, so they stand below
the learner that runs them."""

from __future__ import annotations

from typing import Protocol

from cegis.symbolic.merging.core.prefix_tree import TreeReading
from cegis.symbolic.merging.core.redblue import MergeOrder
from cegis.symbolic.merging.core.symbols import Granularity


class Settings(Protocol):
    """How a merging learner reads the examples and which merges and families it tries."""

    @property
    def granularity(self) -> Granularity: ...  # the alphabet: characters, or the examples' atoms

    @property
    def orders(self) -> tuple[MergeOrder, ...]: ...  # the merge orders whose automata compete

    @property
    def search_budget(self) -> int: ...  # trial merges for the exact search (0: none)

    @property
    def complete_alike(self) -> bool: ...  # unread symbols follow the most alike read symbol

    @property
    def readings(self) -> tuple[TreeReading, ...]: ...  # how clustered examples enter the tree

    @property
    def augmented(self) -> bool: ...  # the other families and the agreements take part

    @property
    def class_prior(self) -> bool: ...  # plain examples read through the prior over classes

    @property
    def listing_cap(self) -> bool: ...  # never answer longer than the positives listed
