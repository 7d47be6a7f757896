"""Independent references and generators shared by the automata tests.

Languages are checked against Python's ``re`` (on the printed pattern) and against brute-force
enumeration of every short string, never against another part of ``automata``.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

from hypothesis import strategies as st

from regexlang import ast as A
from regexlang import unparse
from regexlang.charset import UNICODE, CharSet
from regexlang.unicode_classes import digit_chars, space_chars, word_chars

#: Characters that exercise every class boundary the python tests care about.
PYTHON_POOL = "ab_ 0\n-é٣ß\u00a0"


def strings_up_to(chars: str, max_len: int) -> Iterator[str]:
    """Every string over ``chars`` of length 0..max_len, shortest first, then lexicographically."""
    for length in range(max_len + 1):
        for letters in itertools.product(sorted(chars), repeat=length):
            yield "".join(letters)


def python_matches(regex: A.Regex, string: str) -> bool:
    """Membership by ``re.fullmatch`` on the Python spelling of ``regex``."""
    return re.fullmatch(unparse(regex, "python"), string) is not None


def finite_language(regex: A.Regex, chars: str, max_len: int) -> set[str]:
    """The strings over ``chars`` of length at most ``max_len`` in the language, bottom-up by node.

    Unlike ``re`` it cannot backtrack catastrophically, and it handles intersection and complement.
    """
    everything = set(strings_up_to(chars, max_len))

    def concat(left: set[str], right: set[str]) -> set[str]:
        return {x + y for x in left for y in right if len(x) + len(y) <= max_len}

    def star(inner: set[str]) -> set[str]:
        result, frontier = {""}, {""}
        while frontier:
            frontier = concat(frontier, inner) - result
            result |= frontier
        return result

    def walk(node: A.Regex) -> set[str]:
        if isinstance(node, A.Chars):
            return {c for c in chars if c in node.chars}
        if isinstance(node, A.Epsilon):
            return {""}
        if isinstance(node, A.EmptySet):
            return set()
        if isinstance(node, A.Concat):
            result = {""}
            for part in node.parts:
                result = concat(result, walk(part))
            return result
        if isinstance(node, A.Union):
            return set().union(*(walk(o) for o in node.options))
        if isinstance(node, A.Intersection):
            return set.intersection(*(walk(p) for p in node.parts))
        if isinstance(node, A.Complement):
            return everything - walk(node.inner)
        if isinstance(node, A.Star):
            return star(walk(node.inner))
        if isinstance(node, A.Plus):
            inner = walk(node.inner)
            return concat(inner, star(inner))
        if isinstance(node, A.Optional):
            return walk(node.inner) | {""}
        if isinstance(node, A.Repeat):
            inner = walk(node.inner)
            result = {""}
            for _ in range(node.min):
                result = concat(result, inner)
            if node.max is None:
                return concat(result, star(inner))
            optional = inner | {""}
            for _ in range(node.max - node.min):
                result = concat(result, optional)
            return result
        raise TypeError(f"no finite reference for {node!r}")

    return walk(regex)


def regexes(
    chars: str = "abc", *, max_leaves: int = 8, counted: bool = True
) -> st.SearchStrategy[A.Regex]:
    """Random regexes over single characters of ``chars`` (plus ε and, rarely, ∅)."""
    singles = [A.Chars(CharSet.of(c)) for c in chars]
    pairs = [A.Chars(CharSet.of(p)) for p in itertools.combinations(chars, 2)]
    leaf_nodes: list[A.Regex] = [*singles, *singles, *pairs, A.Epsilon(), A.EmptySet()]
    leaves = st.sampled_from(leaf_nodes)

    def extend(inner: st.SearchStrategy[A.Regex]) -> st.SearchStrategy[A.Regex]:
        options = [
            st.lists(inner, min_size=2, max_size=3).map(lambda parts: A.concat(*parts)),
            st.lists(inner, min_size=2, max_size=3).map(lambda parts: A.union(*parts)),
            inner.map(A.Star),
            inner.map(A.Plus),
            inner.map(A.Optional),
        ]
        if counted:
            options.append(
                st.tuples(inner, st.integers(0, 3), st.one_of(st.none(), st.integers(0, 2))).map(
                    lambda t: A.Repeat(t[0], t[1], None if t[2] is None else t[1] + t[2])
                )
            )
        return st.one_of(*options)

    return st.recursive(leaves, extend, max_leaves=max_leaves)


def _python_sets() -> list[CharSet]:
    word, digit, space = word_chars(), digit_chars(), space_chars()
    newline = CharSet.of("\n")
    return [
        *(CharSet.of(c) for c in PYTHON_POOL),
        CharSet.of("ab"),
        CharSet.range("a", "z"),
        word,
        digit,
        space,
        word.complement(),
        UNICODE,
        newline.complement(),
        CharSet.of("a").complement(),
        CharSet.of("_-").union(digit),
    ]


def python_regexes(*, max_leaves: int = 8) -> st.SearchStrategy[A.Regex]:
    """Random python-dialect regexes: classes, quantifiers (counted too) and every assertion."""
    leaves = st.one_of(
        st.sampled_from(_python_sets()).map(A.Chars),
        st.sampled_from(list(A.AssertKind)).map(A.Assertion),
        st.just(A.Epsilon()),
    )

    def extend(inner: st.SearchStrategy[A.Regex]) -> st.SearchStrategy[A.Regex]:
        return st.one_of(
            st.lists(inner, min_size=2, max_size=4).map(lambda parts: A.concat(*parts)),
            st.lists(inner, min_size=2, max_size=3).map(lambda parts: A.union(*parts)),
            inner.map(A.Star),
            inner.map(A.Plus),
            inner.map(A.Optional),
            st.tuples(inner, st.integers(0, 2), st.one_of(st.none(), st.integers(0, 2))).map(
                lambda t: A.Repeat(t[0], t[1], None if t[2] is None else t[1] + t[2])
            ),
        )

    return st.recursive(leaves, extend, max_leaves=max_leaves)


def python_strings() -> st.SearchStrategy[str]:
    """Short strings, mostly from the pool, sometimes any character; empty and '\\n' included."""
    return st.text(st.one_of(st.sampled_from(PYTHON_POOL), st.characters()), max_size=6)
