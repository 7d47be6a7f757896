"""The answer memory: an answer seen again is judged as a fresh one is, without compiling again."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import oracle.compiling
from automata.errors import DEFAULT_STATE_LIMIT
from cegis.llm import contract
from cegis.llm.answer_memory import AnswerMemory
from cegis.llm.answers import parse_regex
from cegis.llm.contract import Assessment, assess
from cegis.llm.prompts import SIMPLE_REGULARIZATION
from oracle.examples import Counterexample, Example
from regexlang.dialects import universe

SIGMA = universe("simple")


def _judged(
    regex: str, examples: tuple[Counterexample, ...], memory: AnswerMemory | None
) -> Assessment:
    return assess(
        parse_regex(regex, "simple", SIGMA),
        "why",
        examples,
        dialect="simple",
        universe=SIGMA,
        bounds=SIMPLE_REGULARIZATION,
        state_limit=DEFAULT_STATE_LIMIT,
        memory=memory,
    )


def _fields(a: Assessment) -> tuple[object, ...]:
    return (a.text, a.reasoning, a.parsed, a.misclassified, a.examples, a.violations, a.compiled)


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["a*", "a b*", "(a + b)* c", "a (", "a**********"]),
            st.lists(st.tuples(st.text(alphabet="abc", max_size=5), st.booleans()), max_size=6),
        ),
        max_size=8,
    )
)
def test_remembered_assessments_equal_fresh_ones(
    asked: list[tuple[str, list[tuple[str, bool]]]],
) -> None:
    memory = AnswerMemory()
    for regex, plain in asked:
        examples = tuple(Example(s, label) for s, label in plain)
        for _ in range(2):  # the rounds of one epoch share the examples
            assert _fields(_judged(regex, examples, memory)) == _fields(
                _judged(regex, examples, None)
            )


def test_an_answer_seen_again_is_compiled_once_and_rechecked_on_new_examples(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    compiles: list[tuple[object, ...]] = []
    real = oracle.compiling.compile_subject

    def counted(*args: Any, **kwargs: Any) -> Any:
        compiles.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(contract, "compile_subject", counted)
    memory = AnswerMemory()
    first = (Example("aa", True), Example("b", False))
    assert _judged("a*", first, memory).misclassified == ()
    assert _judged("a*", first, memory).misclassified == ()
    grown = (*first, Example("ab", True))
    assert _judged("a*", grown, memory).misclassified == (Example("ab", True),)
    assert len(compiles) == 1
