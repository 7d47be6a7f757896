"""State-merging learners (RPNI, EDSM, symbolic): consistency with every example, checked with
Python ``re`` on every string an example stands for; identification from a characteristic sample;
typed failures; and whole runs of the learning loop."""

from __future__ import annotations

import asyncio
import itertools
import math
import re

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from automata import compile_regex, equivalent
from automata.algebra.ops import dead_state
from automata.core.minimize import minimize
from cegis.config import Budgets, LoopConfig
from cegis.learner import LearnerContext
from cegis.loop import run
from cegis.state import Task
from cegis.symbolic.merging import MergingLearner, edsm, rpni, symbolic
from cegis.symbolic.merging.core.prefix_tree import prefix_tree
from cegis.symbolic.merging.core.redblue import red_blue, table
from cegis.symbolic.merging.core.run_cache import RunCache
from cegis.symbolic.merging.rounds.agreement import Memory
from cegis.symbolic.merging.rounds.scoring import automaton_bits, number_bits, parts_bits, score
from oracle import ClusteredExample, Counterexample, ExactTeacher, Example, TeacherConfig
from regexlang import CharSet, Dialect, parse

#: The symbolic learner reading clustered examples only through one representative path each (and
#: learning again from the strings it misses), so the property tests exercise that reading alone.
REPRESENTATIVE = attrs.evolve(
    symbolic(), name="symbolic-representative", readings=("representative",)
)
LEARNERS = [rpni(), edsm(), symbolic(), REPRESENTATIVE]
SIGMA = CharSet.of("ab")


def learned(
    learner: MergingLearner, examples: list[Counterexample], universe: CharSet = SIGMA
) -> str:
    proposal = learner.learn(tuple(examples), "python", universe)
    assert proposal.ok, proposal.failure
    return proposal.text


def wrong(text: str, examples: list[Counterexample]) -> list[str]:
    """Strings whose label under ``text`` (Python ``re``) differs from their example's."""
    pattern = re.compile(text)
    out = []
    for example in examples:
        strings = [example.string] if isinstance(example, Example) else list(example.strings())
        out += [s for s in strings if (pattern.fullmatch(s) is not None) != example.label]
    return out


words = st.text(alphabet="ab", max_size=7)


@pytest.mark.parametrize("learner", LEARNERS, ids=lambda learner: learner.name)
@settings(max_examples=40)
@given(st.dictionaries(words, st.booleans(), min_size=1, max_size=25))
def test_consistent_with_random_plain_examples(
    learner: MergingLearner, labels: dict[str, bool]
) -> None:
    examples: list[Counterexample] = [Example(s, label) for s, label in labels.items()]
    assert wrong(learned(learner, examples), examples) == []


TARGETS = ["a(a|b)*", "(ab)*", "(a|b)*bb(a|b)*", "b*ab*", "(a|bb)*a?", "((a|b)(a|b))*", "a*b*"]
UNIVERSE = CharSet.of("abc0")
position_sets = st.sets(st.sampled_from("abc0"), min_size=1).map(CharSet.of)


@pytest.mark.parametrize("learner", LEARNERS, ids=lambda learner: learner.name)
@settings(max_examples=40)
@given(
    st.sampled_from(["[ab]c*", "(a|[bc]0)*", "[abc]*0[abc]*", "a[bc]?0*", "(0|[abc][abc])*"]),
    st.lists(st.lists(position_sets, max_size=5), min_size=1, max_size=15),
)
def test_consistent_with_random_clustered_examples(
    learner: MergingLearner, target: str, shapes: list[list[CharSet]]
) -> None:
    """Clustered examples whose strings all share a label under a target; the hypothesis must
    label every one of those strings as the example does."""
    pattern = re.compile(target)
    examples: list[Counterexample] = []
    for positions in shapes:
        labels = {pattern.fullmatch("".join(s)) is not None for s in itertools.product(*positions)}
        if len(labels) == 1:
            examples.append(ClusteredExample(tuple(positions), labels.pop(), UNIVERSE))
    if examples:
        assert wrong(learned(learner, examples, UNIVERSE), examples) == []


def all_strings(max_len: int) -> list[str]:
    return ["".join(t) for n in range(max_len + 1) for t in itertools.product("ab", repeat=n)]


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("learner", LEARNERS, ids=lambda learner: learner.name)
def test_identifies_small_targets_from_a_characteristic_sample(
    learner: MergingLearner, target: str
) -> None:
    """Every string up to length 6 contains a characteristic sample of these 1-4 state targets, so
    RPNI (and the other orders) must return the target language itself."""
    pattern = re.compile(target)
    examples: list[Counterexample] = [
        Example(s, pattern.fullmatch(s) is not None) for s in all_strings(6)
    ]
    text = learned(learner, examples)
    got, want = (compile_regex(parse(t, "python"), SIGMA) for t in (text, target))
    assert equivalent(got, want), (text, target)


def test_clustered_positions_generalize_to_every_class_member() -> None:
    examples: list[Counterexample] = [
        ClusteredExample((CharSet.of("abcxyz"), CharSet.of("#")), True, CharSet.of("#abcxyz0")),
        Example("0#", False),
        Example("", False),
    ]
    text = learned(symbolic(), examples, CharSet.of("#abcxyz0"))
    assert all(re.fullmatch(text, c + "#") for c in "abcxyz")


def test_a_single_word_is_learned_as_a_word_not_as_a_loop_no_positive_pumps() -> None:
    # The paper teacher's first answer for the target accbc. Smaller DFAs with a loop fit as well
    # (ac(c[a-c]c)*), but the one positive goes round each loop once; the finite language of the
    # positives is preferred (cegis.symbolic.merging.rounds.pumping) until a positive goes round one twice.
    abc, ab, bc, a, c = (
        CharSet.of("abc"),
        CharSet.of("ab"),
        CharSet.of("bc"),
        CharSet.of("a"),
        CharSet.of("c"),
    )
    examples: list[Counterexample] = [
        Example("accbc", True),
        Example("abb", False),
        Example("aabccaab", False),
        Example("", False),
        ClusteredExample((bc, abc, abc, abc, abc), False, abc),
        ClusteredExample((a, c, ab, abc, abc), False, abc),
        ClusteredExample((a, ab, abc, abc, abc), False, abc),
    ]
    assert learned(symbolic(), examples, abc) == "accbc"
    pumped = learned(symbolic(), [*examples, Example("accbcbcbc", True)], abc)
    assert "*" in pumped or "+" in pumped


def test_the_description_length_prefers_a_larger_hypothesis_that_explains_a_coincidence() -> None:
    # Twelve positives all contain "cafe": under [a-f]*fe[a-f]* that is a coincidence worth ~5 bits
    # each, more than the two extra states of [a-f]*cafe[a-f]* cost; with two positives it is not.
    universe = CharSet.of("abcdef")
    longer, shorter = (
        compile_regex(parse(p, "python", universe), universe)
        for p in ("[a-f]*cafe[a-f]*", "[a-f]*fe[a-f]*")
    )
    contexts = ["e", "ae", "f", "fb", "faf", "", "ac", "dfe", "c", "cc", "dece", "b"]
    positives = [c + "cafe" + c[::-1] for c in contexts]
    assert longer.n_states > shorter.n_states
    assert score(minimize(longer), positives, RunCache()) < score(
        minimize(shorter), positives, RunCache()
    )
    assert score(minimize(longer), positives[:2], RunCache()) > score(
        minimize(shorter), positives[:2], RunCache()
    )


def test_an_automaton_costs_the_edges_a_regex_writer_spells() -> None:
    # Over {a,b,c} a character costs log2(4) = 2 bits, a target among 3 live states or the dead
    # one 2 bits. The states of "ab" before its letters: accept bit, 2 edges (log2 3 bits), the
    # letter (its complement, the free "every other character", goes to the dead state), 2 targets;
    # the final state: accept bit, 1 edge (1 bit), no set, 1 target.
    universe = CharSet.of("abc")
    word = minimize(compile_regex(parse("ab", "python", universe), universe))
    live = [s for s in range(word.n_states) if s != dead_state(word)]
    assert len(live) == 3
    before_a_letter = 1 + math.log2(3) + 2 + 2 * 2
    assert automaton_bits(word, live, RunCache()) == pytest.approx(
        2 * before_a_letter + (1 + 1 + 2)
    )
    # Over 63 characters the word "Beaker" is a shorter description of itself than [A-Za-z]{6} (a
    # table over the word's 6 classes cost more than 2 classes and naming the word among 52^6).
    big = (
        CharSet.range("A", "Z")
        | CharSet.range("a", "z")
        | CharSet.range("0", "9")
        | CharSet.of("#")
    )
    beaker, loop = (
        minimize(compile_regex(parse(p, "python", big), big)) for p in ("Beaker", "[A-Za-z]{6}")
    )
    assert score(beaker, ["Beaker"], RunCache())[0] < score(loop, ["Beaker"], RunCache())[0]


def test_a_spelled_hypothesis_costs_its_parts_when_they_are_fewer_bits() -> None:
    # A product is described by its factors, a complement by what it complements, ".*w.*" by the
    # word and two one-state gaps (not by the fallback edges of its automaton), a counted
    # repetition by what it repeats and its bounds (not by its unrolled copies).
    big = (
        CharSet.range("A", "Z")
        | CharSet.range("a", "z")
        | CharSet.range("0", "9")
        | CharSet.of("#")
    )

    def bits(pattern: str) -> float:
        return parts_bits(parse(pattern, "extended", big), big, RunCache())

    def automaton(pattern: str) -> float:
        dfa = minimize(compile_regex(parse(pattern, "extended", big), big))
        return automaton_bits(
            dfa, [s for s in range(dfa.n_states) if s != dead_state(dfa)], RunCache()
        )

    gap = "[A-Za-z0-9#]*"
    west, digit = f"{gap}Westbury{gap}", f"{gap}[0-9]{gap}"
    assert bits(f"{west}&{digit}") == pytest.approx(bits(west) + bits(digit))
    assert bits(f"{west}&{digit}") < automaton(f"{west}&{digit}")
    assert bits(f"~({west})") == pytest.approx(bits(west))
    assert bits(west) == pytest.approx(2 * automaton(gap) + automaton("Westbury"))
    assert bits(west) < automaton(west)
    assert bits("([a-z]+#){0,40}") - bits("([a-z]+#){0,4}") == pytest.approx(
        number_bits(40) - number_bits(4)
    )
    # and is scored so when that is fewer bits than its automaton
    product = minimize(compile_regex(parse(f"{west}&{digit}", "extended", big), big))
    spelled = parse(f"{west}&{digit}", "extended", big)
    assert (
        score(product, ["8Westbury"], RunCache(), spelled)[0]
        < score(product, ["8Westbury"], RunCache())[0]
    )


@pytest.mark.parametrize("learner", LEARNERS, ids=lambda learner: learner.name)
def test_contradictory_examples_are_a_typed_failure(learner: MergingLearner) -> None:
    proposal = learner.learn(
        (Example("ab", True), Example("ba", False), Example("ab", False)), "python", SIGMA
    )
    assert (
        not proposal.ok
        and proposal.failure is not None
        and proposal.failure.kind == "search_exhausted"
    )


def test_a_positive_outside_the_universe_is_a_typed_failure() -> None:
    proposal = symbolic().learn((Example("ax", True),), "python", SIGMA)
    assert proposal.failure is not None and "universe" in proposal.failure.detail


def test_no_positive_example_gives_a_language_that_rejects_the_negatives() -> None:
    examples: list[Counterexample] = [Example("", False), Example("a", False)]
    dialects: tuple[Dialect, ...] = ("simple", "extended", "python")
    for dialect in dialects:
        proposal = symbolic().learn(tuple(examples), dialect, SIGMA)
        assert proposal.ok, (dialect, proposal.failure)


CONTAINS_HELLO = (Example("hello", True), Example("ahellob", True), Example("chelloed", True), Example("hell", False),
                  Example("ello", False), Example("abcd", False), Example("hellhell", False))  # fmt: skip
ONE_WORD = (
    Example("ab", True),
    Example("abab", False),
    Example("", False),
    Example("a", False),
    Example("b", False),
)


@pytest.mark.parametrize("classic", [rpni(), edsm()])
@pytest.mark.parametrize("examples", [CONTAINS_HELLO, ONE_WORD])
def test_rpni_and_edsm_are_the_classic_algorithms(
    classic: MergingLearner, examples: tuple[Example, ...]
) -> None:
    """No competing hypothesis (augmented, RPNI would answer "contains ``hello``" and the word
    ``ab`` here) and no memory: the automaton red-blue merging finds on the prefix tree."""
    sigma = CharSet.of("abcdehlo")
    proposal = classic.learn(examples, "python", sigma)
    assert (
        proposal.ok
        and proposal.reasoning.startswith(classic.orders[0].name)
        and proposal.memo is not None
        and proposal.memo.memory == Memory()  # the cache apart, nothing carried
    )
    built = prefix_tree(examples, sigma, "characters", "tied", RunCache())
    alphabet, tree = built.alphabet, built.tree
    red = red_blue(tree, classic.orders[0])
    assert red is not None
    merged = minimize(table(tree, red, alphabet))
    assert equivalent(merged, compile_regex(parse(proposal.text, "python", sigma), sigma))


def test_propose_runs_through_the_protocol() -> None:
    context = LearnerContext("python", SIGMA, (Example("ab", True), Example("b", False)))
    proposal = asyncio.run(symbolic().propose(context))
    assert proposal.ok and proposal.cost.seconds >= 0


@pytest.mark.parametrize(
    "target",
    [
        "[A-Z][a-z]*#",
        "[A-Za-z0-9#]*[0-9]",
        "AEIOU",
        "[A-Za-z]{6}",
        "xyz([A-Za-z0-9#]*xyz)?",
        "[A-Za-z0-9#]*hey",
    ],
)
def test_symbolic_learns_extended_targets_in_the_papers_loop(target: str) -> None:
    config = LoopConfig(
        TeacherConfig(batch=250, clustered=True), Budgets(epochs=12), evaluate=False
    )
    teacher = ExactTeacher.from_regex(target, "extended", config=config.teacher_config)
    state = asyncio.run(run(Task("extended", target), symbolic(), teacher, config))
    assert state.outcome == "equivalent", [r.proposal_text for r in state.records]


@pytest.mark.parametrize("label", [False, True])
def test_a_clustered_example_left_out_of_the_tree_still_holds(label: bool) -> None:
    """A tie that would merge differently labeled states, on an example too large to spell out,
    leaves the example out of the tree; the hypothesis takes its strings as exceptions."""
    sigma = CharSet.of("abc")
    abc = CharSet.of("abc")
    examples: list[Counterexample] = [
        Example("a", True),
        Example("b", False),
        ClusteredExample((CharSet.of("ab"), abc, abc, abc, abc, abc), label, sigma),
    ]
    assert wrong(learned(symbolic(), examples, sigma), examples) == []


def test_the_representative_reading_puts_one_path_per_clustered_example_and_checks_it_later() -> (
    None
):
    sigma = CharSet.of("abc")
    clustered = ClusteredExample((CharSet.of("ab"), CharSet.of("c")), True, sigma)
    examples: list[Counterexample] = [
        ClusteredExample((CharSet.of("b"), CharSet.of("b")), False, sigma),
        clustered,
    ]
    built = prefix_tree(examples, sigma, "atoms", "representative", RunCache())
    alphabet, tree, unchecked = built.alphabet, built.tree, built.untied
    assert len(alphabet) == 3 and [e for e, _ in unchecked] == [clustered]
    first = {tree.find(child) for child in tree.edges(0).values()}
    assert len(tree.edges(0)) == 2 and len(first) == 2  # "bb" and one path of the clustered one
    both = prefix_tree(examples, sigma, "atoms", "tied", RunCache())
    tied, left_out = both.tree, both.untied
    assert (
        left_out == () and len({tied.find(c) for c in tied.edges(0).values()}) == 1
    )  # a and b tied


def test_every_reading_stays_consistent_when_a_tie_is_wrong() -> None:
    """Ends with "ab": ``[ab]ab`` is positive, but tying ``a`` and ``b`` in the first position
    claims they lead to one state, which the target does not do (``a`` starts a match)."""
    sigma = CharSet.of("abc")
    examples: list[Counterexample] = [
        Example("ab", True),
        Example("cab", True),
        Example("b", False),
        Example("a", False),
        Example("", False),
        Example("abc", False),
        Example("aab", True),
        Example("ba", False),
        Example("cb", False),
        ClusteredExample((CharSet.of("ab"), CharSet.of("a"), CharSet.of("b")), True, sigma),
    ]
    for learner in (symbolic(), REPRESENTATIVE):
        assert wrong(learned(learner, examples, sigma), examples) == []
