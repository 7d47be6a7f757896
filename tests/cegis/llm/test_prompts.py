"""Prompt builders: sections per setting, byte-stable static prefixes, data and feedback blocks."""

from __future__ import annotations

import pytest

from cegis.llm.prompt_sections import DATA_HEADER
from cegis.llm.prompts import (
    EXTENDED_REGULARIZATION,
    SIMPLE_REGULARIZATION,
    DiagnosticFeedback,
    ErrorCountFeedback,
    GenericFeedback,
    NoFeedback,
    PromptSpec,
    Reflection,
    Repair,
    description_prompt,
    example_prompt,
    example_system_prompt,
)
from llm.chat import Message
from oracle import Example
from regexlang import DIALECTS, Dialect

DATA_A = (Example("ab", True).text(), Example("", False).text())
DATA_B = (Example("ba", False).text(), Example("abab", True).text(), Example("c", True).text())
REFLECTION = Reflection("it looked like a*", "a*", ("b, 1",), failure="b was rejected")

# Sentences of the seed paper's templates that must not be copied (our prompts are our own words).
PAPER_PHRASES = (
    "must infer a single regular language",
    "Each line has one input-output pair separated by comma",
    "Prefer compact factorizations",
    "Avoid over-generalization",
    "Choose between star-of-union and union-of-stars",
    "Prefer simpler, more general regexes while staying consistent",
    "You are repairing the previous attempt using the failure feedback",
    "Do not return only one repaired regex",
)


def _joined(messages: tuple[Message, Message]) -> str:
    return "\n".join(m.content for m in messages)


def _headings(text: str) -> list[str]:
    return [block.splitlines()[0] for block in text.split("\n\n")]


@pytest.mark.parametrize("dialect", DIALECTS)
def test_the_static_system_message_is_shared_by_every_call_of_a_run(dialect: Dialect) -> None:
    spec = PromptSpec(dialect, clustered=True, regularization=SIMPLE_REGULARIZATION)
    first = example_prompt(spec, DATA_A)
    second = example_prompt(spec, DATA_B, reflection=REFLECTION)
    assert [m.role for m in first] == ["system", "user"]
    assert first[0] == second[0] and first[0].content == example_system_prompt(spec)
    assert first[1].content.startswith("OUTPUT FORMAT") and second[1].content.startswith(
        "REFLECTION"
    )


def test_sections_in_order() -> None:
    spec = PromptSpec("extended", regularization=EXTENDED_REGULARIZATION)
    assert _headings(example_system_prompt(spec)) == [
        "TASK",
        "INPUT FORMAT",
        "REGEX SYNTAX (extended regular expressions)",
        "INFERENCE STRATEGY",
        "CONSTRAINTS",
    ]
    user = example_prompt(
        spec, DATA_A, reflection=REFLECTION, repair=Repair("r", "a", "f", ()), candidates=2
    )[1]
    assert [h.split(" (")[0] for h in _headings(user.content)] == [
        "REFLECTION ON THE PREVIOUS EPOCH", "REPAIR OF THE PREVIOUS ATTEMPT", "SEVERAL CANDIDATES", "OUTPUT FORMAT",
        "TRAINING DATA",
    ]  # fmt: skip


def test_ablation_switches_remove_sections() -> None:
    spec = PromptSpec("simple", strategy=False, input_format=False, output="direct")
    text = _joined(example_prompt(spec, DATA_A))
    assert _headings(example_system_prompt(spec)) == ["TASK", "REGEX SYNTAX (pyformlang Regex)"]
    assert "<reasoning>" not in text and "<ans>" in text
    naive_spec = PromptSpec(
        "simple", strategy=False, input_format=False, output="direct", syntax=False
    )
    naive = _joined(example_prompt(naive_spec, DATA_A))
    assert (
        _headings(example_system_prompt(naive_spec)) == ["TASK"]
        and "<ans>" in naive
        and "described below" not in naive
    )
    assert "described below" in text


@pytest.mark.parametrize(
    ("dialect", "limits", "expected"),
    [
        ("simple", SIMPLE_REGULARIZATION, ("60", "4")),
        ("extended", EXTENDED_REGULARIZATION, ("150", "2")),
    ],
)
def test_regularization_numbers_are_parameters(
    dialect: Dialect, limits: object, expected: tuple[str, str]
) -> None:
    text = example_system_prompt(PromptSpec(dialect, regularization=limits))  # type: ignore[arg-type]
    assert f"At most {expected[0]} characters" in text and f"at most {expected[1]} deep" in text
    assert "CONSTRAINTS" not in example_system_prompt(PromptSpec(dialect))


def test_clustered_note_only_when_clustered() -> None:
    assert "S[0-9]#run, 1" in example_system_prompt(PromptSpec("extended", clustered=True))
    assert "square brackets" not in example_system_prompt(PromptSpec("extended"))


def test_dialect_syntax_sections() -> None:
    simple = example_system_prompt(PromptSpec("simple"))
    extended = example_system_prompt(PromptSpec("extended"))
    python = example_system_prompt(PromptSpec("python"))
    assert "`epsilon`" in simple and "Union: `+`" in simple
    assert "[A-Za-z0-9#]" in extended and "`~(...)`" in extended and "`{n,m}`" in extended
    assert "re.fullmatch" in python
    assert "{a, b}" in example_system_prompt(PromptSpec("simple", alphabet="{a, b}"))


def test_training_data_block() -> None:
    user = example_prompt(PromptSpec("simple"), DATA_A)[1].content
    assert user.endswith(f"\n\n{DATA_HEADER}\nab, 1\n, 0")


def test_example_lines_keep_one_example_per_line() -> None:
    assert Example("", True).text() == ", 1"
    assert Example("a#b", False).text() == "a#b, 0"
    assert Example("a\nb", True).text() == "a\\nb, 1"


def test_reflection_block() -> None:
    user = example_prompt(PromptSpec("simple"), DATA_A, reflection=REFLECTION)[1].content
    tail = user.split("REFLECTION ON THE PREVIOUS EPOCH", 1)[1]
    for part in ("it looked like a*", "\na*\n", "b was rejected", "b, 1"):
        assert part in tail


def test_repair_block_and_candidates() -> None:
    single = example_prompt(
        PromptSpec("simple"), DATA_A, repair=Repair("r", "(a", "unbalanced '('", ("a, 1",))
    )
    several = example_prompt(
        PromptSpec("simple"), DATA_A, repair=Repair("r", "(a", "", ("a, 1",)), candidates=10
    )
    assert (
        "REPAIR OF THE PREVIOUS ATTEMPT" in single[1].content
        and "unbalanced '('" in single[1].content
    )
    assert "SEVERAL CANDIDATES" not in single[1].content
    assert (
        "exactly 10 different" in several[1].content
        and "after the last </ans>." in several[1].content
    )


def test_description_prompt_feedback_variants() -> None:
    zero = description_prompt("lines that contain the word dog", NoFeedback())
    generic = description_prompt("d", GenericFeedback(".*dog.*"))
    count = description_prompt("d", ErrorCountFeedback(".*dog.*", failed=3, total=24))
    diagnostic = description_prompt("d", DiagnosticFeedback(".*dog.*", ("dogs ", ""), ("Dog",)))
    broken = description_prompt(
        "d", DiagnosticFeedback("(dog", (), (), syntax_error="unbalanced '('")
    )
    assert zero[0] == generic[0] == count[0] == diagnostic[0]
    assert "re.fullmatch" in zero[0].content
    assert zero[1].content == "DESCRIPTION\nlines that contain the word dog"
    assert ".*dog.*" in generic[1].content and "not correct" in generic[1].content
    assert "failed 3 of 24" in count[1].content
    assert '- "dogs "\n- ""' in diagnostic[1].content and '- "Dog"' in diagnostic[1].content
    assert (
        "does not parse: unbalanced '('" in broken[1].content
        and "every string above" not in broken[1].content
    )


def test_prompts_use_their_own_words() -> None:
    texts = [example_system_prompt(PromptSpec(d, True, SIMPLE_REGULARIZATION)) for d in DIALECTS]
    texts.append(_joined(example_prompt(PromptSpec("simple"), DATA_A, reflection=REFLECTION)))
    texts.append(
        _joined(
            example_prompt(
                PromptSpec("simple"), DATA_A, repair=Repair("r", "a", "f", ()), candidates=3
            )
        )
    )
    for text in texts:
        for phrase in PAPER_PHRASES:
            assert phrase.lower() not in text.lower()
