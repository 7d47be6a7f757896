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


def _symbol_sets(chars: str) -> st.SearchStrategy[CharSet]:
    singles = [CharSet.of(c) for c in chars]
    pairs = [CharSet.of(p) for p in itertools.combinations(chars, 2)]
    return st.sampled_from(singles + pairs)


def regexes(chars: str = "abc", *, max_leaves: int = 8, counted: bool = True) -> st.SearchStrategy[A.Regex]:
    """Random regexes over single characters of ``chars`` (plus ε and, rarely, ∅)."""
    leaves = st.one_of(
        _symbol_sets(chars).map(A.Chars),
        st.just(A.Epsilon()),
        st.just(A.EmptySet()),
    )

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
