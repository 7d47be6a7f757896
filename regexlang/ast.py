"""The immutable regex AST shared by all three dialects.

One tree type serves the simple, extended and python dialects, so everything downstream
(compilation to automata, metrics, prompts) is written once. Nodes are frozen ``attrs`` values with
cached hashes, so trees can key caches and be compared structurally.

The tree describes a *language*, not a matcher: capturing groups, group names and greedy/lazy/
possessive quantifier flavours are gone after parsing. Two invariants keep the representation
canonical with respect to associativity, which is what makes ``parse(unparse(r)) == r`` hold:

* ``Concat``, ``Union`` and ``Intersection`` have at least two children, and no child has the
  same node type as its parent (they are flat). Use :func:`concat`, :func:`union` and
  :func:`intersection` to build them from any number of parts.
* A literal character is a ``Chars`` node whose set has one element.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Callable, Iterable, Iterator
from typing import TypeAlias, TypeVar

import attrs

from regexlang.charset import CharSet


def _flat(node: object, attribute: object, children: tuple[Regex, ...]) -> None:
    """The invariant of ``Concat``, ``Union`` and ``Intersection`` children (the validator of their
    one field; it runs on every node built, so it is a plain function with a plain loop)."""
    node_type = type(node)
    if not isinstance(children, tuple):
        raise TypeError(
            f"{node_type.__name__} children must be a tuple (hashable), got {type(children).__name__}"
        )
    if len(children) < 2:
        raise ValueError(f"{node_type.__name__} needs at least two children, got {len(children)}")
    for child in children:
        if type(child) is node_type:
            raise ValueError(f"{node_type.__name__} children must be flattened")


@attrs.frozen(cache_hash=True)
class EmptySet:
    """The empty language."""


@attrs.frozen(cache_hash=True)
class Epsilon:
    """The language containing only the empty string."""


@attrs.frozen(cache_hash=True)
class Chars:
    """One character drawn from ``chars`` (a literal when the set has one element)."""

    chars: CharSet


@attrs.frozen(cache_hash=True)
class Concat:
    """Concatenation of two or more parts, in order."""

    parts: tuple[Regex, ...] = attrs.field(validator=_flat)


@attrs.frozen(cache_hash=True)
class Union:
    """Alternation of two or more options (order kept as written)."""

    options: tuple[Regex, ...] = attrs.field(validator=_flat)


@attrs.frozen(cache_hash=True)
class Intersection:
    """Strings in every one of two or more parts (extended dialect ``&``)."""

    parts: tuple[Regex, ...] = attrs.field(validator=_flat)


@attrs.frozen(cache_hash=True)
class Complement:
    """Strings over the dialect's universe that are not in ``inner`` (extended dialect ``~``)."""

    inner: Regex


@attrs.frozen(cache_hash=True)
class Star:
    """Zero or more repetitions."""

    inner: Regex


@attrs.frozen(cache_hash=True)
class Plus:
    """One or more repetitions."""

    inner: Regex


@attrs.frozen(cache_hash=True)
class Optional:
    """Zero or one occurrence."""

    inner: Regex


@attrs.frozen(cache_hash=True)
class Repeat:
    """Counted repetition: ``{min}`` when ``max == min``, ``{min,max}``, or ``{min,}`` when ``max`` is None."""

    inner: Regex
    min: int
    max: int | None

    def __attrs_post_init__(self) -> None:
        if self.min < 0:
            raise ValueError(f"repetition minimum {self.min} is negative")
        if self.max is not None and self.max < self.min:
            raise ValueError(f"repetition maximum {self.max} is below the minimum {self.min}")


class AssertKind(enum.Enum):
    """Zero-width assertions of the python dialect, with ``re.fullmatch`` semantics."""

    WORD_BOUNDARY = "\\b"
    NOT_WORD_BOUNDARY = "\\B"
    TEXT_START = "\\A"  # also ``^`` without MULTILINE
    TEXT_END = "\\Z"
    END_OR_FINAL_NEWLINE = "$"  # ``$`` without MULTILINE: at the end or before a final "\n"
    LINE_START = "^(?m)"  # ``^`` with MULTILINE: at the start or after "\n"
    LINE_END = "$(?m)"  # ``$`` with MULTILINE: at the end or before "\n"


@attrs.frozen(cache_hash=True)
class Assertion:
    """A zero-width assertion; matches the empty string where its condition holds."""

    kind: AssertKind


@attrs.frozen(cache_hash=True)
class Lookaround:
    """A zero-width test of the text around a position (python dialect ``(?=…)``, ``(?!…)``,
    ``(?<=…)``, ``(?<!…)``): ahead, whether the rest of the text has a prefix in ``inner``; behind,
    whether the text read so far ends in a string of ``inner`` (of one fixed width, as ``re``
    demands); ``negative`` flips the answer. Inside ``inner``, anchors and nested lookarounds see
    the whole text, as in ``re``."""

    inner: Regex
    behind: bool = False
    negative: bool = False


Regex: TypeAlias = (
    EmptySet
    | Epsilon
    | Chars
    | Concat
    | Union
    | Intersection
    | Complement
    | Star
    | Plus
    | Optional
    | Repeat
    | Assertion
    | Lookaround
)

_LEAVES = frozenset({Chars, Epsilon, EmptySet, Assertion})
#: Node types with exactly one child in the ``inner`` field.
UNARY_TYPES = (Complement, Star, Plus, Optional, Repeat, Lookaround)

_Nary = TypeVar("_Nary", Concat, Union, Intersection)
_FIELDS = {Concat: "parts", Union: "options", Intersection: "parts"}
_HASH_CACHE = next(
    slot for slot in vars(Concat)["__slots__"] if "hash" in slot
)  # attrs' cached-hash slot


def flat_node(node_type: type[_Nary], children: tuple[Regex, ...]) -> _Nary:
    """``node_type(children)`` for children that are flat by construction (two or more, none of
    ``node_type``), without running the check: a parser that builds them so would otherwise pay it
    on every node, and it is most of a node's cost. The fields are set as the attrs-generated
    ``__init__`` sets them (the children, an empty hash cache), so the node is indistinguishable
    from one built the ordinary way."""
    node = object.__new__(node_type)
    object.__setattr__(node, _FIELDS[node_type], children)
    object.__setattr__(node, _HASH_CACHE, None)
    return node


def _flatten(node_type: type, field: str, parts: tuple[Regex, ...]) -> list[Regex]:
    flat: list[Regex] = []
    for part in parts:
        if type(part) is node_type:
            flat.extend(getattr(part, field))
        else:
            flat.append(part)
    return flat


@functools.lru_cache(maxsize=1024)
def literal(char: str) -> Chars:
    """A single character (one shared node per character: nodes are immutable)."""
    return Chars(CharSet.of(char))


def text(string: str) -> Regex:
    """The language holding exactly ``string``."""
    return concat(*(literal(c) for c in string))


def concat(*parts: Regex) -> Regex:
    """Concatenation of any number of parts: flattened, ε for none, the part itself for one."""
    flat = _flatten(Concat, "parts", parts)
    if not flat:
        return Epsilon()
    return flat[0] if len(flat) == 1 else flat_node(Concat, tuple(flat))


def union(*options: Regex) -> Regex:
    """Alternation of any number of options: flattened, ∅ for none, the option itself for one."""
    flat = _flatten(Union, "options", options)
    if not flat:
        return EmptySet()
    return flat[0] if len(flat) == 1 else flat_node(Union, tuple(flat))


def intersection(*parts: Regex) -> Regex:
    """Intersection of one or more parts, flattened."""
    flat = _flatten(Intersection, "parts", parts)
    if not flat:
        raise ValueError(
            "intersection of no parts is the universe; build Complement(EmptySet()) instead"
        )
    return flat[0] if len(flat) == 1 else flat_node(Intersection, tuple(flat))


def depth(regex: Regex) -> int:
    """The number of levels of the tree (1 for a leaf), level by level: safe for any depth, and a
    long literal run costs one type test per character."""
    levels = 0
    frontier = [regex]
    while frontier:
        levels += 1
        frontier = [
            child for node in frontier if type(node) not in _LEAVES for child in children(node)
        ]
    return levels


_Node = TypeVar("_Node")


def walk(root: _Node, children_of: Callable[[_Node], Iterable[_Node]]) -> Iterator[_Node]:
    """``root`` and every node below it (``children_of`` gives a node's children), each before its
    children, without recursion: any tree, such as a regex with :func:`children`."""
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(children_of(node))


def subtrees(regex: Regex) -> Iterator[Regex]:
    """``regex`` and every sub-expression in it, each before its parts."""
    return walk(regex, children)


def children(node: Regex) -> tuple[Regex, ...]:
    """The direct sub-expressions of a node."""
    if isinstance(node, (Concat, Intersection)):
        return node.parts
    if isinstance(node, Union):
        return node.options
    if isinstance(node, UNARY_TYPES):
        return (node.inner,)
    return ()
