"""An independent model of a backtracking engine: a continuation-passing matcher over the tree that
counts its steps, with no optimisation (JavaScript-like), stopping loops whose iteration matched
nothing, as the engines do. Assertions are decided on the text around the position (CPython's
rules, as plain Python); ``search`` tries every start in turn."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable

from regexlang.ast import (
    Assertion,
    AssertKind,
    Chars,
    Concat,
    Epsilon,
    Optional,
    Plus,
    Regex,
    Repeat,
    Star,
    Union,
)

Next = Callable[[int], bool]


def holds(kind: AssertKind, text: str, i: int) -> bool:
    """Whether assertion ``kind`` holds at position ``i`` of ``text``."""
    before = text[i - 1] if i > 0 else ""
    after = text[i] if i < len(text) else ""
    word = re.compile(r"\w")
    if kind in (AssertKind.WORD_BOUNDARY, AssertKind.NOT_WORD_BOUNDARY):
        boundary = bool(word.match(before)) != bool(word.match(after))
        return boundary if kind is AssertKind.WORD_BOUNDARY else not boundary and text != ""
    return {
        AssertKind.TEXT_START: i == 0,
        AssertKind.TEXT_END: i == len(text),
        AssertKind.END_OR_FINAL_NEWLINE: i == len(text) or text[i:] == "\n",
        AssertKind.LINE_START: i == 0 or before == "\n",
        AssertKind.LINE_END: i == len(text) or after == "\n",
    }[kind]


def steps(regex: Regex, text: str, semantics: str = "fullmatch") -> int:
    """Steps a naive backtracking ``fullmatch`` (or ``search``) of ``regex`` takes on ``text``."""
    count = 0

    def match(node: Regex, i: int, then: Next) -> bool:
        nonlocal count
        count += 1
        if isinstance(node, Chars):
            return i < len(text) and text[i] in node.chars and then(i + 1)
        if isinstance(node, Epsilon):
            return then(i)
        if isinstance(node, Assertion):
            return holds(node.kind, text, i) and then(i)
        if isinstance(node, Concat):
            return sequence(node.parts, i, then)
        if isinstance(node, Union):
            return any(match(option, i, then) for option in node.options)
        if isinstance(node, Optional):
            return match(node.inner, i, then) or then(i)
        if isinstance(node, Star):
            return loop(node.inner, i, then)
        if isinstance(node, Plus):
            return match(node.inner, i, lambda j: loop(node.inner, j, then))
        if isinstance(node, Repeat):
            return repeat(node, i, then)
        raise TypeError(type(node).__name__)

    def sequence(parts: tuple[Regex, ...], i: int, then: Next) -> bool:
        if not parts:
            return then(i)
        return match(parts[0], i, lambda j: sequence(parts[1:], j, then))

    def loop(inner: Regex, i: int, then: Next) -> bool:
        return match(inner, i, lambda j: j != i and loop(inner, j, then)) or then(i)

    def repeat(node: Repeat, i: int, then: Next) -> bool:
        mandatory = (node.inner,) * node.min
        if node.max is None:
            return sequence((*mandatory, Star(node.inner)), i, then)
        tail: Regex = Epsilon()
        for _ in range(node.max - node.min):
            tail = Optional(node.inner if isinstance(tail, Epsilon) else Concat((node.inner, tail)))
        return sequence((*mandatory, tail), i, then)

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20_000))
    try:
        if semantics == "search":
            any(match(regex, start, lambda _: True) for start in range(len(text) + 1))
        else:
            match(regex, 0, lambda j: j == len(text))
    finally:
        sys.setrecursionlimit(limit)
    return count
