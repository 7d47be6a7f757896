"""The work of the symbolic learner's witness rounds
(:mod:`cegis.symbolic.merging.rounds.witnesses`): they stop growing the prefix tree past
:data:`MAX_WITNESS_NODES` (that round is patched and last), a candidate that misses more clustered
examples than a listing may have states is dropped without patching them in (its misses learned
as witnesses in the next round), and a round extends the previous round's tree rather than
building it again."""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence

import attrs
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from automata.algebra import ops
from automata.building.compile import compile_regex, from_text
from automata.core.dfa import DFA
from automata.errors import SizeLimitExceeded
from cegis.symbolic.merging import symbolic
from cegis.symbolic.merging.candidate import Candidate
from cegis.symbolic.merging.core.prefix_tree import PrefixTree, extended, prefix_tree
from cegis.symbolic.merging.core.quotient import LabelConflict
from cegis.symbolic.merging.core.run_cache import RunCache
from cegis.symbolic.merging.rounds import merges, patching, printing, selection, witnesses
from cegis.symbolic.merging.rounds.printing import printed as print_candidate
from cegis.symbolic.merging.settings import Settings
from oracle import ClusteredExample, Counterexample, Example
from oracle.clustered import misclassified
from regexlang import CharSet, parse
from regexlang.ast import Optional, Regex, concat, literal, union
from regexlang.ast import text as text_regex
from regexlang.normalize import normalize

ABC = CharSet.of("abc")
#: The single-word sample of test_merging: read through one representative path per clustered
#: example, every merge order misses some of their strings for six witness rounds.
EXAMPLES: tuple[Counterexample, ...] = (
    Example("accbc", True),
    Example("abb", False),
    Example("aabccaab", False),
    Example("", False),
    ClusteredExample((CharSet.of("bc"), ABC, ABC, ABC, ABC), False, ABC),
    ClusteredExample((CharSet.of("a"), CharSet.of("c"), CharSet.of("ab"), ABC, ABC), False, ABC),
    ClusteredExample((CharSet.of("a"), CharSet.of("ab"), ABC, ABC, ABC), False, ABC),
)
REPRESENTATIVE = attrs.evolve(symbolic(), readings=("representative",))


def rounds(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, bool]]:
    """The (tree nodes, patched) of every witness round the learner runs from now on."""
    seen: list[tuple[int, bool]] = []
    merged = merges.merged

    def spy(
        built: PrefixTree,
        learner: Settings,
        patch: bool,
        cache: RunCache,
        agreeing: bool = False,
    ) -> merges.Merged:
        seen.append((built.tree.nodes, patch))
        return merged(built, learner, patch, cache, agreeing)

    monkeypatch.setattr(witnesses, "merged", spy)
    return seen


def test_witness_rounds_stop_at_the_round_whose_tree_passes_the_node_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    unlimited = rounds(monkeypatch)
    assert REPRESENTATIVE.learn(EXAMPLES, "python", ABC).ok
    assert len(unlimited) > 2 and not any(patch for _, patch in unlimited[:2])
    first, second = unlimited[0][0], unlimited[1][0]
    monkeypatch.setattr(witnesses, "MAX_WITNESS_NODES", (first + second) // 2)
    limited = rounds(monkeypatch)
    assert REPRESENTATIVE.learn(EXAMPLES, "python", ABC).ok
    assert limited == [(first, False), (second, True)]


def test_a_candidate_missing_more_examples_than_a_listing_may_have_states_is_not_patched(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    patched: list[int] = []
    patch = patching.patched

    def spy(dfa: DFA, wrong: Sequence[Counterexample], universe: CharSet) -> DFA:
        patched.append(len(wrong))
        return patch(dfa, wrong, universe)

    monkeypatch.setattr(merges, "patched", spy)
    monkeypatch.setattr(witnesses, "WITNESS_ROUNDS", 0)  # the first round patches
    assert REPRESENTATIVE.learn(EXAMPLES, "python", ABC).ok
    assert max(patched) > 1
    patched.clear()
    monkeypatch.setattr(merges, "MAX_LISTING_STATES", 1)
    proposal = REPRESENTATIVE.learn(EXAMPLES, "python", ABC)
    assert proposal.ok and all(n <= 1 for n in patched)


def test_misses_too_many_to_patch_are_learned_as_witnesses_in_the_rounds_left(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A round that patches but finds every candidate missing too many examples to patch does not
    end the reading with nothing (a learner call that proposes nothing wastes an epoch): their
    witnesses are learned in the next round, as in the rounds before patching."""
    monkeypatch.setattr(witnesses, "WITNESS_ROUNDS", 0)  # every round patches
    monkeypatch.setattr(
        merges, "MAX_LISTING_STATES", 1
    )  # no candidate misses only one example here
    seen = rounds(monkeypatch)
    proposal = REPRESENTATIVE.learn(EXAMPLES, "python", ABC)
    assert proposal.ok and proposal.automaton is not None
    assert not misclassified(proposal.automaton, EXAMPLES)
    assert len(seen) > 1 and all(patch for _, patch in seen)
    assert all(
        before < after for (before, _), (after, _) in zip(seen, seen[1:])
    )  # each tree holds more witnesses


@example([("abca", True), ("accbc", False)])  # the second meets the positive accbc
@settings(derandomize=True, max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.text("abc", max_size=6), st.booleans()), max_size=12, unique_by=lambda t: t[0]
    )
)
def test_a_witness_round_extends_the_tree_the_examples_and_the_witnesses_would_build(
    more: list[tuple[str, bool]],
) -> None:
    """In the representative reading a witness round adds its strings to the previous round's tree
    instead of building it again: the same tree, node for node, whenever no string meets a
    differently labeled state (else it is built again)."""
    plain = [
        Example(string, label) for string, label in more if string not in {"abb", "aabccaab", ""}
    ]
    built = prefix_tree(EXAMPLES, ABC, "atoms", "representative", RunCache())
    grown = extended(built, plain, RunCache())
    try:
        rebuilt = prefix_tree([*EXAMPLES, *plain], ABC, "atoms", "representative", RunCache())
    except LabelConflict:
        assert grown is None
        return
    if grown is None:  # a string met a differently labeled state: the loop builds again
        return
    nodes = rebuilt.tree.nodes
    assert grown.tree.nodes == nodes and grown.alphabet == rebuilt.alphabet
    assert grown.words == rebuilt.words and grown.untied == rebuilt.untied
    for name in ("succ", "parent", "label", "depth", "labeled_by"):
        assert (getattr(grown.tree, name)[:nodes] == getattr(rebuilt.tree, name)[:nodes]).all()


def test_a_candidate_that_mislabels_an_example_is_not_printed_and_a_print_of_a_consistent_one_is_not_checked_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    examples = [Example("ab", True), Example("b", False), Example("aab", True)]
    everything = from_text("(a+b)*", "simple")  # fewer states, so scored first, but accepts "b"
    consistent = from_text("a a* b", "simple")
    printed: list[int] = []
    checked: list[int] = []
    original_print, original_check = print_candidate, misclassified

    def printing(dfa: DFA, *args: object) -> str:
        printed.append(dfa.n_states)
        return original_print(dfa, *args)  # type: ignore[arg-type]

    def checking(dfa: DFA, examples: Sequence[Counterexample]) -> tuple[Counterexample, ...]:
        checked.append(dfa.n_states)
        return original_check(dfa, examples)

    monkeypatch.setattr(selection, "printed", printing)
    monkeypatch.setattr(selection, "misclassified", checking)
    candidates = [Candidate(everything, "everything"), Candidate(consistent, "a a* b")]
    policy = selection.SelectionPolicy.of(
        symbolic(), examples, written=False, earlier=None, draft=False, refuted=None
    )
    proposal = selection.proposed(candidates, examples, "simple", ABC, policy, RunCache())
    assert proposal.text is not None and parse(proposal.text, "simple", ABC) is not None
    assert ops.equivalent(from_text(proposal.text, "simple"), consistent)
    assert printed == [consistent.n_states]  # the mislabelling candidate never reached the printer
    assert checked == [
        everything.n_states,
        consistent.n_states,
    ]  # the print of the consistent one is not checked


def test_a_candidate_past_the_printed_states_without_a_spelling_is_not_printed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    dfa = from_text("(a|b)*a(a|b)(a|b)", "simple")
    examples = [Example("aab", True), Example("b", False)]
    assert print_candidate(dfa, "simple", ABC, examples)
    monkeypatch.setattr(printing, "MOST_PRINTED_STATES", dfa.n_states - 1)
    with pytest.raises(SizeLimitExceeded):
        print_candidate(dfa, "simple", ABC, examples)


def test_a_print_nested_past_the_stack_falls_back_to_the_spelling() -> None:
    # The prefixes of a 200-letter word: state elimination nests 200 optional groups, deeper than
    # simplifying them can recurse; the spelling, a flat list of the prefixes, prints instead.
    word = "abc" * 67
    nested: Regex = Optional(literal(word[-1]))
    for char in reversed(word[:-1]):
        nested = Optional(concat(literal(char), nested))
    dfa = compile_regex(nested, ABC)
    examples = [Example(word[:5], True), Example("cc", False)]
    prefixes = union(*(text_regex(word[:length]) for length in range(len(word) + 1)))
    spelled = print_candidate(dfa, "python", ABC, examples, prefixes, written=True)
    assert re.fullmatch(spelled, word[:100]) and not re.fullmatch(spelled, word[:100] + "a")
    normalize.cache_clear()  # subtrees simplified by earlier prints would shorten the descent
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)  # Python's default; mypy's API, run by other tests, raises it
    try:
        with pytest.raises(SizeLimitExceeded, match="stack frames"):
            print_candidate(dfa, "python", ABC, examples)
    finally:
        sys.setrecursionlimit(limit)
