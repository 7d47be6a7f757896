"""Unions of anchored rules (cegis.symbolic.merging.families.anchored): a hypothesis accepts every positive and
refuses every negative it was made from, each rule is one no negative follows, and the NL-RX targets
"ends with a lower-case letter or starts with a vowel" and "ends with dog, starts with truck, or is
one lower-case letter" are learned in the paper's protocol (both failed every seed before)."""

from __future__ import annotations

import asyncio

from hypothesis import given, settings
from hypothesis import strategies as st

from automata import compile_regex
from cegis.config import Budgets, LoopConfig
from cegis.loop import run
from cegis.state import Task
from cegis.symbolic.merging import symbolic
from cegis.symbolic.merging.core.run_cache import RunCache
from cegis.symbolic.merging.families.anchored import (
    _class_rules,
    _classed,
    _holding,
    _refused,
    _words,
    anchored_hypotheses,
)
from oracle import ExactTeacher, TeacherConfig
from regexlang import CharSet

ABC = CharSet.of("abc#")
LOWER = CharSet.of("ab")
STRINGS = st.lists(
    st.text(alphabet="abc#", min_size=1, max_size=7), min_size=1, max_size=8, unique=True
)


@settings(max_examples=300, derandomize=True, deadline=None)
@given(STRINGS, STRINGS)
def test_a_union_of_rules_holds_every_positive_and_no_negative(
    positives: list[str], negatives: list[str]
) -> None:
    negatives = [n for n in negatives if n not in positives]
    for regex, how in anchored_hypotheses(positives, negatives, ABC, [LOWER, CharSet.of("c#")]):
        dfa = compile_regex(regex, ABC)
        assert all(dfa.accepts(p) for p in positives), how
        assert not any(dfa.accepts(n) for n in negatives), how
        assert how.startswith("anchored (") and 2 <= how.count(",") + 1 <= 3


LONG = st.lists(st.text(alphabet="abc#", min_size=1, max_size=10), min_size=1, max_size=6)


@settings(max_examples=300, derandomize=True, deadline=None)
@given(
    LONG,
    st.lists(
        st.tuples(
            st.integers(0, 5),
            st.integers(0, 10),
            st.booleans(),
            st.text(alphabet="abc#", max_size=3),
        ),
        max_size=12,
    ),
)
def test_the_rules_negatives_follow_are_found_as_rule_by_rule(
    positives: list[str], edits: list[tuple[int, int, bool, str]]
) -> None:
    # each rule a positive follows is refused exactly when some negative follows it, by the rule's
    # definition; the negatives keep a few characters of a positive's start (end), so they share its words
    negatives = [
        p[:keep] + more if head else more + p[len(p) - keep :]
        for i, keep, head, more in edits
        for p in [positives[i % len(positives)]]
    ]
    kinds = (LOWER, CharSet.of("c#"), CharSet.of("a"))
    refused = _refused(negatives, positives, _holding(kinds))

    def follows(string: str, where: str, piece: str | int) -> bool:
        if isinstance(piece, str):
            return string.startswith(piece) if where == "starts" else string.endswith(piece)
        at = {"starts": string[:1], "ends": string[-1:], "is": string if len(string) == 1 else ""}[
            where
        ]
        return bool(at) and at in kinds[piece]

    for rule in {
        rule
        for p in positives
        for rule in (*_words(p), *_classed(p, _class_rules(kinds, RunCache())))
    }:
        assert (rule in refused) == any(follows(n, *rule) for n in negatives), rule


def test_the_rules_are_words_two_positives_share_or_classes() -> None:
    positives = ["trucka", "truckb", "adog", "bcdog", "a"]
    negatives = ["ab", "dogc", "b#", "#", "c"]
    ((regex, how),) = anchored_hypotheses(positives, negatives, CharSet.of("abcdgkortu#"), [LOWER])
    assert (
        how == "anchored (starts truck, ends dog, is [a…])"
    )  # a tie on positives held: the longer word first
    dfa = compile_regex(regex, CharSet.of("abcdgkortu#"))
    assert (
        dfa.accepts("truck#") and dfa.accepts("##dog") and dfa.accepts("b") and not dfa.accepts("c")
    )
    # one positive's word is not a rule: listing it would be no generalization
    assert (
        anchored_hypotheses(["trucka", "adog", "bdog"], ["ab"], CharSet.of("abcdgkortu#"), []) == []
    )


def test_none_when_one_rule_does_or_no_union_covers() -> None:
    assert (
        anchored_hypotheses(["adog", "bdog"], ["ab"], CharSet.of("abdgo"), []) == []
    )  # "ends dog" alone: the other families
    assert (
        anchored_hypotheses(
            ["ab", "ba"], ["aab", "bba", "a", "b"], CharSet.of("ab"), [CharSet.of("a")]
        )
        == []
    )


def test_nl_rx_unions_of_anchors_are_learned() -> None:
    for target in (
        "[A-Za-z0-9#]*[a-z]|[AEIOUaeiou][A-Za-z0-9#]*",
        "[A-Za-z0-9#]*dog|[a-z]|truck[A-Za-z0-9#]*",
    ):
        config = LoopConfig(
            TeacherConfig(batch=250, mode="paths", clustered=True),
            Budgets(epochs=12),
            evaluate=False,
            seed=0,
        )
        teacher = ExactTeacher.from_regex(target, "extended", config=config.teacher_config)
        state = asyncio.run(run(Task("extended", target), symbolic(), teacher, config))
        assert state.outcome == "equivalent", target
        assert (
            state.epoch <= 6
            and state.proposal is not None
            and "anchored" in state.proposal.reasoning
        )
