"""StructuredRegex (Ye et al., ACL 2020): its prefix DSL read into our AST, with its own examples.

Each problem of a split file (``raw/{train,dev,testi,teste}.tsv``, a TSV with a header, read with
the ``csv`` module) has a regex in a prefix DSL (``concat(repeat(<num>,2),not(contain(<x>)))``)
and six positive and up to six negative strings. The DSL needs intersection and complement, so the
task is in the extended dialect over printable ASCII (:data:`UNIVERSE`); ``<any>`` is any printable
character. The data README (``../shared/data/README.md``, section 2) describes the format.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Literal

import attrs

from automata.errors import DEFAULT_STATE_LIMIT, StateLimitExceeded
from experiments.data_dir import DEFAULT_DATA_DIR
from experiments.datasets.errors import MalformedDataset
from experiments.datasets.files import StrPath, read_text
from experiments.datasets.task import Task, make_task
from regexlang import CharSet, unparse
from regexlang.ast import (
    Chars,
    Complement,
    Optional,
    Regex,
    Repeat,
    Star,
    concat,
    intersection,
    union,
)
from regexlang.ast import text as text_regex

UNIVERSE = CharSet([(0x20, 0x7E)])
STRUCTURED_REGEX_DIR = DEFAULT_DATA_DIR / "structured-regex"
ORIGIN = (
    "The folder is a copy of data/ of the GitHub repository xiye17/StructuredRegex (commit 7d49aa2), "
    "as the shared data README (../shared/data/README.md, section 2) describes"
)
Split = Literal["train", "dev", "testi", "teste"]

_CLASSES = {
    "num": CharSet.range("0", "9"),
    "let": CharSet.range("A", "Z") | CharSet.range("a", "z"),
    "low": CharSet.range("a", "z"),
    "cap": CharSet.range("A", "Z"),
    "spec": CharSet.of("-,;._+:!@#$%&^*="),
    "any": UNIVERSE,
}


@attrs.frozen
class StructuredProblem:
    """One problem: its task (the gold regex in the extended dialect) and its given examples."""

    task: Task
    dsl: str
    positives: tuple[str, ...]
    negatives: tuple[str, ...]


def load_structured_regex(
    folder: StrPath = STRUCTURED_REGEX_DIR,
    split: Split = "teste",
    *,
    state_limit: int = DEFAULT_STATE_LIMIT,
) -> tuple[StructuredProblem, ...]:
    """Every distinct problem of ``split`` (``raw/<split>.tsv``) in file order, skipping gold
    regexes whose automaton passes ``state_limit``. ``DatasetNotFound`` or ``MalformedDataset``
    name the file and row."""
    path = Path(folder) / "raw" / f"{split}.tsv"
    rows = csv.DictReader(io.StringIO(read_text(path, ORIGIN), newline=""), delimiter="\t")
    problems: dict[str, StructuredProblem] = {}
    for number, row in enumerate(rows, start=2):
        ident = row.get("problem_id")
        if ident is None or None in row.values() or row.get("regex") is None:
            raise MalformedDataset(
                path, f"row {number}", "not the five columns of the header", ORIGIN
            )
        if ident in problems:
            continue
        try:
            tree = parse_dsl(row["regex"])
        except ValueError as error:
            raise MalformedDataset(path, f"row {number}", str(error), ORIGIN) from None
        try:
            task, _ = make_task(
                ident, tree, unparse(tree, "extended", UNIVERSE), "extended", UNIVERSE, "structured-regex",
                description=row["description"], state_limit=state_limit,
            )  # fmt: skip
        except StateLimitExceeded:
            continue
        problems[ident] = StructuredProblem(
            task, row["regex"], _strings(row["pos_examples"]), _strings(row["neg_examples"])
        )
    return tuple(problems.values())


def _strings(field: str) -> tuple[str, ...]:
    """The examples of a field: separated by single spaces, an empty string between two of them."""
    return tuple(field.split(" ")) if field else ()


def parse_dsl(text: str) -> Regex:
    """The regex of a StructuredRegex DSL expression; ``ValueError`` on anything else."""
    tree, end = _expression(text, 0)
    if end != len(text):
        raise ValueError(f"unexpected {text[end:]!r} after a complete expression in {text!r}")
    return tree


def _expression(text: str, at: int) -> tuple[Regex, int]:
    if text.startswith("<", at):
        close = text.find(">", at + 2)  # the character may itself be '<' or ','
        if close < 0:
            raise ValueError(f"unclosed <...> at {at} in {text!r}")
        name = text[at + 1 : close]
        if name in _CLASSES:
            return Chars(_CLASSES[name]), close + 1
        if len(name) != 1:
            raise ValueError(f"unknown class <{name}> in {text!r}")
        return text_regex(name), close + 1
    open_ = text.find("(", at)
    if open_ < 0:
        raise ValueError(f"expected an operator at {at} in {text!r}")
    name = text[at:open_]
    if name == "const":
        close = text.find(">)", open_)
        if not text.startswith("(<", open_) or close < 0:
            raise ValueError(f"malformed const at {at} in {text!r}")
        return text_regex(text[open_ + 2 : close]), close + 2
    args: list[Regex | int] = []
    at = open_ + 1
    while True:
        if text[at : at + 1].isdigit():
            end = at
            while text[end : end + 1].isdigit():
                end += 1
            args.append(int(text[at:end]))
            at = end
        else:
            tree, at = _expression(text, at)
            args.append(tree)
        if text.startswith(",", at):
            at += 1
        elif text.startswith(")", at):
            return _apply(name, args, text), at + 1
        else:
            raise ValueError(f"expected ',' or ')' at {at} in {text!r}")


def _apply(name: str, args: list[Regex | int], text: str) -> Regex:
    trees = [a for a in args if not isinstance(a, int)]
    counts = [a for a in args if isinstance(a, int)]
    anything = Star(Chars(UNIVERSE))
    shapes: dict[str, tuple[int, int]] = {
        "concat": (2, 0), "or": (2, 0), "and": (2, 0), "not": (1, 0), "notcc": (1, 0), "star": (1, 0),
        "optional": (1, 0), "startwith": (1, 0), "endwith": (1, 0), "contain": (1, 0),
        "repeat": (1, 1), "repeatatleast": (1, 1), "repeatrange": (1, 2),
    }  # fmt: skip
    if shapes.get(name) != (len(trees), len(counts)):
        raise ValueError(
            f"{name} with {len(trees)} expressions and {len(counts)} numbers in {text!r}"
        )
    first = trees[0]
    if name == "concat":
        return concat(*trees)
    if name == "or":
        return union(*trees)
    if name == "and":
        return intersection(*trees)
    if name == "not":
        return Complement(first)
    if name == "notcc":
        if not isinstance(first, Chars):
            raise ValueError(f"notcc of something other than a class in {text!r}")
        return Chars(UNIVERSE - first.chars)
    if name == "star":
        return Star(first)
    if name == "optional":
        return Optional(first)
    if name == "startwith":
        return concat(first, anything)
    if name == "endwith":
        return concat(anything, first)
    if name == "contain":
        return concat(anything, first, anything)
    if name == "repeat":
        return Repeat(first, counts[0], counts[0])
    if name == "repeatatleast":
        return Repeat(first, counts[0], None)
    if counts[1] < counts[0]:
        raise ValueError(f"repeatrange with maximum below minimum in {text!r}")
    return Repeat(first, counts[0], counts[1])
