"""Strings with a repeated separator (paths, IPv6 short forms, key paths) are learned along it, as
a person writes them, and every hypothesis of the family accepts every positive."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from automata import accepts_many, compile_regex, equivalent
from automata.core.minimize import minimize
from cegis.symbolic.merging.families.separated import separated_hypotheses, separators
from cegis.symbolic.passive import from_examples
from experiments.bench.example_tasks import IPV6_SHORT, WINDOWS_PATHS, YAML_KEYS, HandTask
from oracle import Example
from regexlang import CharSet, parse, unparse
from regexlang.charset import UNICODE

ASCII = CharSet([(0x20, 0x7E)])


def learned(task: HandTask) -> str:
    examples = [Example(s, True) for s in task.positives] + [
        Example(s, False) for s in task.negatives
    ]
    proposal = from_examples().learn(examples, "python", ASCII)
    assert proposal.ok, proposal.failure
    assert all(re.fullmatch(proposal.text, s) for s in task.positives)
    assert not any(re.fullmatch(proposal.text, s) for s in task.negatives)
    return proposal.text


def same_language(text: str, target: str) -> bool:
    return equivalent(
        *(minimize(compile_regex(parse(t, "python", ASCII), ASCII)) for t in (text, target))
    )


def held_out_accuracy(text: str, task: HandTask) -> float:
    right = sum(re.fullmatch(text, s) is not None for s in task.held_positives)
    right += sum(re.fullmatch(text, s) is None for s in task.held_negatives)
    return right / (len(task.held_positives) + len(task.held_negatives))


def test_windows_paths_are_written_along_the_backslash() -> None:
    texts = [
        unparse(r, "python", UNICODE)
        for r, _ in separated_hypotheses(WINDOWS_PATHS.positives, WINDOWS_PATHS.negatives, UNICODE)
    ]
    assert r"[A-Z]:(?:\\[^\\]+)+" in texts


def test_windows_paths_generalize_by_the_separator_structure() -> None:
    text = learned(WINDOWS_PATHS)
    assert same_language(text, r"[A-Z]:(?:\\[^\\]+)+")
    assert held_out_accuracy(text, WINDOWS_PATHS) == 1.0


def test_ipv6_short_forms_are_learned_as_two_halves_of_groups() -> None:
    text = learned(IPV6_SHORT)
    assert same_language(text, IPV6_SHORT.gold)


def test_key_paths_read_their_letters_as_the_class_not_the_letters_seen() -> None:
    text = learned(YAML_KEYS)
    assert re.fullmatch(text, "zq.wjv_9") and not re.fullmatch(text, "zq..wj")
    assert held_out_accuracy(text, YAML_KEYS) >= 0.9


def test_separators_are_punctuation_runs_that_repeat_or_that_every_positive_has() -> None:
    assert separators(["a.b", "a.b.c", "x"]) == ["."]
    assert separators(["fe80::1", "::1", "2001:db8::1"]) == ["::", ":"]
    assert (
        separators(["12-34", "56-78"]) == []
    )  # one dash in every positive: the run templates' job


fields = st.text("ab1.:", min_size=1, max_size=3)


@settings(max_examples=40, derandomize=True, deadline=None)
@given(
    st.lists(
        st.lists(fields, min_size=1, max_size=4).map("/".join), min_size=2, max_size=6, unique=True
    ),
    st.lists(st.text("abc1/.", max_size=8), max_size=6),
)
def test_every_hypothesis_accepts_every_positive(
    positives: list[str], negatives: list[str]
) -> None:
    negatives = [n for n in negatives if n not in positives]
    for regex, how in separated_hypotheses(positives, negatives, ASCII):
        assert accepts_many(compile_regex(regex, ASCII), positives).all(), how
