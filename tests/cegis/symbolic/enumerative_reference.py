"""Independent references for the enumerative learner's tests: every regex tree up to a size, as
Python ``re`` text, and an example checker that expands clustered examples and uses ``re``."""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Sequence

from oracle.examples import ClusteredExample, Counterexample, Example
from regexlang.ast import Chars, Concat, Epsilon, Optional, Plus, Regex, Repeat, Star, Union
from regexlang.charset import CharSet


@functools.cache
def trees(leaves: tuple[str, ...], extended: bool, size: int) -> tuple[str, ...]:
    """Every tree of exactly ``size`` nodes over ``leaves`` (``re`` text) and ε, as ``re`` text;
    ``extended`` adds ``+``, ``?`` and ``{2}`` to ``*``, ``·`` and ``|``."""
    if size == 1:
        return (*leaves, "")
    quantifiers = ("*", "+", "?", "{2}") if extended else ("*",)
    found = [f"(?:{t}){q}" for t in trees(leaves, extended, size - 1) for q in quantifiers]
    for left in range(1, size - 1):
        for a, b in itertools.product(
            trees(leaves, extended, left), trees(leaves, extended, size - 1 - left)
        ):
            found.append(f"(?:{a})(?:{b})")
            found.append(f"(?:{a}|{b})")
    return tuple(found)


def strings_of(example: Counterexample) -> list[str]:
    """Every string an example stands for."""
    if isinstance(example, Example):
        return [example.string]
    return list(example.strings())


def consistent(pattern: str, examples: Sequence[Counterexample]) -> bool:
    """Whether the ``re`` pattern labels every string of every example as the example does."""
    compiled = re.compile(pattern, re.DOTALL)
    return all(bool(compiled.fullmatch(s)) == e.label for e in examples for s in strings_of(e))


def smallest(
    leaves: tuple[str, ...], extended: bool, examples: Sequence[Counterexample], max_size: int
) -> int | None:
    """The size of a smallest consistent tree, or None when there is none up to ``max_size``."""
    for size in range(1, max_size + 1):
        if any(consistent(t, examples) for t in trees(leaves, extended, size)):
            return size
    return None


def binary_size(regex: Regex) -> int:
    """The size of a tree counting an n-ary ``·``/``|`` as n - 1 binary nodes."""
    if isinstance(regex, (Chars, Epsilon)):
        return 1
    if isinstance(regex, (Star, Plus, Optional, Repeat)):
        return 1 + binary_size(regex.inner)
    if isinstance(regex, Concat):
        return len(regex.parts) - 1 + sum(map(binary_size, regex.parts))
    if isinstance(regex, Union):
        return len(regex.options) - 1 + sum(map(binary_size, regex.options))
    raise AssertionError(f"the enumerative learner does not build {type(regex).__name__}")


def clustered(pattern: Sequence[str], label: bool) -> ClusteredExample:
    """A clustered example from position strings (``"ab"`` is the class of a and b)."""
    return ClusteredExample(tuple(CharSet.of(p) for p in pattern), label)
