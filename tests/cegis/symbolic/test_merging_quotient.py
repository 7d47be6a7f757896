"""The compiled quotient (cegis.symbolic.merging.core._kernels through Quotient): a merge equals the naive
determinization closure of the prefix tree, its score counts the equally labeled states it joins,
a conflict is reported exactly when two labels meet, and undo restores every array."""

from __future__ import annotations

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from cegis.symbolic.merging.core import _kernels
from cegis.symbolic.merging.core.prefix_tree import prefix_tree
from cegis.symbolic.merging.core.quotient import ACCEPT, REJECT, UNKNOWN, LabelConflict, Quotient
from cegis.symbolic.merging.core.run_cache import RunCache
from cegis.symbolic.merging.core.symbols import SymbolicWord, encoder
from oracle.examples import ClusteredExample, Counterexample, Example
from regexlang.charset import CharSet

samples = st.dictionaries(st.text("012", max_size=5), st.booleans(), min_size=1, max_size=12)


def reference(tree: Quotient, keep: int, absorb: int) -> tuple[list[set[int]], bool, int]:
    """The blocks of tree nodes after merging ``absorb`` into ``keep`` and closing under
    determinization, computed naively from the unmerged tree; whether labels clash; the score."""
    nodes = tree.nodes
    block = list(range(nodes))
    edges = [tree.edges(n) for n in range(nodes)]
    pending = [(keep, absorb)]
    while pending:
        a, b = pending.pop()
        a, b = block[a], block[b]
        if a != b:
            block = [a if x == b else x for x in block]
            members = [n for n in range(nodes) if block[n] == a]
            for symbol in range(3):
                children = [edges[n][symbol] for n in members if symbol in edges[n]]
                pending += [(children[0], c) for c in children[1:]]
    blocks: dict[int, set[int]] = {}
    for n, b in enumerate(block):
        blocks.setdefault(b, set()).add(n)
    clash, score = False, 0
    for block_nodes in blocks.values():
        labels = [int(tree.label[n]) for n in block_nodes if tree.label[n] != UNKNOWN]
        clash |= len(set(labels)) > 1
        score += max(len(labels) - 1, 0)
    return sorted(blocks.values(), key=min), clash, score


@settings(derandomize=True, max_examples=150, deadline=None)
@given(samples, st.data())
def test_a_merge_is_the_determinization_closure_and_undo_restores_it(
    labels: dict[str, bool], data: st.DataObject
) -> None:
    words = [SymbolicWord(tuple((int(c),) for c in s), label) for s, label in labels.items()]
    tree, _ = Quotient.prefix_tree(words)
    nodes = tree.nodes
    keep, absorb = data.draw(st.integers(0, nodes - 1)), data.draw(st.integers(0, nodes - 1))
    blocks, clash, score = reference(tree, keep, absorb)
    before = [a.copy() for a in (tree.succ, tree.parent, tree.label, tree.labeled_by)]
    mark = tree.checkpoint()
    got = tree.merge(keep, absorb)
    if clash:
        assert got is None
    else:
        assert got == score
        found: dict[int, set[int]] = {}
        for n in range(nodes):
            found.setdefault(tree.find(n), set()).add(n)
        assert sorted(found.values(), key=min) == blocks
    tree.undo(mark)
    assert all(
        (a == b).all()
        for a, b in zip(before, (tree.succ, tree.parent, tree.label, tree.labeled_by))
    )


@settings(derandomize=True, max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.text("012", max_size=5), st.booleans()), min_size=1, max_size=12))
def test_the_prefix_tree_has_a_node_per_prefix_and_stops_at_the_first_contradiction(
    pairs: list[tuple[str, bool]],
) -> None:
    words = [SymbolicWord(tuple((int(c),) for c in s), label) for s, label in pairs]
    first: dict[str, int] = {}
    clash = None
    for index, (string, label) in enumerate(pairs):
        earlier = first.setdefault(string, index)
        if pairs[earlier][1] != label:
            clash = (earlier, index)
            break
    try:
        tree, left_out = Quotient.prefix_tree(words)
    except LabelConflict as conflict:
        assert clash is not None and (conflict.first, conflict.second, conflict.inserting) == (
            *clash,
            clash[1],
        )
        return
    assert clash is None and left_out == ()
    prefixes = {s[:k] for s, _ in pairs for k in range(len(s) + 1)}
    assert tree.nodes == len(prefixes)
    for string, label in pairs:
        node = 0
        for c in string:
            node = tree.edges(node)[int(c)]
        assert tree.label[node] == (ACCEPT if label else REJECT)


positions = st.lists(st.sampled_from([0, 1, 2]), min_size=1, max_size=3, unique=True).map(
    lambda p: tuple(sorted(p))
)


@settings(derandomize=True, max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.lists(positions, max_size=4), st.booleans()), min_size=1, max_size=10),
    st.sampled_from([2, 256]),
)
def test_a_tied_word_leads_every_class_of_a_position_one_way_to_its_label(
    pairs: list[tuple[list[tuple[int, ...]], bool]], spell_limit: int
) -> None:
    words = [SymbolicWord(tuple(p), label) for p, label in pairs]
    try:
        tree, left_out = Quotient.prefix_tree(words, spell_limit=spell_limit)
    except LabelConflict:
        return
    for index, word in enumerate(words):
        if index in left_out:
            assert word.combinations > spell_limit
            continue
        states = {0}
        for (
            position
        ) in word.positions:  # every string the word stands for: one state per position when tied
            states = {tree.find(tree.edges(tree.find(s))[c]) for s in states for c in position}
            assert len(states) == 1 or word.combinations <= spell_limit
        assert {int(tree.label[s]) for s in states} == {ACCEPT if word.label else REJECT}


def test_a_word_standing_for_more_strings_than_a_machine_integer_counts_is_tied() -> None:
    """A clustered word's combinations are a Python int (3 ** 64 here): it is tied (or left out)
    like any, not counted in 64 bits."""
    huge = SymbolicWord(((0, 1, 2),) * 64, False)
    tree, left_out = Quotient.prefix_tree([SymbolicWord(((0,), (1,)), True), huge], spell_limit=256)
    assert huge.combinations > 2**63 and left_out == ()
    state = 0
    for _ in range(64):
        state = tree.find(tree.edges(tree.find(state))[2])
    assert tree.label[state] == REJECT


def test_a_clustered_example_of_more_strings_than_a_machine_integer_counts_is_read_in_both_readings() -> (
    None
):
    abc = CharSet.of("abc")
    examples = [
        ClusteredExample((CharSet.of("a"), CharSet.of("b")), True, abc),
        ClusteredExample((abc,) * 64, False, abc),
    ]
    for reading in ("tied", "representative"):
        built = prefix_tree(examples, abc, "atoms", reading, RunCache())
        assert built.words[1].combinations == 3**64
        assert [e for e, _ in built.untied] == ([] if reading == "tied" else [examples[1]])


@settings(derandomize=True, max_examples=150, deadline=None)
@given(
    st.dictionaries(st.text("012", max_size=6), st.booleans(), min_size=2, max_size=20), st.data()
)
def test_a_merge_that_met_no_changed_state_scores_the_same_again(
    labels: dict[str, bool], data: st.DataObject
) -> None:
    """What red-blue merging relies on to keep a trial's score: after other merges taken that
    change none of the states the trial met, trying it again gives the same score, or conflict."""
    words = [SymbolicWord(tuple((int(c),) for c in s), label) for s, label in labels.items()]
    tree, _ = Quotient.prefix_tree(words)
    nodes = st.integers(0, tree.nodes - 1)
    met = np.zeros(1 << 10, dtype=np.int32)
    keep, absorb = data.draw(nodes), data.draw(nodes)
    start = tree.checkpoint()
    first = _kernels.merge(tree.arrays, keep, absorb, met)
    seen = set(met[1 : met[0] + 1].tolist())
    assert met[0] < len(met) and {tree.find(keep), tree.find(absorb)} <= seen
    tree.undo(start)
    for _ in range(data.draw(st.integers(1, 3))):  # merges taken, each kept only when it succeeds
        mark = tree.checkpoint()
        if tree.merge(tree.find(data.draw(nodes)), tree.find(data.draw(nodes))) is None:
            tree.undo(mark)
    changed = {int(node) for node in tree.log[: tree.checkpoint(), 1]}
    if not changed & seen:
        mark = tree.checkpoint()
        assert _kernels.merge(tree.arrays, keep, absorb, met) == first
        tree.undo(mark)
    tree.undo(start)


def test_a_tree_built_after_another_of_the_same_first_examples_is_the_one_built_alone() -> None:
    """:func:`prefix_tree` takes the words of the examples its last build began with from it."""
    digits = CharSet.of("0123")
    first: list[Counterexample] = [
        ClusteredExample((CharSet.of("01"), CharSet.of("23")), True, digits),
        *(Example(s, False) for s in ("0", "10", "31")),
    ]
    more: list[Counterexample] = [
        *first,
        Example("02", True),
        Example("3", False),
    ]  # plain: the same alphabet
    alone = prefix_tree(more, digits, "atoms", "tied", RunCache())
    prefix_tree(first, digits, "atoms", "tied", RunCache())
    after = prefix_tree(more, digits, "atoms", "tied", RunCache())
    assert list(after.words) == list(map(encoder(after.alphabet, RunCache()), more))
    assert (
        after.words == alone.words
        and after.untied == alone.untied
        and after.tree.nodes == alone.tree.nodes
    )
    for name in ("succ", "parent", "label", "labeled_by"):
        assert (getattr(after.tree, name) == getattr(alone.tree, name)).all()


@settings(derandomize=True, max_examples=150, deadline=None)
@given(
    st.dictionaries(st.text("012", max_size=6), st.booleans(), min_size=2, max_size=20), st.data()
)
def test_each_rows_degree_counts_its_children_through_merges_and_undo(
    labels: dict[str, bool], data: st.DataObject
) -> None:
    """The merge reads a row only up to its last child (``degree``): after words tied in, merges
    taken or refused and undone, each node's degree is the children its row holds."""

    def counted() -> bool:
        nodes = tree.nodes
        return bool(np.array_equal(tree.degree[:nodes], (tree.succ[:nodes] >= 0).sum(axis=1)))

    words = [
        SymbolicWord(tuple((int(c),) if c != "2" else (1, 2) for c in s), label)
        for s, label in labels.items()
    ]
    try:
        tree, _ = Quotient.prefix_tree(words)
    except LabelConflict:  # words tied into one state with two labels
        assume(False)
    assert counted()
    nodes = st.integers(0, tree.nodes - 1)
    start = tree.checkpoint()
    for _ in range(data.draw(st.integers(1, 4))):
        mark = tree.checkpoint()
        if tree.merge(tree.find(data.draw(nodes)), tree.find(data.draw(nodes))) is None:
            tree.undo(mark)
        assert counted()
    tree.undo(start)
    assert counted()
