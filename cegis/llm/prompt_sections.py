"""The wording of every prompt section, one function per section.

:mod:`cegis.llm.prompts` decides which sections a prompt has and in what order; this module only says
what each section says. Sections are pure functions of their parameters, so the same parameters
always give byte-identical text, which is what lets a server's prefix cache reuse the static part
of a prompt across calls.

The structure follows Appendix F of the seed paper (task, input format, syntax, strategy,
constraints, agentic updates, output format, training data); the sentences are our own.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from regexlang import Dialect

DATA_HEADER = "TRAINING DATA (one `<string>, <label>` pair per line):"

_DIALECT_NAMES: dict[Dialect, str] = {
    "simple": "the pyformlang Regex syntax",
    "extended": "the extended regex syntax",
    "python": "Python `re` syntax",
}

_CLUSTER_EXAMPLES: dict[Dialect, tuple[str, str]] = {
    "simple": ("a[bc]a, 0", "aba and aca"),
    "extended": ("S[0-9]#run, 1", "S0#run, S1#run, ..., S9#run"),
    "python": ("x[0-9]y, 1", "x0y, x1y, ..., x9y"),
}


def example_task(dialect: Dialect, *, syntax_below: bool = True) -> str:
    described = " described below" if syntax_below else ""
    return (
        "TASK\n"
        "Find one regular expression whose language contains every string labeled 1 in the training\n"
        f"data and none of the strings labeled 0. Write it in {_DIALECT_NAMES[dialect]}{described},\n"
        "and keep it as short as the data allows."
    )


def input_format(dialect: Dialect, alphabet: str, clustered: bool) -> str:
    lines = [
        "INPUT FORMAT",
        "- The training data comes after its header line, one labeled string per line, written as",
        "  `<string>, <label>`.",
        "- The label after the last comma is 1 when the string is in the language, 0 when it is not.",
        "- The empty string is written as nothing before the comma: `, 1` puts it in the language.",
        f"- {alphabet}",
    ]
    if dialect == "python":
        lines.append(
            "- Backslashes and characters that cannot be printed are written as Python string escapes:\n"
            "  `\\\\` is one backslash, `\\n` a line break, `\\t` a tab, `\\x00` the character with code 0."
        )
    if clustered:
        line, expansion = _CLUSTER_EXAMPLES[dialect]
        lines += [
            "- Some lines contain character classes in square brackets, such as `" + line + "`.",
            "  Such a line stands for every string you get by choosing one character from each class",
            f"  ({expansion}), and all of those strings carry the line's label.",
        ]
    return "\n".join(lines)


def simple_syntax() -> str:
    return (
        "REGEX SYNTAX (pyformlang Regex)\n"
        "- A symbol is one character of the alphabet, written as itself.\n"
        "- Concatenation: parts written one after another, separated by spaces, as in `a b c`.\n"
        "- Union: `+`, as in `a + b c`.\n"
        "- Kleene star (zero or more repetitions): a postfix `*`, as in `(a b)*`.\n"
        "- The empty string: the word `epsilon`.\n"
        "- Parentheses group.\n"
        "- Nothing else: no `|`, `.`, `?`, `[...]`, `{...}`, anchors or lookarounds, and no symbol\n"
        "  outside the alphabet."
    )


def extended_syntax(alphabet: str) -> str:
    return (
        "REGEX SYNTAX (extended regular expressions)\n"
        f"- Alphabet: {alphabet}. No other character may appear as a symbol.\n"
        "- Concatenation: parts written next to each other, as in `ab`.\n"
        "- Union: `|`. Intersection, the strings both sides match: `&`.\n"
        "- Complement, every string over the alphabet that the inner regex does not match: `~(...)`.\n"
        "- Repetition: `*` (zero or more), `+` (one or more), `?` (zero or one), `{n}`, `{n,m}`, `{n,}`.\n"
        "- Character classes such as `[A-Z]`, `[0-9]` or `[a-f#]`, with ranges inside the alphabet.\n"
        "- The empty string: `()`. Parentheses group.\n"
        "- Binding, loosest first: `|`, then `&`, then concatenation, then repetition; `~` applies to\n"
        "  the single atom or group right after it, so write `~(...)`.\n"
        "- Not allowed: `.`, negated classes `[^...]`, anchors, word boundaries, lookarounds,\n"
        "  backreferences, and escapes such as `\\d` or `\\w`."
    )


def python_syntax() -> str:
    return (
        "REGEX SYNTAX (Python re)\n"
        "- Write a pattern for Python's `re` module. It is tested with `re.fullmatch`, so it must\n"
        "  match whole strings; `^` and `$` are not needed.\n"
        "- Classes, escapes such as `\\d`, `\\w` and `\\s`, quantifiers, `|` and groups mean what\n"
        "  they mean in Python.\n"
        "- Lookarounds `(?=...)`, `(?!...)`, `(?<=...)`, `(?<!...)` are allowed (a lookbehind of fixed\n"
        "  width); backreferences, conditionals and atomic groups are not.\n"
        '- Write the bare pattern, not a quoted string or an `r"..."` literal.'
    )


def strategy(dialect: Dialect) -> str:
    classes = "" if dialect == "simple" else ", and use classes for interchangeable characters"
    return (
        "INFERENCE STRATEGY\n"
        "1) Compare how the positive and the negative strings begin and end.\n"
        "2) Look for blocks that repeat, and for how repetitions nest.\n"
        "3) Decide whether a repeated part is a star over a union or a union of stars.\n"
        f"4) Pull shared pieces out of alternatives{classes}.\n"
        "5) Let the regex accept the empty string only if a line requires it.\n"
        "6) Generalize no further than the data supports.\n"
        "7) Before answering, check the regex against every line of the data."
    )


def constraints(dialect: Dialect, max_length: int, max_star_depth: int) -> str:
    stars = " (`*`, `+` and `?` all count)" if dialect != "simple" else ""
    return (
        "CONSTRAINTS\n"
        "- Among the regexes that agree with all the data, choose a simple and general one.\n"
        f"- At most {max_length} characters long, spaces not counted.\n"
        f"- Repetition operators nested at most {max_star_depth} deep{stars}.\n"
        "- Apart from operators, use only characters of the alphabet."
    )


def output_format(reasoned: bool) -> str:
    if not reasoned:
        return (
            "OUTPUT FORMAT\n- Reply with the regex alone inside <ans>...</ans>, and no other text."
        )
    return (
        "OUTPUT FORMAT\n"
        "- First explain your answer in one to three short sentences inside <reasoning>...</reasoning>.\n"
        "- Then give the regex alone inside <ans>...</ans>, with nothing else in that block."
    )


def training_data(lines: Sequence[str], total: int | None = None) -> str:
    if total is None or total <= len(lines):
        return "\n".join([DATA_HEADER, *lines])
    note = (
        f"(The data has {total} lines, more than fit here: shown are the newest ones and an even sample of"
        f" the older ones, {len(lines)} in all. The regex must still fit every line.)"
    )
    return "\n".join([DATA_HEADER, note, *lines])


def reflection(
    previous_reasoning: str, previous_regex: str, failure: str, counterexamples: Sequence[str]
) -> str:
    instructions = (
        "REFLECTION ON THE PREVIOUS EPOCH\n"
        "- Below are your previous reasoning and regex, and counterexamples the teacher found for it.\n"
        "- Say briefly what went wrong and what has to change.\n"
        "- Then give a new regex that agrees with all the training data, counterexamples included.\n"
        "- Keep the reasoning to one to three sentences about the change."
    )
    return _previous_attempt(
        instructions, previous_reasoning, previous_regex, ("What went wrong:", failure),
        ("New counterexamples (string, label):", counterexamples),
    )  # fmt: skip


def repair(
    previous_reasoning: str, previous_regex: str, feedback: str, examples: Sequence[str]
) -> str:
    instructions = (
        "REPAIR OF THE PREVIOUS ATTEMPT\n"
        "- Your previous attempt failed the checks reported below; repair it.\n"
        "- Aims, in order: (1) the regex parses in the required syntax; (2) it labels every repair\n"
        "  example and reported witness correctly; (3) the parts of the old regex that already fit\n"
        "  the training data survive.\n"
        "- If the old regex did not parse, fix its syntax first.\n"
        "- Say briefly what you changed, then answer in the required output format."
    )
    return _previous_attempt(
        instructions,
        previous_reasoning,
        previous_regex,
        ("Feedback:", feedback),
        ("Repair examples (string, label):", examples),
    )


def _previous_attempt(
    instructions: str,
    reasoning: str,
    regex: str,
    note: tuple[str, str],
    data: tuple[str, Sequence[str]],
) -> str:
    """A section about the previous attempt: the instructions, its reasoning and regex, an optional
    labeled note (left out when empty), and the labeled example lines."""
    parts = [
        instructions,
        _labeled("Previous reasoning:", reasoning),
        _labeled("Previous regex:", regex),
    ]
    if note[1]:
        parts.append(_labeled(*note))
    parts.append(_labeled(data[0], "\n".join(data[1])))
    return "\n".join(parts)


def candidates(count: int) -> str:
    return (
        "SEVERAL CANDIDATES\n"
        f"- Instead of one regex, propose exactly {count} different candidate regexes.\n"
        "- Put each candidate in its own <ans>...</ans> block.\n"
        "- One short shared <reasoning>...</reasoning> block may come before them.\n"
        "- Write nothing after the last </ans>."
    )


def description_task() -> str:
    return (
        "TASK\n"
        "Write a regular expression for the set of strings that the description below defines in\n"
        "plain English. Your regex is tested with `re.fullmatch` against strings the description\n"
        "accepts and strings it rejects."
    )


def description(text: str) -> str:
    return _labeled("DESCRIPTION", text)


def generic_feedback(previous_regex: str) -> str:
    return _labeled("PREVIOUS ATTEMPT", previous_regex) + "\nThat regex is not correct. Try again."


def error_count_feedback(
    previous_regex: str, failed: int, total: int, syntax_error: str | None
) -> str:
    verdict = f"That regex failed {failed} of {total} hidden tests."
    if syntax_error:
        verdict = f"{_unreadable(previous_regex, syntax_error)}\n{verdict}"
    return _labeled("PREVIOUS ATTEMPT", previous_regex) + f"\n{verdict} Fix it."


def diagnostic_feedback(
    previous_regex: str,
    false_positives: Sequence[str],
    false_negatives: Sequence[str],
    syntax_error: str | None,
) -> str:
    parts = [_labeled("PREVIOUS ATTEMPT", previous_regex)]
    if syntax_error:
        parts.append(_unreadable(previous_regex, syntax_error))
    if false_positives:
        parts.append(_witnesses("It matches these strings, which it must reject:", false_positives))
    if false_negatives:
        parts.append(_witnesses("It rejects these strings, which it must match:", false_negatives))
    if false_positives or false_negatives:
        parts.append("Change the regex so that every string above gets the right verdict.")
    elif syntax_error:
        parts.append("Write a regex that parses, for the description above.")
    return "\n".join(parts)


def _unreadable(previous_regex: str, error: str) -> str:
    # a reply without a regex is not a regex that does not parse: say which one the model wrote
    if previous_regex:
        return f"That regex does not parse: {error}"
    return f"That reply holds no regex that could be read ({error})."


def _witnesses(title: str, strings: Sequence[str]) -> str:
    # JSON quoting makes spaces, empty strings and escapes visible
    return "\n".join([title, *(f"- {json.dumps(s, ensure_ascii=False)}" for s in strings)])


def _labeled(title: str, body: str) -> str:
    return f"{title}\n{body}" if body else f"{title}\n(none)"
