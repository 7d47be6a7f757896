"""The enumerative learner against brute force: every answer is consistent (checked with ``re``
on every string of every example) and as small as the smallest consistent tree of the same grammar."""

from __future__ import annotations

import itertools
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from automata.algebra.ops import equivalent
from automata.building.compile import compile_many
from cegis.symbolic.enumerative import EnumerativeConfig, synthesize
from oracle.examples import ClusteredExample, Counterexample, Example
from regexlang import CharSet, parse, unparse
from regexlang.dialects import Dialect
from tests.cegis.symbolic.enumerative_reference import (
    binary_size,
    clustered,
    consistent,
    smallest,
    trees,
)

SIMPLE_LEAVES = ("a", "b")
EXTENDED_LEAVES = (
    "a",
    "b",
    "[ab]",
)  # the class of the whole universe is a leaf of the extended search
AB = CharSet.of("ab")


@st.composite
def labeled_by_a_small_tree(
    draw: st.DrawFn, leaves: tuple[str, ...], extended: bool, clusters: bool
) -> list[Counterexample]:
    """Plain and clustered examples labeled by a random tree of at most 4 nodes, so a consistent
    tree of that size exists."""
    target = re.compile(
        draw(st.sampled_from([t for n in range(1, 5) for t in trees(leaves, extended, n)]))
    )
    strings = draw(st.lists(st.text("ab", max_size=4), max_size=7, unique=True))
    examples: list[Counterexample] = [Example(s, bool(target.fullmatch(s))) for s in strings]
    patterns = st.lists(
        st.lists(st.sampled_from(["a", "b", "ab"]), max_size=3), max_size=3 if clusters else 0
    )
    for pattern in draw(patterns):
        labels = {bool(target.fullmatch("".join(s))) for s in itertools.product(*pattern)}
        if len(labels) == 1:
            examples.append(clustered(pattern, labels.pop()))
    return examples


def check(
    examples: list[Counterexample],
    dialect: Dialect,
    leaves: tuple[str, ...],
    extended: bool,
    samples: int = 16,
) -> None:
    result = synthesize(
        examples, dialect, AB, EnumerativeConfig(max_repeat=2, cluster_samples=samples)
    )
    assert result.regex is not None, result.failure
    assert consistent(unparse(result.regex, "python"), examples)
    assert binary_size(result.regex) == result.size
    if not any(e.label for e in examples):
        # nothing to generalize: the learner offers only literals, the universe's first character
        # and the first of each position the negatives show (enumerative.space), so the smallest
        # it can answer is over those leaves
        shown = {p.first() for e in examples for p in _positions(e)}
        leaves = tuple(sorted({AB.first(), *shown}))
    assert result.size == smallest(leaves, extended, examples, result.size)
    printed = parse(unparse(result.regex, dialect, AB), dialect, AB)
    assert equivalent(*compile_many([printed, result.regex], AB))


@settings(max_examples=80)
@given(labeled_by_a_small_tree(SIMPLE_LEAVES, extended=False, clusters=True))
def test_simple_answers_are_consistent_and_smallest(examples: list[Counterexample]) -> None:
    check(examples, "simple", SIMPLE_LEAVES, extended=False)


@settings(max_examples=40)
@given(labeled_by_a_small_tree(SIMPLE_LEAVES, extended=False, clusters=True))
def test_sampled_clusters_still_give_consistent_smallest_answers(
    examples: list[Counterexample],
) -> None:
    # one atom string per cluster in the search: the rest come back as witnesses after verification
    check(examples, "simple", SIMPLE_LEAVES, extended=False, samples=1)


@settings(max_examples=40)
@given(labeled_by_a_small_tree(EXTENDED_LEAVES, extended=True, clusters=True))
def test_extended_answers_are_consistent_and_smallest(examples: list[Counterexample]) -> None:
    check(examples, "extended", EXTENDED_LEAVES, extended=True)


@settings(max_examples=40)
@given(st.dictionaries(st.text("abc", max_size=6), st.booleans(), max_size=14))
def test_arbitrary_labelings_get_a_consistent_answer_or_a_typed_failure(
    labels: dict[str, bool],
) -> None:
    examples = [Example(s, label) for s, label in labels.items()]
    result = synthesize(
        examples, "simple", CharSet.of("abc"), EnumerativeConfig(max_candidates=200_000)
    )
    if result.regex is None:
        assert result.failure is not None and result.failure.kind in ("budget", "timeout")
    else:
        assert consistent(unparse(result.regex, "python"), examples)


@settings(max_examples=30)
@given(st.dictionaries(st.text("abc", max_size=5), st.booleans(), max_size=12))
def test_goal_directed_answers_past_a_full_bank_are_consistent(labels: dict[str, bool]) -> None:
    examples = [Example(s, label) for s, label in labels.items()]
    result = synthesize(
        examples, "extended", CharSet.of("abc"), EnumerativeConfig(bank_bytes=30_000)
    )
    if result.regex is None:
        assert result.failure is not None and result.failure.kind in ("budget", "timeout")
    else:
        assert consistent(unparse(result.regex, "python"), examples)


def test_a_known_smallest_answer() -> None:
    examples = [
        Example(s, label)
        for s, label in [
            ("ab", True),
            ("aab", True),
            ("b", True),
            ("", False),
            ("a", False),
            ("ba", False),
            ("abb", False),
        ]
    ]
    result = synthesize(examples, "simple", CharSet.of("abc"))
    assert result.regex is not None and unparse(result.regex, "simple") == "a* b"


def test_optional_parts_in_a_dialect_without_question_marks() -> None:
    pattern = re.compile("(ab)*c?")
    strings = ("".join(s) for n in range(5) for s in itertools.product("abc", repeat=n))
    examples = [Example(s, bool(pattern.fullmatch(s))) for s in strings]
    result = synthesize(examples, "simple", CharSet.of("abc"))
    assert result.regex is not None and unparse(result.regex, "simple") == "(a b)* (epsilon+c)"


def test_clustered_examples_are_read_universally() -> None:
    # "a" and "b" each alone would fit the plain strings; the cluster forces the class [ab]
    examples: list[Counterexample] = [
        clustered(["ab", "ab"], True),
        Example("", False),
        Example("aaa", False),
    ]
    result = synthesize(examples, "extended", AB)
    assert result.regex is not None and unparse(result.regex, "extended", AB) == "[ab]{2}"
    assert consistent(unparse(result.regex, "python"), examples)


def test_a_witness_from_a_sampled_cluster_can_expose_a_contradiction() -> None:
    # the sample of [ab] holds only "a"; "b" accepted, verification finds it, and it contradicts
    examples: list[Counterexample] = [Example("b", True), clustered(["ab"], False)]
    sampled = synthesize(examples, "extended", AB, EnumerativeConfig(cluster_samples=1))
    assert (
        sampled.failure is not None
        and sampled.failure.kind == "search_exhausted"
        and sampled.searches == 1
    )
    expanded = synthesize(examples, "extended", AB)
    assert (
        expanded.failure is not None
        and expanded.failure.kind == "search_exhausted"
        and expanded.searches == 0
    )


def test_sampled_clusters_are_verified_and_refined() -> None:
    # [A-Z][0-9] splits into several atom strings; one sample per cluster cannot see them all
    letters_digits = ClusteredExample((CharSet.range("A", "Z"), CharSet.range("0", "9")), True)
    examples: list[Counterexample] = [
        letters_digits,
        Example("Q7", True),
        Example("A", False),
        Example("7Q", False),
        Example("AA", False),
        Example("A1B", False),
        Example("Q", False),
    ]
    config = EnumerativeConfig(cluster_samples=1)
    result = synthesize(
        examples, "extended", CharSet([(ord("0"), ord("9")), (ord("A"), ord("Z"))]), config
    )
    assert result.regex is not None
    assert consistent(unparse(result.regex, "python"), examples)


def test_python_dialect_over_unicode() -> None:
    examples: list[Counterexample] = [
        Example("é1", True),
        Example("é22", True),
        Example("é", False),
        Example("1é", False),
        Example("x1", False),
    ]
    result = synthesize(examples, "python", CharSet.everything())
    assert result.regex is not None
    assert consistent(unparse(result.regex, "python"), examples)


def test_no_positives() -> None:
    negatives: list[Counterexample] = [Example(s, False) for s in ("", "a", "b")]
    python = synthesize(negatives, "python", AB)
    assert python.regex is not None and unparse(python.regex, "python") == r"[^\s\S]"
    simple = synthesize(negatives, "simple", AB)
    assert simple.regex is not None and consistent(unparse(simple.regex, "python"), negatives)
    assert simple.size == 3  # two letters: every one-letter string and ε are negative


def _positions(example: Counterexample) -> tuple[CharSet, ...]:
    if isinstance(example, Example):
        return tuple(CharSet.of(c) for c in example.string)
    return example.positions
