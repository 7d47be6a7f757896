"""normalize: hand-checked rewrites, and properties checked against a brute-force reference matcher.

The reference computes, for a string ``s`` and a start position ``i``, the set of positions where a
match of a node can end. That handles intersection (both parts end at the same place), complement
(every end position the inner node misses) and zero-width assertions (which look at ``s`` around
``i``) by definition, independently of anything in ``regexlang`` but the tree types. Two trees
have the same language over ``ALPHABET`` up to length ``MAX_LENGTH`` when they accept the same
strings; the reference itself is checked against Python ``re`` on the trees ``re`` can express.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from regexlang.ast import (
    AssertKind,
    Assertion,
    Chars,
    Complement,
    Concat,
    EmptySet,
    Epsilon,
    Intersection,
    Optional,
    Plus,
    Regex,
    Repeat,
    Star,
    Union,
    concat,
    intersection,
    literal,
    union,
)
from regexlang.charset import CharSet
from regexlang.metrics import star_depth
from regexlang.normalize import normalize

ALPHABET = "ab\n"
MAX_LENGTH = 5
STRINGS = ["".join(chars) for n in range(MAX_LENGTH + 1) for chars in itertools.product(ALPHABET, repeat=n)]


def _is_word(s: str, i: int) -> bool:
    return 0 <= i < len(s) and (s[i].isalnum() or s[i] == "_")


def _holds(kind: AssertKind, s: str, i: int) -> bool:
    n = len(s)
    boundary = _is_word(s, i - 1) != _is_word(s, i)
    return {
        AssertKind.WORD_BOUNDARY: boundary,
        AssertKind.NOT_WORD_BOUNDARY: not boundary and n > 0,  # re before 3.14: \B never matches ""
        AssertKind.TEXT_START: i == 0,
        AssertKind.TEXT_END: i == n,
        AssertKind.END_OR_FINAL_NEWLINE: i == n or (i == n - 1 and s[i] == "\n"),
        AssertKind.LINE_START: i == 0 or s[i - 1] == "\n",
        AssertKind.LINE_END: i == n or s[i] == "\n",
    }[kind]


class _Matcher:
    """End positions of matches of any node in one string, memoized per (node, start)."""

    def __init__(self, s: str) -> None:
        self.s = s
        self.memo: dict[tuple[Regex, int], frozenset[int]] = {}

    def ends(self, node: Regex, i: int) -> frozenset[int]:
        key = (node, i)
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = self._ends(node, i)
        return found

    def _after(self, node: Regex, starts: frozenset[int]) -> frozenset[int]:
        return frozenset(j for start in starts for j in self.ends(node, start))

    def _closure(self, node: Regex, starts: frozenset[int]) -> frozenset[int]:
        reached = starts
        while True:
            more = reached | self._after(node, reached)
            if more == reached:
                return reached
            reached = more

    def _ends(self, node: Regex, i: int) -> frozenset[int]:
        s = self.s
        match node:
            case EmptySet():
                return frozenset()
            case Epsilon():
                return frozenset({i})
            case Chars(chars):
                return frozenset({i + 1}) if i < len(s) and s[i] in chars else frozenset()
            case Assertion(kind):
                return frozenset({i}) if _holds(kind, s, i) else frozenset()
            case Concat(parts):
                reached = frozenset({i})
                for part in parts:
                    reached = self._after(part, reached)
                return reached
            case Union(options):
                return frozenset().union(*(self.ends(option, i) for option in options))
            case Intersection(parts):
                return frozenset.intersection(*(self.ends(part, i) for part in parts))
            case Complement(inner):
                return frozenset(range(i, len(s) + 1)) - self.ends(inner, i)
            case Star(inner):
                return self._closure(inner, frozenset({i}))
            case Plus(inner):
                return self._closure(inner, self.ends(inner, i))
            case Optional(inner):
                return self.ends(inner, i) | {i}
            case Repeat(inner, low, high):
                reached = frozenset({i})
                for _ in range(low):
                    reached = self._after(inner, reached)
                if high is None:
                    return self._closure(inner, reached)
                ends = reached
                for _ in range(high - low):
                    reached = self._after(inner, reached)
                    ends |= reached
                return ends
        raise AssertionError(f"unknown node {node!r}")


def languages(*regexes: Regex) -> list[frozenset[str]]:
    """For each regex, the strings of ``STRINGS`` it matches as a whole (subtrees they share are matched once)."""
    found: list[set[str]] = [set() for _ in regexes]
    for s in STRINGS:
        matcher = _Matcher(s)
        for strings, regex in zip(found, regexes):
            if len(s) in matcher.ends(regex, 0):
                strings.add(s)
    return [frozenset(strings) for strings in found]


def _repeat(args: tuple[Regex, int, int | None]) -> Regex:
    inner, low, extra = args
    return Repeat(inner, low, None if extra is None else low + extra)


# Literals are listed thrice to weigh them over the leaves that make most trees trivial.
LEAVES: st.SearchStrategy[Regex] = st.one_of(
    *[st.sampled_from(ALPHABET).map(literal)] * 3,
    st.frozensets(st.sampled_from(ALPHABET), max_size=3).map(lambda chars: Chars(CharSet.of(chars))),
    st.sampled_from([EmptySet(), Epsilon()]),
    st.sampled_from(list(AssertKind)).map(Assertion),
)


def regexes(*, boolean: bool = True, max_leaves: int = 8) -> st.SearchStrategy[Regex]:
    """Trees over ``ALPHABET``; ``boolean`` adds intersection and complement."""

    def extend(inner: st.SearchStrategy[Regex]) -> st.SearchStrategy[Regex]:
        several = st.lists(inner, min_size=2, max_size=3) | inner.map(lambda twice: [twice, twice])
        nodes = [
            several.map(lambda parts: concat(*parts)),
            several.map(lambda options: union(*options)),
            inner.map(Star),
            inner.map(Plus),
            inner.map(Optional),
            st.tuples(inner, st.integers(0, 3), st.none() | st.integers(0, 2)).map(_repeat),
        ]
        if boolean:
            nodes += [several.map(lambda parts: intersection(*parts)), inner.map(Complement)]
        return st.one_of(nodes)

    return st.recursive(LEAVES, extend, max_leaves=max_leaves)


def _python_pattern(regex: Regex) -> str:
    match regex:
        case EmptySet():
            return "(?!)"
        case Epsilon():
            return "(?:)"
        case Chars(chars):
            return "[" + "".join(re.escape(c) for c in chars) + "]" if chars else "(?!)"
        case Assertion(kind):
            return {AssertKind.LINE_START: "(?m:^)", AssertKind.LINE_END: "(?m:$)"}.get(kind, kind.value)
        case Concat(parts):
            return "".join(_python_pattern(part) for part in parts)
        case Union(options):
            return "(?:" + "|".join(_python_pattern(option) for option in options) + ")"
        case Star(inner) | Plus(inner) | Optional(inner):
            return f"(?:{_python_pattern(inner)})" + {Star: "*", Plus: "+", Optional: "?"}[type(regex)]
        case Repeat(inner, low, high):
            return f"(?:{_python_pattern(inner)}){{{low},{'' if high is None else high}}}"
    raise AssertionError(f"re cannot express {regex!r}")


@given(regexes(boolean=False))
def test_reference_matcher_agrees_with_python_re(regex: Regex) -> None:
    pattern = re.compile(_python_pattern(regex))
    assert languages(regex) == [frozenset(s for s in STRINGS if pattern.fullmatch(s))]


@settings(max_examples=200)
@given(regexes())
def test_normalize_preserves_the_language(regex: Regex) -> None:
    before, after = languages(regex, normalize(regex))
    assert after == before


Wrapper = Callable[[Regex], Regex]


def _counted(low: int, high: int | None) -> Wrapper:
    return lambda inner: Repeat(inner, low, high)


def _beside(other: Regex) -> st.SearchStrategy[Wrapper]:
    contexts: list[Wrapper] = [lambda r: concat(r, other), lambda r: concat(other, r), lambda r: union(r, other)]
    return st.sampled_from(contexts)


BOUNDS = [(0, 0), (0, 1), (0, 2), (1, 1), (1, 3), (2, 2), (2, 3), (0, None), (1, None), (2, None)]
REPETITIONS: list[Wrapper] = [Star, Plus, Optional, *(_counted(low, high) for low, high in BOUNDS)]
WRAPPERS = st.sampled_from(REPETITIONS) | LEAVES.flatmap(_beside)


@settings(max_examples=200)
@given(regexes(max_leaves=3), st.lists(WRAPPERS, min_size=1, max_size=4))
def test_normalize_preserves_the_language_of_repetitions_in_context(inner: Regex, wrappers: list[Wrapper]) -> None:
    regex = functools.reduce(lambda tree, wrap: wrap(tree), wrappers, inner)
    before, after = languages(regex, normalize(regex))
    assert after == before


@given(regexes(max_leaves=16))
def test_normalize_is_idempotent_and_never_deepens_stars(regex: Regex) -> None:
    once = normalize(regex)
    assert normalize(once) == once
    assert star_depth(once) <= star_depth(regex)


a, b, c = literal("a"), literal("b"), literal("c")
ab = Chars(CharSet.of("ab"))
EPS, NONE = Epsilon(), EmptySet()
TOP = Complement(NONE)
BOUNDARY = Assertion(AssertKind.WORD_BOUNDARY)

REWRITES: list[tuple[str, Regex, Regex]] = [
    ("empty class", Chars(CharSet()), NONE),
    ("concat drops epsilon", concat(a, EPS, b), concat(a, b)),
    ("concat with empty set", concat(a, NONE, b), NONE),
    ("concat flattens after rewrite", concat(a, Repeat(concat(b, c), 1, 1)), concat(a, b, c)),
    ("adjacent equal stars", concat(Star(a), Star(a), b, Star(a)), concat(Star(a), b, Star(a))),
    ("union drops empty set", union(a, NONE, concat(b, c)), union(a, concat(b, c))),
    ("union keeps first of duplicates", union(concat(b, c), a, concat(b, c)), union(concat(b, c), a)),
    ("union of characters merges", union(a, b, a), ab),
    ("union of characters and a string stays", union(a, concat(b, c)), union(a, concat(b, c))),
    ("union drops redundant epsilon", union(EPS, Star(a), b), union(Star(a), b)),
    ("union keeps needed epsilon", union(EPS, concat(a, b)), union(EPS, concat(a, b))),
    ("union keeps epsilon beside an assertion", union(EPS, BOUNDARY), union(EPS, BOUNDARY)),
    ("union with everything", union(a, TOP), TOP),
    ("intersection of characters", intersection(ab, Chars(CharSet.of("bc"))), b),
    ("disjoint characters", intersection(a, b), NONE),
    ("intersection drops everything and duplicates", intersection(Star(a), TOP, Star(a)), Star(a)),
    ("intersection with empty set", intersection(Star(a), NONE), NONE),
    ("double complement", Complement(Complement(Star(a))), Star(a)),
    ("star of star", Star(Star(a)), Star(a)),
    ("star of plus", Star(Plus(a)), Star(a)),
    ("star of optional", Star(Optional(concat(a, b))), Star(concat(a, b))),
    ("star of epsilon", Star(EPS), EPS),
    ("star of empty set", Star(NONE), EPS),
    ("star of bounded repeat", Star(Repeat(concat(a, b), 1, 3)), Star(concat(a, b))),
    ("star keeps repeat from 2", Star(Repeat(a, 2, 3)), Star(Repeat(a, 2, 3))),
    ("star of union of stars", Star(union(EPS, Star(concat(a, b)), c)), Star(union(concat(a, b), c))),
    ("star of nullable concat", Star(concat(Star(a), Optional(b))), Star(ab)),
    ("star keeps concat with a required part", Star(concat(Star(a), b)), Star(concat(Star(a), b))),
    ("plus of star", Plus(Star(a)), Star(a)),
    ("plus of plus", Plus(Plus(a)), Plus(a)),
    ("plus of optional", Plus(Optional(a)), Star(a)),
    ("plus of bounded repeat", Plus(Repeat(a, 1, 4)), Plus(a)),
    ("plus of empty set", Plus(NONE), NONE),
    ("optional of star", Optional(Star(a)), Star(a)),
    ("optional of optional", Optional(Optional(a)), Optional(a)),
    ("optional of plus", Optional(Plus(a)), Star(a)),
    ("optional of empty set", Optional(NONE), EPS),
    ("repeat once", Repeat(concat(a, b), 1, 1), concat(a, b)),
    ("repeat zero times", Repeat(a, 0, 0), EPS),
    ("repeat {0,}", Repeat(a, 0, None), Star(a)),
    ("repeat {1,}", Repeat(a, 1, None), Plus(a)),
    ("repeat {0,1}", Repeat(a, 0, 1), Optional(a)),
    ("repeat of epsilon", Repeat(EPS, 2, 5), EPS),
    ("repeat of empty set from 0", Repeat(NONE, 0, 3), EPS),
    ("repeat of empty set from 1", Repeat(NONE, 2, 3), NONE),
    ("repeat of star", Repeat(Star(a), 2, 3), Star(a)),
    ("unbounded repeat of nullable", Repeat(Optional(a), 3, None), Star(a)),
    ("counted repeat stays", Repeat(a, 2, 3), Repeat(a, 2, 3)),
    ("assertion stays", concat(BOUNDARY, Plus(a), BOUNDARY), concat(BOUNDARY, Plus(a), BOUNDARY)),
]


@pytest.mark.parametrize(("regex", "expected"), [(r, e) for _, r, e in REWRITES], ids=[n for n, _, _ in REWRITES])
def test_rewrite(regex: Regex, expected: Regex) -> None:
    assert normalize(regex) == expected
    before, after = languages(regex, expected)
    assert after == before
