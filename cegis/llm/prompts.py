"""Prompt builders for the learner: labeled examples (seed paper) and descriptions (A-CEGIS).

Every builder returns a tuple of two frozen :class:`~llm.chat.Message` values, system then user.
The sections come in the order of the seed paper's template (Appendix F): task, input format,
syntax, strategy, constraints, then the agentic blocks (reflection on the previous epoch, repair
of the previous attempt, the request for several candidates), the output format, and the
training data last. What is fixed for a whole run and comes before the agentic blocks (task to
constraints) is the system message, built only from a :class:`PromptSpec`; the rest is the user
message. Servers with prefix caching (vLLM, OpenAI) reuse the system part for every call of a
run; the paper's order costs the cache the data block, which follows the blocks that change.

Example lines arrive already rendered: the oracle owns the example values and their one line
format (``oracle.Example.text()``, ``oracle.ClusteredExample.text()``), so prompts never disagree
with the teacher about how a string is written.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, TypeAlias

import attrs

from cegis.llm import prompt_sections as sections
from llm.chat import Message
from regexlang import Dialect

OutputStyle = Literal["reasoned", "direct"]

EXTENDED_ALPHABET = "[A-Za-z0-9#]"


@attrs.frozen
class Regularization:
    """Bounds that push the learner toward short, general regexes."""

    max_length: int
    max_star_depth: int


SIMPLE_REGULARIZATION = Regularization(max_length=60, max_star_depth=4)
EXTENDED_REGULARIZATION = Regularization(max_length=150, max_star_depth=2)


@attrs.frozen
class PromptSpec:
    """The static part of an example-based prompt, fixed for a run.

    ``alphabet`` spells the characters the examples use, in the dialect's own notation (``"a, b"``
    in the simple dialect, ``"[A-Z0-9]"`` in the others), when the task's alphabet is not the
    dialect's default (the characters of the data for simple, ``[A-Za-z0-9#]`` for extended, any
    character for python); it is read from the data, never from the target. ``strategy``,
    ``input_format``, ``output`` and ``syntax`` (the regex syntax section; off for the seed paper's
    naive and input-only prompts) exist for prompt ablations. ``strategy_text`` replaces the
    paper's strategy section with one a learn step wrote (``python -m cli optimize``, GEPA).
    The answer format (the regex inside ``<ans>``) is always asked for, as in the paper's code:
    the parser needs it, so a prompt without it would measure the format, not the learning.
    """

    dialect: Dialect
    clustered: bool = False
    regularization: Regularization | None = None
    output: OutputStyle = "reasoned"
    strategy: bool = True
    input_format: bool = True
    alphabet: str | None = None
    syntax: bool = True
    strategy_text: str | None = None


@attrs.frozen
class Reflection:
    """The outer loop's look back at the previous epoch's hypothesis."""

    previous_reasoning: str
    previous_regex: str
    counterexamples: tuple[str, ...]
    failure: str = ""


@attrs.frozen
class Repair:
    """The inner loop's request to fix a failed attempt."""

    previous_reasoning: str
    previous_regex: str
    feedback: str
    examples: tuple[str, ...]


@attrs.frozen
class NoFeedback:
    """Zero-shot: the first turn, or a baseline that never sees feedback."""


@attrs.frozen
class GenericFeedback:
    """Only that the previous regex was wrong."""

    previous_regex: str


@attrs.frozen
class ErrorCountFeedback:
    """How many hidden tests the previous regex failed."""

    previous_regex: str
    failed: int
    total: int
    syntax_error: str | None = None


@attrs.frozen
class DiagnosticFeedback:
    """Witnesses: strings wrongly matched (false positives) and wrongly rejected (false negatives)."""

    previous_regex: str
    false_positives: tuple[str, ...]
    false_negatives: tuple[str, ...]
    syntax_error: str | None = None


Feedback: TypeAlias = NoFeedback | GenericFeedback | ErrorCountFeedback | DiagnosticFeedback


def example_system_prompt(spec: PromptSpec) -> str:
    """The static instructions of an example-based prompt that precede the agentic blocks (the
    system message): task, input format, syntax, strategy, constraints."""
    dialect = spec.dialect
    blocks = [sections.example_task(dialect, syntax_below=spec.syntax)]
    if spec.input_format:
        blocks.append(sections.input_format(dialect, _alphabet_sentence(spec), spec.clustered))
    if spec.syntax:
        blocks.append(_syntax(spec))
    if spec.strategy:
        text = spec.strategy_text
        blocks.append(sections.strategy(dialect) if text is None else text)
    if spec.regularization is not None:
        limits = spec.regularization
        blocks.append(sections.constraints(dialect, limits.max_length, limits.max_star_depth))
    return "\n\n".join(blocks)


def _syntax(spec: PromptSpec) -> str:
    if spec.dialect == "simple":
        return sections.simple_syntax()
    if spec.dialect == "extended":
        return sections.extended_syntax(spec.alphabet or EXTENDED_ALPHABET)
    return sections.python_syntax()


def _alphabet_sentence(spec: PromptSpec) -> str:
    if spec.alphabet is not None:
        return f"The strings of the data use these characters: {spec.alphabet}. Use no others."
    if spec.dialect == "extended":
        return f"The alphabet is fixed: {EXTENDED_ALPHABET}. Use no other characters."
    if spec.dialect == "simple":
        return (
            "The alphabet is exactly the set of characters that occur in the data; use no others."
        )
    return "Strings may contain any characters."


def example_prompt(
    spec: PromptSpec,
    examples: Sequence[str],
    *,
    reflection: Reflection | None = None,
    repair: Repair | None = None,
    candidates: int = 1,
    total: int | None = None,
) -> tuple[Message, Message]:
    """The messages asking for a regex consistent with rendered ``examples``; ``candidates > 1``
    asks for that many, each in its own ``<ans>`` block (the seed paper's multi-candidate prompt);
    ``total`` above ``len(examples)`` says the examples are a part of that many (the newest and an
    even sample of the older ones: the rest no longer fit the context)."""
    blocks = []
    if reflection is not None:
        blocks.append(
            sections.reflection(
                reflection.previous_reasoning,
                reflection.previous_regex,
                reflection.failure,
                reflection.counterexamples,
            )
        )
    if repair is not None:
        blocks.append(
            sections.repair(
                repair.previous_reasoning, repair.previous_regex, repair.feedback, repair.examples
            )
        )
    if candidates > 1:
        blocks.append(sections.candidates(candidates))
    blocks += [
        sections.output_format(spec.output == "reasoned"),
        sections.training_data(examples, total),
    ]
    return Message("system", example_system_prompt(spec)), Message("user", "\n\n".join(blocks))


def description_prompt(
    description: str, feedback: Feedback = NoFeedback(), *, output: OutputStyle = "reasoned"
) -> tuple[Message, Message]:
    """The A-CEGIS messages asking for a Python regex matching a natural-language description."""
    system = "\n\n".join(
        [
            sections.description_task(),
            sections.python_syntax(),
            sections.output_format(output == "reasoned"),
        ]
    )
    blocks = [sections.description(description)]
    if not isinstance(feedback, NoFeedback):
        blocks.append(feedback_text(feedback))
    return Message("system", system), Message("user", "\n\n".join(blocks))


def feedback_text(feedback: Feedback) -> str:
    """The oracle's feedback on one attempt as the model reads it (empty for :class:`NoFeedback`)."""
    if isinstance(feedback, GenericFeedback):
        return sections.generic_feedback(feedback.previous_regex)
    if isinstance(feedback, ErrorCountFeedback):
        return sections.error_count_feedback(
            feedback.previous_regex, feedback.failed, feedback.total, feedback.syntax_error
        )
    if isinstance(feedback, DiagnosticFeedback):
        return sections.diagnostic_feedback(
            feedback.previous_regex,
            feedback.false_positives,
            feedback.false_negatives,
            feedback.syntax_error,
        )
    return ""
