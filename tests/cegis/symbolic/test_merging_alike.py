"""Where a merged automaton sends a symbol no example reads from a state
(:mod:`cegis.symbolic.merging.core.alike`): along the class the clustered examples group it with
most, and, with agreements to keep, the positive clusters alone."""

from __future__ import annotations

from automata.algebra.ops import accepts
from automata.jit.arrays import Int64Array
from cegis.symbolic.merging import symbolic
from cegis.symbolic.merging.core.alike import alike
from cegis.symbolic.merging.core.prefix_tree import prefix_tree
from cegis.symbolic.merging.core.symbols import SymbolicWord
from cegis.symbolic.merging.rounds.merges import merged
from oracle import ClusteredExample, Counterexample, Example
from regexlang import CharSet

#: Classes 0-3: a positive cluster groups 0 with 1 once; negative ones group 0 with 2 twice and 2
#: with 3 once; a plain word groups nothing.
WORDS = (
    SymbolicWord(((0, 1), (3,)), True),
    SymbolicWord(((0, 2),), False),
    SymbolicWord(((0, 2), (2, 3)), False),
    SymbolicWord.literal([1, 2, 3], True),
)


def rows(table: Int64Array) -> list[list[int]]:
    return [[int(k) for k in row if k >= 0] for row in table]


def test_alike_ranks_the_classes_every_cluster_groups_most_often_first() -> None:
    assert rows(alike(WORDS, 4)) == [[2, 1], [0], [0, 3], [2]]


def test_alike_from_positive_clusters_only_ignores_what_negatives_group() -> None:
    assert rows(alike(WORDS, 4, positives_only=True)) == [[1], [0], [], []]


U = CharSet.of("ab#")
#: ``aa`` and ``ab`` accepted: a and b alike where accepted; ``b`` or ``#`` first rejected: b and
#: ``#`` alike only in being rejected. No example reads ``#`` after ``a``.
EXAMPLES: tuple[Counterexample, ...] = (
    ClusteredExample((CharSet.of("a"), CharSet.of("ab")), True, U),
    Example("abab", True),
    ClusteredExample((CharSet.of("b#"), CharSet.of("ab#")), False, U),
    Example("", False),
)


def test_with_agreements_an_unread_symbol_follows_only_what_positives_group_it_with() -> None:
    learner = symbolic()
    before = merged(prefix_tree(EXAMPLES, U, "atoms", "tied"), learner, patch=False).candidates
    agreeing = merged(
        prefix_tree(EXAMPLES, U, "atoms", "tied"), learner, patch=False, agreeing=True
    ).candidates
    assert before and agreeing
    for candidate in (*before, *agreeing):  # every example labeled right either way
        assert all(accepts(candidate.automaton, s) for s in ("aa", "ab", "abab"))
        assert not any(accepts(candidate.automaton, s) for s in ("", "ba", "#a", "bb"))
    # Without agreements ``#`` after ``a`` follows ``b`` (the negatives group them): ``a#`` is
    # accepted, a short string no example shows; with them it goes to the rejecting sink.
    assert all(accepts(c.automaton, "a#") for c in before)
    assert not any(accepts(c.automaton, "a#") for c in agreeing)
