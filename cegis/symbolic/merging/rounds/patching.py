"""Patching a candidate's missed examples in as exceptions: their strings added or taken out.

When the witness rounds (:mod:`.witnesses`) are spent, a merged automaton that misses a few
clustered examples left out of the prefix tree is not refuted: the strings of the missed positives
are added to its language and those of the missed negatives taken out, exactly. The patched
language lists strings, so it competes only while it is small
(:data:`cegis.symbolic.merging.families.listing.MAX_LISTING_STATES`)."""

from __future__ import annotations

from collections.abc import Sequence

from automata.algebra.ops import difference, union
from automata.core.dfa import DFA
from cegis.symbolic.merging.candidate import check_state_limit
from cegis.symbolic.merging.families.listing import strings_of
from oracle.examples import Counterexample
from regexlang.charset import CharSet


def patched(dfa: DFA, wrong: Sequence[Counterexample], universe: CharSet) -> DFA:
    """``dfa`` with the strings of the misclassified examples added (positives) or taken out
    (negatives). Exact for consistent examples: no positive string is a negative one, so the
    exceptions touch no other example."""
    added = [e for e in wrong if e.label]
    removed = [e for e in wrong if not e.label]
    if added:  # all at once: one product and one minimization, not one per example
        dfa = union(dfa, strings_of(added, universe), state_limit=check_state_limit())
    if removed:
        dfa = difference(dfa, strings_of(removed, universe), state_limit=check_state_limit())
    return dfa
