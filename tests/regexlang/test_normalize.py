"""normalize: hand-checked rewrites, and properties checked against a brute-force reference matcher.

The reference reads a regex as a *relation between positions*: for every string ``s`` of
``STRINGS`` (all strings over ``ALPHABET`` up to ``MAX_LENGTH``), a boolean matrix whose entry
``[i, j]`` says whether the node matches ``s[i:j]``. Concatenation is then the boolean matrix
product, union and intersection are ``|`` and ``&``, complement is ``~`` within ``i <= j``, a star
is the reflexive-transitive closure, and a zero-width assertion is a diagonal entry that looks at
``s`` around ``i``. It uses nothing of ``regexlang`` but the tree types, computes every string at
once with numpy, and is itself checked against Python ``re`` on the trees ``re`` can express. Two
trees have the same language, as far as these tests can see, when they accept the same strings.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Callable

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from regexlang import Dialect, parse, unparse
from regexlang.ast import (
    Assertion,
    AssertKind,
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
from tests.regexlang.strategies import python_trees, simple_trees

ALPHABET = "ab\n"
MAX_LENGTH = 5
STRINGS = [
    "".join(chars) for n in range(MAX_LENGTH + 1) for chars in itertools.product(ALPHABET, repeat=n)
]

Relation = npt.NDArray[np.bool_]  # [string, i, j]: the node matches STRINGS[string][i:j]

_LENGTHS = np.array([len(s) for s in STRINGS])
_POS = np.arange(MAX_LENGTH + 1)
_SPANS: Relation = (_POS[None, :, None] <= _POS[None, None, :]) & (
    _POS[None, None, :] <= _LENGTHS[:, None, None]
)
_IDENTITY: Relation = _SPANS & (_POS[:, None] == _POS[None, :])
_STEP: Relation = _SPANS & (_POS[:, None] + 1 == _POS[None, :])


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


_ASSERTIONS: dict[AssertKind, Relation] = {  # [string, i, 1], broadcasting over j
    kind: np.array(
        [[[i <= len(s) and _holds(kind, s, i)] for i in range(MAX_LENGTH + 1)] for s in STRINGS]
    )
    for kind in AssertKind
}
_TEXT = np.array(
    [[s[i : i + 1] for i in range(MAX_LENGTH + 1)] for s in STRINGS]
)  # "" past the end


def _power(step: Relation, times: int) -> Relation:
    return functools.reduce(np.matmul, [step] * times, _IDENTITY)


def _closure(step: Relation) -> Relation:
    reached = _IDENTITY
    while not np.array_equal(more := reached | reached @ step, reached):
        reached = more
    return reached


@functools.lru_cache(maxsize=4096)
def relation(node: Regex) -> Relation:
    """Where ``node`` matches, in every string at once (a cached array: never modify it)."""
    match node:
        case EmptySet():
            return np.zeros_like(_SPANS)
        case Epsilon():
            return _IDENTITY
        case Chars(chars):
            return _STEP & np.isin(_TEXT, [c for c in ALPHABET if c in chars])[:, :, None]
        case Assertion(kind):
            return _IDENTITY & _ASSERTIONS[kind]
        case Concat(parts):
            return functools.reduce(np.matmul, [relation(part) for part in parts])
        case Union(options):
            return functools.reduce(np.logical_or, [relation(option) for option in options])
        case Intersection(parts):
            return functools.reduce(np.logical_and, [relation(part) for part in parts])
        case Complement(inner):
            return _SPANS & ~relation(inner)
        case Star(inner):
            return _closure(relation(inner))
        case Plus(inner):
            return relation(inner) @ _closure(relation(inner))
        case Optional(inner):
            return _IDENTITY | relation(inner)
        case Repeat(inner, low, high):
            step = relation(inner)
            return _power(step, low) @ (
                _closure(step) if high is None else _power(_IDENTITY | step, high - low)
            )
    raise AssertionError(f"unknown node {node!r}")


def language(regex: Regex) -> frozenset[str]:
    """The strings of ``STRINGS`` that ``regex`` matches as a whole."""
    whole = relation(regex)[np.arange(len(STRINGS)), 0, _LENGTHS]
    return frozenset(s for s, matched in zip(STRINGS, whole) if matched)


a, b, c = literal("a"), literal("b"), literal("c")
ab = Chars(CharSet.of("ab"))
EPS, NONE = Epsilon(), EmptySet()
TOP = Complement(NONE)
BOUNDARY = Assertion(AssertKind.WORD_BOUNDARY)


def _repeat(args: tuple[Regex, int, int | None]) -> Regex:
    inner, low, extra = args
    return Repeat(inner, low, None if extra is None else low + extra)


# Literals are listed thrice to weigh them over the leaves that make most trees trivial.
LEAVES: st.SearchStrategy[Regex] = st.one_of(
    *[st.sampled_from(ALPHABET).map(literal)] * 3,
    st.frozensets(st.sampled_from(ALPHABET), max_size=3).map(
        lambda chars: Chars(CharSet.of(chars))
    ),
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
            return {AssertKind.LINE_START: "(?m:^)", AssertKind.LINE_END: "(?m:$)"}.get(
                kind, kind.value
            )
        case Concat(parts):
            return "".join(_python_pattern(part) for part in parts)
        case Union(options):
            return "(?:" + "|".join(_python_pattern(option) for option in options) + ")"
        case Star(inner) | Plus(inner) | Optional(inner):
            return (
                f"(?:{_python_pattern(inner)})" + {Star: "*", Plus: "+", Optional: "?"}[type(regex)]
            )
        case Repeat(inner, low, high):
            return f"(?:{_python_pattern(inner)}){{{low},{'' if high is None else high}}}"
    raise AssertionError(f"re cannot express {regex!r}")


@settings(max_examples=300)
@given(regexes(boolean=False))
def test_reference_matcher_agrees_with_python_re(regex: Regex) -> None:
    pattern = re.compile(_python_pattern(regex))
    assert language(regex) == frozenset(s for s in STRINGS if pattern.fullmatch(s))


@settings(max_examples=1000)
@given(regexes())
def test_normalize_preserves_the_language(regex: Regex) -> None:
    assert language(normalize(regex)) == language(regex)


Wrapper = Callable[[Regex], Regex]


def _counted(low: int, high: int | None) -> Wrapper:
    return lambda inner: Repeat(inner, low, high)


def _beside(other: Regex) -> st.SearchStrategy[Wrapper]:
    contexts: list[Wrapper] = [
        lambda r: concat(r, other),
        lambda r: concat(other, r),
        lambda r: union(r, other),
    ]
    return st.sampled_from(contexts)


BOUNDS = [(0, 0), (0, 1), (0, 2), (1, 1), (1, 3), (2, 2), (2, 3), (0, None), (1, None), (2, None)]
REPETITIONS: list[Wrapper] = [Star, Plus, Optional, *(_counted(low, high) for low, high in BOUNDS)]
WRAPPERS = st.sampled_from(REPETITIONS) | LEAVES.flatmap(_beside)


@settings(max_examples=500)
@given(regexes(max_leaves=3), st.lists(WRAPPERS, min_size=1, max_size=4))
def test_normalize_preserves_the_language_of_repetitions_in_context(
    inner: Regex, wrappers: list[Wrapper]
) -> None:
    regex = functools.reduce(lambda tree, wrap: wrap(tree), wrappers, inner)
    assert language(normalize(regex)) == language(regex)


SMALL_TREES = [
    *(a, ab, EPS, NONE, BOUNDARY, Star(a), Optional(a)),
    *(concat(a, b), concat(BOUNDARY, a), union(a, concat(b, b)), union(EPS, concat(a, b))),
]
STEPS: list[Wrapper] = [
    *REPETITIONS,
    lambda r: concat(r, b),
    lambda r: concat(b, r),
    lambda r: concat(r, Star(a)),
    lambda r: union(r, b),
    lambda r: union(r, EPS),
    lambda r: intersection(r, Star(a)),
    lambda r: Complement(r),
]


def test_normalize_preserves_the_language_of_every_small_tree_wrapped_twice() -> None:
    trees = [outer(inner(tree)) for tree in SMALL_TREES for inner in STEPS for outer in STEPS]
    assert [tree for tree in trees if language(normalize(tree)) != language(tree)] == []


@settings(max_examples=300)
@given(regexes(max_leaves=12))
def test_normalize_is_idempotent_and_never_deepens_stars(regex: Regex) -> None:
    once = normalize(regex)
    assert normalize(once) == once
    assert star_depth(once) <= star_depth(regex)


def _prints_and_reads_back(regex: Regex, dialect: Dialect) -> None:
    once = normalize(regex)
    assert normalize(parse(unparse(once, dialect), dialect)) == once


@given(simple_trees)
def test_normalized_simple_trees_print_and_read_back(regex: Regex) -> None:
    _prints_and_reads_back(regex, "simple")


@given(python_trees)
def test_normalized_python_trees_print_and_read_back(regex: Regex) -> None:
    _prints_and_reads_back(regex, "python")


REWRITES: list[tuple[str, Regex, Regex]] = [
    ("empty class", Chars(CharSet()), NONE),
    ("concat drops epsilon", concat(a, EPS, b), concat(a, b)),
    ("concat with empty set", concat(a, NONE, b), NONE),
    ("concat flattens after rewrite", concat(a, Repeat(concat(b, c), 1, 1)), concat(a, b, c)),
    ("adjacent equal stars", concat(Star(a), Star(a), b, Star(a)), concat(Star(a), b, Star(a))),
    ("union drops empty set", union(a, NONE, concat(b, c)), union(a, concat(b, c))),
    (
        "union keeps first of duplicates",
        union(concat(b, c), a, concat(b, c)),
        union(concat(b, c), a),
    ),
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
    (
        "star of union of stars",
        Star(union(EPS, Star(concat(a, b)), c)),
        Star(union(concat(a, b), c)),
    ),
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


@pytest.mark.parametrize(
    ("regex", "expected"), [(r, e) for _, r, e in REWRITES], ids=[n for n, _, _ in REWRITES]
)
def test_rewrite(regex: Regex, expected: Regex) -> None:
    assert normalize(regex) == expected
    assert language(expected) == language(regex)
