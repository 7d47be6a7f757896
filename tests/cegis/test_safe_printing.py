"""What users paste is its safe form by default: the same language as the print as written, which
Python's own ``re`` and the minimal DFA both confirm, for whole-string and anchored search calls
and over a restricted universe."""

from __future__ import annotations

import itertools
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from automata.algebra.ops import equivalent
from automata.building.compile import compile_regex
from automata.redos import check
from cegis.redos_check import warning
from cegis.symbolic.passive import pasteable
from regexlang import parse
from regexlang.ast import Chars, Optional, Plus, Regex, Repeat, Star, concat, union
from regexlang.charset import UNICODE, CharSet
from regexlang.flavors import Anchoring

_ALPHABET = "ab1\n"
_SMALL = CharSet.of("ab1")
_TEXTS = ["".join(chars) for n in range(6) for chars in itertools.product(_ALPHABET, repeat=n)]

_LEAF = st.sampled_from(
    [
        Chars(CharSet.of("a")),
        Chars(CharSet.of("ab")),
        Chars(CharSet.of("1")),
        Chars(UNICODE - CharSet.of("\n")),
        Chars(_SMALL),
    ]
)


def _trees() -> st.SearchStrategy[Regex]:
    def extend(inner: st.SearchStrategy[Regex]) -> st.SearchStrategy[Regex]:
        return st.one_of(
            inner.map(Star),
            inner.map(Plus),
            inner.map(Optional),
            st.tuples(inner, st.integers(0, 2)).map(lambda p: Repeat(p[0], p[1], None)),
            st.tuples(inner, inner).map(lambda p: concat(*p)),
            st.tuples(inner, inner, inner).map(lambda p: concat(*p)),
            st.tuples(inner, inner).map(lambda p: union(*p)),
        )

    return st.recursive(_LEAF, extend, max_leaves=6)


def _matches(pattern: str, text: str, anchored: Anchoring) -> bool:
    return bool((re.fullmatch if anchored == "fullmatch" else re.search)(pattern, text))


@settings(max_examples=120, derandomize=True, deadline=None)
@given(_trees(), st.sampled_from(["fullmatch", "search"]), st.booleans())
def test_every_safe_form_is_the_language_of_the_print_it_replaces(
    tree: Regex, anchored: Anchoring, small: bool
) -> None:
    universe = _SMALL if small else UNICODE
    printed = pasteable(tree, "python", anchored, universe)
    assert printed.verdict is not None
    if printed.plain is None:  # kept as written: linear, or warned about with the reason
        assert printed.verdict.linear or (warning(printed) and printed.reason)
        return
    assert printed.verdict.linear
    texts = [t for t in _TEXTS if not small or "\n" not in t]
    for text in texts:
        assert _matches(printed.text, text, anchored) == _matches(
            printed.plain.text, text, anchored
        ), (printed.text, printed.plain.text, text)
    if anchored == "fullmatch":
        assert check(printed.text).linear
        safe = compile_regex(parse(printed.text, "python", universe), universe)
        plain = compile_regex(parse(printed.plain.text, "python", universe), universe)
        assert equivalent(safe, plain)


def test_the_plain_print_is_there_on_request() -> None:
    tree = parse("(?:a+)+b", "python")
    plain = pasteable(tree, "python", printing="plain")
    assert (plain.text, plain.plain) == ("(?:a+)+b", None)
    assert plain.verdict is not None and plain.verdict.verdict == "exponential"
    safe = pasteable(tree, "python")
    assert (safe.text, safe.plain) == ("a+b", plain)
