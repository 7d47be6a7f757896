"""Answer extraction on tidy and adversarial replies, and parsing in the task's dialect."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

import regexlang
from cegis.llm.answers import (
    AnswerError,
    ParsedAnswer,
    extract,
    parse_answer,
    parse_candidates,
    parse_regex,
)

TAG = re.compile(r"<\s*/?\s*(ans|reasoning)\s*>", re.IGNORECASE)


@pytest.mark.parametrize(
    ("reply", "answer"),
    [
        ("<reasoning>r</reasoning>\n<ans>a b*</ans>", "a b*"),
        ("Sure! Here it is: <ans>  (a + b)*  </ans> Hope that helps.", "(a + b)*"),
        ("<ans>\n[A-Z]+#\n</ans>", "[A-Z]+#"),
        ("<ans>```regex\n(ab)*c\n```</ans>", "(ab)*c"),
        ("```\n<ans>a*</ans>\n```", "a*"),
        ("<ans>```a|b```</ans>", "a|b"),
        ("<ans>`a*b`</ans>", "a*b"),
        ("<ANS>x</Ans>", "x"),
        ("< ans >x< / ans >", "x"),
        ("first <ans>a</ans> then better <ans>b</ans>", "b"),
        ("<ans>a*\n\nThis accepts every string of a's.", "a*"),
        ("<ans>```\na b\n```\nwhich works because", "a b"),
        ("<ans>a<ans>b</ans>", "b"),
        ("I will answer in <ans></ans> tags. <ans>c*</ans>", "c*"),
        ("the final regex is a*", None),
        ("<ans>   </ans>", None),
        ("", None),
    ],
)
def test_extraction_examples(reply: str, answer: str | None) -> None:
    assert extract(reply).answer == answer


def test_multi_candidate_blocks_in_order() -> None:
    reply = "<reasoning>three ideas</reasoning>\n<ans>a*</ans>\n<ans>(a+b)*</ans>\n<ans>b</ans>"
    assert extract(reply).answers == ("a*", "(a+b)*", "b")


@pytest.mark.parametrize(
    ("reply", "reasoning"),
    [
        ("<reasoning> starts with a </reasoning><ans>a</ans>", "starts with a"),
        ("<reasoning>unclosed, then <ans>a</ans>", "unclosed, then"),
        ("<reasoning>old</reasoning> <reasoning>new</reasoning>", "new"),
        ("<ans>a</ans>", None),
    ],
)
def test_reasoning_extraction(reply: str, reasoning: str | None) -> None:
    assert extract(reply).reasoning == reasoning


# A regex-like answer: no tags, fences, backticks or line breaks, and not blank.
answers = st.text(st.sampled_from("ab c*+()|&~[]{}0-9#?.\\$^"), min_size=1, max_size=30).filter(
    lambda s: s.strip()
)
# Prose that may contain angle brackets and the word "ans" but no complete tag.
prose = st.text(st.sampled_from("xyz ans<>/\n.,:!reasoning"), max_size=40).filter(
    lambda s: not TAG.search(s)
)


@given(st.text(max_size=300))
def test_extraction_never_raises_and_yields_trimmed_answers(reply: str) -> None:
    result = extract(reply)
    for answer in result.answers:
        assert answer and answer == answer.strip()


@given(st.lists(st.tuples(prose, answers), min_size=1, max_size=4), prose)
def test_closed_blocks_come_back_exactly(blocks: list[tuple[str, str]], tail: str) -> None:
    reply = "".join(f"{before}<ans>{answer}</ans>" for before, answer in blocks) + tail
    assert extract(reply).answers == tuple(answer.strip() for _, answer in blocks)


@given(prose, answers, prose)
def test_an_unclosed_last_block_keeps_its_first_line(before: str, answer: str, after: str) -> None:
    reply = f"{before}<ans>{answer}\n{after}"
    assert extract(reply).answer == answer.strip()


@given(
    prose,
    answers,
    st.sampled_from(["", "regex", "python", "text "]),
    st.sampled_from(["", " ", "\n"]),
)
def test_fences_are_removed(before: str, answer: str, info: str, pad: str) -> None:
    reply = f"{before}<ans>{pad}```{info}\n{answer}\n```{pad}</ans>"
    assert extract(reply).answer == answer.strip()


def test_parse_answer_in_the_dialect() -> None:
    parsed = parse_answer("<ans>(a + b)* c</ans>", "simple")
    assert isinstance(parsed, ParsedAnswer) and parsed.text == "(a + b)* c"
    assert isinstance(parse_answer("<ans>[A-Z]{2,3}&~(AB)</ans>", "extended"), ParsedAnswer)


def test_syntax_errors_become_repair_feedback() -> None:
    error = parse_answer("<ans>(a b</ans>", "simple")
    assert isinstance(error, AnswerError) and error.kind == "syntax"
    assert error.text == "(a b" and error.position is not None
    feedback = error.feedback()
    assert feedback.startswith(error.message) and feedback.endswith(
        "\n" + " " * error.position + "^"
    )


def test_symbols_outside_the_alphabet_are_syntax_errors() -> None:
    error = parse_answer("<ans>a d</ans>", "simple")
    assert isinstance(error, AnswerError) and error.position == 2


def test_missing_answer() -> None:
    error = parse_answer("I think the answer is a*.", "simple")
    assert (
        isinstance(error, AnswerError) and error.kind == "missing" and "<ans>" in error.feedback()
    )


def test_candidates_are_parsed_one_by_one() -> None:
    results = parse_candidates("<ans>a*</ans><ans>(b</ans><ans>c</ans>", "simple")
    assert [type(r) for r in results] == [ParsedAnswer, AnswerError, ParsedAnswer]


@pytest.mark.parametrize(
    "wrapped",
    [
        r'r"\d+"',
        r"R'\d+'",
        r"'\d+'",
        r'"\d+"',
        r"/\d+/",
        r"re.compile(r'\d+')",
        r're.fullmatch( r"\d+" )',
        r"\d+",
    ],
)
def test_python_answers_lose_their_code_wrappers(wrapped: str) -> None:
    parsed = parse_answer(f"<ans>{wrapped}</ans>", "python")
    assert isinstance(parsed, ParsedAnswer) and parsed.text == r"\d+"
    assert parsed.regex == regexlang.parse(r"\d+", "python")
    assert parsed.lenient == (wrapped != r"\d+")


@pytest.mark.parametrize(
    ("wrapped", "why"),
    [
        (r"'\bword\b'", "backspace"),  # Python would read \b as a backspace
        (r"'\\d+'", "backspace"),  # ... and \\d as \d: either reading could be meant
        (r"re.compile(r'\d+', re.I)", "inline"),
        (r"re.compile(pattern)", "string literal"),
        (r"'\d+' + 'a'", "alone"),
    ],
)
def test_ambiguous_python_wrappers_are_syntax_errors_that_say_why(wrapped: str, why: str) -> None:
    error = parse_answer(f"<ans>{wrapped}</ans>", "python")
    assert isinstance(error, AnswerError) and error.kind == "syntax" and why in error.message


@given(answers.filter(lambda s: "'" not in s and not s.startswith("/")))
def test_a_raw_string_wrapper_never_changes_the_language(answer: str) -> None:
    plain, wrapped = parse_regex(answer, "python"), parse_regex(f"r'{answer}'", "python")
    if isinstance(plain, ParsedAnswer):
        assert isinstance(wrapped, ParsedAnswer) and wrapped.regex == plain.regex
    else:
        assert isinstance(wrapped, AnswerError)


def test_the_simple_dialect_is_lenient_about_bar_and_says_so() -> None:
    strict, bar = (
        parse_answer("<ans>(a + b)* c</ans>", "simple"),
        parse_answer("<ans>(a|b)*c</ans>", "simple"),
    )
    assert isinstance(strict, ParsedAnswer) and isinstance(bar, ParsedAnswer)
    assert bar.regex == strict.regex
    assert strict.notes == () and not strict.lenient
    assert bar.lenient and "'|'" in bar.notes[0]
