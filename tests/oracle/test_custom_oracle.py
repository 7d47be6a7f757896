"""A complete custom oracle, written the way a user would: no subclassing, one method.

The user knows the target only as a Python predicate, so their teacher compares a hypothesis with
it on every string up to a length and answers with the disagreements. Any object with
``check(hypothesis, already_given) -> Verdict`` is a :class:`oracle.Teacher`; here it drives a toy
learner that proposes the first candidate consistent with the counterexamples so far.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Collection

import pytest

from automata.building.compile import compile_regex
from oracle import (
    ClusteredExample,
    Counterexample,
    Example,
    Spend,
    Teacher,
    Verdict,
    matcher,
    misclassified,
    remember,
)
from regexlang import CharSet, parse
from regexlang.ast import Regex


class ExhaustiveTeacher:
    """Compares a hypothesis with ``predicate`` on every string over ``alphabet`` up to ``max_len``."""

    def __init__(self, predicate: Callable[[str], bool], alphabet: str, max_len: int = 6) -> None:
        self.predicate, self.alphabet, self.max_len = predicate, alphabet, max_len

    def check(self, hypothesis: Regex, already_given: Collection[Counterexample] = ()) -> Verdict:
        started = time.perf_counter()
        dfa = compile_regex(hypothesis, CharSet.of(self.alphabet))
        given = {e.string for e in already_given if isinstance(e, Example)}
        strings = [
            "".join(t)
            for n in range(self.max_len + 1)
            for t in itertools.product(self.alphabet, repeat=n)
        ]
        wrong = [
            Example(s, self.predicate(s)) for s in strings if dfa.accepts(s) != self.predicate(s)
        ]
        new = tuple(e for e in wrong if e.string not in given)[:5]
        spend = Spend(time.perf_counter() - started, len(strings))
        return Verdict(
            equivalent=not wrong, counterexamples=new, mode="exhaustive", spend=spend, exact=False
        )


def test_custom_teacher_drives_a_learning_loop() -> None:
    def even_as_then_b(s: str) -> bool:
        return s.endswith("b") and s.count("a") % 2 == 0

    teacher: Teacher = ExhaustiveTeacher(even_as_then_b, "ab")
    sigma = CharSet.of("ab")
    candidates = [
        parse(text, "simple", sigma)
        for text in ("b", "(a a)* b", "(b* a b* a)* b* b", "b* (a b* a)* b")
    ]
    given: tuple[Counterexample, ...] = ()
    for _ in range(len(candidates)):
        hypothesis = next(
            c for c in candidates if not misclassified(compile_regex(c, sigma), given)
        )
        verdict = teacher.check(hypothesis, given)
        if verdict.equivalent:
            break
        assert (
            verdict.counterexamples and not verdict.exact and verdict.spend.strings_examined == 127
        )
        given = remember(given, verdict)
    assert verdict.equivalent and hypothesis == candidates[2]
    assert "aab, 1" in {e.text() for e in given}


def test_a_verdict_must_say_whether_it_is_exact() -> None:
    with pytest.raises(TypeError, match="exact"):
        Verdict(True)  # type: ignore[call-arg]
    assert not Verdict(True, exact=False).exact


def test_a_typed_oracle_tests_hypotheses_and_lists_the_strings_already_given() -> None:
    sigma = CharSet.of("ab01")
    accepts = matcher(parse("[ab][ab01]*", "extended", sigma), sigma)
    assert accepts("a01") and not accepts("0a") and not accepts("") and not accepts("a#")
    complement = matcher(parse("~a", "extended", sigma), sigma)
    assert (
        complement("b") and not complement("a") and not complement("#")
    )  # '#' is outside the universe
    given: tuple[Counterexample, ...] = (
        Example("ab", True),
        ClusteredExample((CharSet.of("01"), "a"), False, sigma),
    )
    assert [sorted(e.strings()) for e in given] == [["ab"], ["0a", "1a"]]
    assert [e.representative() for e in given] == ["ab", "0a"] and [e.size() for e in given] == [
        1,
        2,
    ]
    assert "ab" in given[0] and "1a" in given[1] and "ba" not in given[0]
