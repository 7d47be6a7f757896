"""Classes inferred from plain examples: the universe is cut where a positive and a negative would
otherwise read alike, along the classes a person writes, and the learner reads plain
counterexamples through them (the loop's plain-counterexample protocol)."""

from __future__ import annotations

import asyncio
import itertools
import re

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from automata import compile_regex, equivalent
from automata.core.minimize import minimize
from cegis.config import Budgets, LoopConfig
from cegis.loop import run
from cegis.state import Task
from cegis.symbolic.merging.families.classes import (
    MOST_CUTS,
    excluded,
    inferred_classes,
    read_through,
)
from cegis.symbolic.merging.families.templates import template_hypotheses
from cegis.symbolic.merging.merger import symbolic
from oracle import ClusteredExample, Example
from oracle.exact import ExactTeacher, TeacherConfig
from regexlang import CharSet, parse, unparse

WORD = CharSet.of("#0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
VOWELS = CharSet.of("AEIOUaeiou")


def examples(positives: list[str], negatives: list[str]) -> list[Example]:
    return [Example(s, True) for s in positives] + [Example(s, False) for s in negatives]


def reads_alike(classes: tuple[CharSet, ...], a: str, b: str) -> bool:
    def word(s: str) -> tuple[int, ...]:
        return tuple(next(k for k, c in enumerate(classes) if x in c) for x in s)

    return word(a) == word(b)


def test_the_character_that_decides_is_set_apart_and_the_rest_stays_one_class() -> None:
    # ([A-Za-z]{2,3})?u{3,}: one-character-at-a-time atoms split a letter off for every conflict.
    positives = ["uuu", "abuuu", "XYzuuuu", "uuuu", "Qruuu", "mNuuuuu", "uuuuuu", "kkkuuu"]
    negatives = ["abc", "xuu", "abcuu", "Abuu", "uuX", "zzzzuuu", "uu", "QQQQuuu", "uua"]
    classes = inferred_classes(examples(positives, negatives), WORD)
    assert CharSet.of("u") in classes
    letters = next(c for c in classes if "a" in c)
    assert all(x in letters for x in "bkmrxzANQXY")


def test_a_cut_follows_the_prior_class_not_one_digit_at_a_time() -> None:
    positives = ["abc", "xyz", "QRs", "mmm", "Tuv"]
    negatives = ["ab1", "x9z", "4bc", "Q7s", "m0m"]
    classes = inferred_classes(examples(positives, negatives), WORD)
    assert len(classes) == 2
    assert any(CharSet.range("0", "9").issubset(c) for c in classes)


def test_characters_no_positive_shows_are_cut_off_together() -> None:
    # ([A-Za-z0-9#]{5})&~(.*[AEIOUaeiou].*): the vowels are no class of the prior.
    rng = np.random.default_rng(0)
    others = sorted(set(WORD) - set(VOWELS))
    positives = ["".join(rng.choice(others, 5)) for _ in range(160)]
    negatives = [
        p[:i] + str(rng.choice(sorted(VOWELS))) + p[i + 1 :]
        for i, p in zip(itertools.cycle(range(5)), positives)
    ]
    classes = inferred_classes(examples(positives, negatives + ["bcdf", "bcdfgh"]), WORD)
    assert all(c.issubset(VOWELS) or not c & VOWELS for c in classes)
    assert len(classes) < len(VOWELS)  # fewer cuts than one per vowel


def test_a_few_positives_do_not_cut_off_what_they_happen_not_to_show() -> None:
    classes = inferred_classes(
        examples(["bcdfg", "XYZ12", "#kLm9"], ["abcde", "bcdfa", "xyEzz"]), WORD
    )
    assert CharSet.of("aeiou") not in classes and CharSet.of("AEIOU") not in classes


def test_what_positives_show_is_cut_within_the_prior_classes() -> None:
    # (X+)?[0-9]{3,4}: the positives show digits and X; X is cut off the upper case, not joined to the digits.
    rng = np.random.default_rng(2)
    positives = [
        "X" * int(rng.integers(0, 6))
        + "".join(rng.choice(list("0123456789"), int(rng.integers(3, 5))))
        for _ in range(150)
    ]
    negatives = [
        "".join(rng.choice(list("ABCDEFGHIJKLMNOPQRSTUVWYZ"), int(rng.integers(1, 4))))
        + p.lstrip("X")
        for p in positives
    ]
    classes = inferred_classes(examples(positives, negatives), WORD)
    assert CharSet.of("X") in classes
    assert not any("X" in c and "0" in c for c in classes)


@settings(max_examples=150, derandomize=True, deadline=None)
@given(st.dictionaries(st.text("abc01#", max_size=5), st.booleans(), max_size=30))
def test_classes_partition_the_universe_and_no_positive_reads_as_a_negative(
    labels: dict[str, bool],
) -> None:
    given_ = [Example(s, label) for s, label in labels.items()]
    classes = inferred_classes(given_, WORD)
    assert len(classes) <= MOST_CUTS + 1
    assert sum(map(len, classes)) == len(WORD)
    assert all(not (a & b) for a, b in itertools.combinations(classes, 2))
    positives = [s for s, label in labels.items() if label]
    negatives = [s for s, label in labels.items() if not label]
    assert not any(reads_alike(classes, p, n) for p in positives for n in negatives)


def test_examples_are_read_through_the_classes_and_strays_stay_plain() -> None:
    classes = (CharSet.range("0", "9"), WORD - CharSet.range("0", "9"))
    read = read_through(
        [Example("a1", True), Example("a!", False), ClusteredExample(("b",), True)], classes, WORD
    )
    assert read == (
        ClusteredExample((classes[1], classes[0]), True),
        Example("a!", False),  # '!' is outside the universe: nothing to read it as
        ClusteredExample(("b",), True),
    )


def test_everything_but_the_negatives_read_through_classes() -> None:
    lower = CharSet.range("a", "z")
    classes = (WORD - lower, *(CharSet.of(c) for c in "dogtruck"), lower - CharSet.of("dogtruck"))
    negatives = ["dog", "truck", "a", *"dogtruck"]
    read = read_through(examples(["A", "dogs", "", "ab", "9"], negatives), classes, WORD)
    regex = excluded(read)
    assert regex is not None
    assert unparse(regex, "extended", WORD) == "~(dog|truck|[a-z])"
    assert excluded(read_through(examples(["a"], []), classes, WORD)) is None


def test_a_run_is_written_with_the_character_the_examples_set_apart() -> None:
    target = "h{3,}(O{1,3})?[0-9]{2}[A-Z]{3,4}h{3,}"
    rng = np.random.default_rng(1)

    def drawn() -> str:
        def run(chars: str, low: int, high: int) -> str:
            return "".join(rng.choice(list(chars), int(rng.integers(low, high + 1))))

        upper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
        return (
            run("h", 3, 6)
            + run("O", 0, 3)
            + run("0123456789", 2, 2)
            + run(upper, 3, 4)
            + run("h", 3, 6)
        )

    positives = [drawn() for _ in range(60)]
    edits = (
        (p, int(i), str(rng.choice(sorted(WORD))))
        for p in positives
        for i in rng.integers(0, len(p), 3)
    )
    misses = (
        miss
        for p, i, c in edits
        for miss in (p[:i] + c + p[i + 1 :], p[:i] + p[i] + p[i:], p[:i] + p[i + 1 :])
    )
    negatives = [n for n in misses if not re.fullmatch(target, n)]
    texts = {
        unparse(t.regex, "extended", WORD)
        for cut in ("word", "class")
        for t in template_hypotheses(positives, negatives, WORD, cut)
    }
    assert target in texts


def test_plain_counterexamples_teach_a_count_of_letters_in_few_epochs() -> None:
    # Before the classes were inferred, every letter became its own column and this target was not
    # learned in 12 epochs (about 250 s); now it is in two.
    target = "[A-Za-z0-9#]*([A-Za-z0-9#]*[A-Za-z][A-Za-z0-9#]*){5,}[A-Za-z0-9#]*"
    config = LoopConfig(
        TeacherConfig(batch=250, mode="paths", clustered=False), Budgets(epochs=4), evaluate=False
    )
    teacher = ExactTeacher.from_regex(
        target, "extended", universe=WORD, config=config.teacher_config
    )
    state = asyncio.run(run(Task("extended", target, universe=WORD), symbolic(), teacher, config))
    assert state.outcome == "equivalent"
    assert state.hypothesis is not None
    learned, wanted = (
        minimize(compile_regex(parse(t, "extended", WORD), WORD))
        for t in (state.hypothesis, target)
    )
    assert equivalent(learned, wanted)
