"""The search space of the enumerative learner: its leaves, its operators, and the examples as rows.

**Leaves.** A character that no positive example contains is useless in a smallest consistent
regex without complement: replacing it by ∅ keeps every positive accepted (none uses it), can only
shrink the language (every operator is monotone) and simplifies to a smaller tree. So the leaves
are ε and the characters of the positives: every character in the simple dialect, and in the
large-alphabet dialects the literal characters of plain positives plus the *classes* the examples
reveal (the multi-character positions of clustered examples) and a few common ones (``[0-9]``,
``[A-Za-z]``, the universe, …), each kept only when it meets a positive's characters. That keeps
``[A-Za-z0-9#]`` a handful of leaves instead of 63.

**Atoms.** The characters are split into the coarsest classes that no leaf and no clustered
position splits (:func:`automata.partition`). Every candidate treats the characters of one atom
alike, so an example only matters as its string of atoms, and a clustered example is the product
of the atoms of its positions. Products that stay small are expanded in full (the search is then
exact for them); larger ones are sampled, and the learner verifies the result on the clustered
examples themselves and re-searches with a witness string when the sample missed one.

**Rows.** A signature has one row per distinct suffix of the example atom strings (:class:`Rows`,
:mod:`cegis.symbolic.enumerative._kernels`).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

import attrs
import numpy as np

from automata.core.alphabet import Alphabet, partition
from cegis.symbolic.enumerative import _kernels
from oracle.examples import ClusteredExample, Counterexample, Example
from regexlang.ast import Chars, Epsilon, Regex
from regexlang.charset import CharSet
from regexlang.dialects import Dialect

#: The longest example string a signature row can hold (bits 0..63 of a ``uint64``).
MAX_LENGTH = 63

#: Classes offered as leaves in the large-alphabet dialects, besides those the examples reveal.
COMMON_CLASSES = (
    CharSet.range("0", "9"),
    CharSet.range("a", "z"),
    CharSet.range("A", "Z"),
    CharSet([(ord("A"), ord("Z")), (ord("a"), ord("z"))]),
    CharSet([(ord("0"), ord("9")), (ord("A"), ord("Z")), (ord("a"), ord("z"))]),
)

AtomString = tuple[int, ...]


class Contradiction(ValueError):
    """The examples label one string (or strings no leaf can tell apart) both ways."""


class TooLong(ValueError):
    """An example string is longer than a signature row holds (:data:`MAX_LENGTH`)."""


@attrs.frozen(eq=False)
class Rows:
    """The distinct suffixes of the example atom strings as signature rows, with the labels to match.

    Row ``r`` stands for one suffix ``u``; bit ``j`` of a signature's row ``r`` says whether the
    candidate matches ``u[:j]``. Every infix of an example is a prefix of one of its suffixes, and
    examples sharing a suffix share its row. Rows are sorted by length, so the row of ``u[1:]``
    (``tail``) always comes first.
    """

    strings: tuple[AtomString, ...]
    labels: tuple[bool, ...]
    tail: np.ndarray  # row of the suffix without its first atom (-1 for the empty suffix)
    first_atom: (
        np.ndarray
    )  # the suffix's first atom (-1 for the empty suffix or outside the universe)
    accept_row: np.ndarray  # row of each example string (its longest suffix)
    accept_bit: np.ndarray  # length of each example string
    want: np.ndarray  # label of each example string

    @property
    def n_rows(self) -> int:
        """Rows of one signature."""
        return int(self.tail.shape[0])

    @classmethod
    def of(cls, strings: Sequence[AtomString], labels: Sequence[bool]) -> Rows:
        """Lay out ``strings``; the caller guarantees each is at most :data:`MAX_LENGTH` long."""
        suffixes = sorted(
            {s[i:] for s in (*strings, ()) for i in range(len(s) + 1)}, key=lambda u: (len(u), u)
        )
        row = {u: r for r, u in enumerate(suffixes)}
        return cls(
            tuple(strings),
            tuple(labels),
            np.asarray([row[u[1:]] if u else -1 for u in suffixes], dtype=np.int64),
            np.asarray([u[0] if u else -1 for u in suffixes], dtype=np.int64),
            np.asarray([row[s] for s in strings], dtype=np.int64),
            np.asarray([len(s) for s in strings], dtype=np.int64),
            np.asarray(labels, dtype=np.bool_),
        )


@attrs.frozen(eq=False)
class Space:
    """Everything one search needs: leaves with their signatures, the operators and the rows."""

    leaves: tuple[Regex, ...]
    leaf_signatures: np.ndarray  # uint64[len(leaves), n_rows]
    operators: tuple[int, ...]  # kernel codes, unary ones first
    rows: Rows


def operators(dialect: Dialect, max_repeat: int) -> tuple[int, ...]:
    """The operators of ``dialect`` the search builds with, unary ones first: the simple dialect
    has no ``+``, ``?`` or ``{n}``; the others count up to ``x{max_repeat}``."""
    if dialect == "simple":
        return (_kernels.STAR, _kernels.CONCAT, _kernels.UNION)
    repeats = tuple(_kernels.REPEAT + n for n in range(2, max_repeat + 1))
    return (
        _kernels.STAR,
        _kernels.PLUS,
        _kernels.OPTIONAL,
        *repeats,
        _kernels.CONCAT,
        _kernels.UNION,
    )


def leaf_sets(
    examples: Sequence[Counterexample], dialect: Dialect, universe: CharSet
) -> tuple[CharSet, ...]:
    """The character sets of the leaves, literals first (see the module docstring)."""
    positive = CharSet()
    literal = CharSet()
    classes: list[CharSet] = []
    for example in examples:
        positions = _positions(example)
        if example.label:
            for chars in positions:
                positive = positive | chars
                if chars.is_single() or dialect == "simple":
                    literal = literal | chars
        classes.extend(chars & universe for chars in positions if not chars.is_single())
    if not positive:  # nothing to generalize: a literal string outside the negatives will do
        literal = CharSet.of(universe.first())
        for example in examples:
            literal = literal.union(CharSet.of(p.first() for p in _positions(example)))
        classes = []
    sets: list[CharSet] = [CharSet.of(c) for c in literal & universe]
    if dialect != "simple" and positive:
        seen = set(sets)
        for chars in (*classes, universe, *(c & universe for c in COMMON_CLASSES)):
            if chars and not chars.is_single() and chars not in seen and chars & positive:
                seen.add(chars)
                sets.append(chars)
    return tuple(sets)


def _positions(example: Counterexample) -> tuple[CharSet, ...]:
    if isinstance(example, Example):
        return tuple(CharSet.of(c) for c in example.string)
    return example.positions


def atoms_of(
    universe: CharSet, leaves: Iterable[CharSet], examples: Iterable[Counterexample]
) -> Alphabet:
    """The coarsest partition of ``universe`` splitting no leaf and no clustered position."""
    sets = set(leaves)
    for example in examples:
        if isinstance(example, ClusteredExample):
            sets.update(p & universe for p in example.positions if p & universe)
    return partition(universe, sets)


def atom_strings(
    example: Counterexample, atoms: Alphabet, cap: int, rng: np.random.Generator
) -> list[AtomString]:
    """The atom strings ``example`` stands for: all of them when at most ``cap``, else ``cap``
    distinct ones drawn at random. Strings leaving the universe are dropped (every candidate
    rejects them); for a positive that makes the example unsatisfiable."""
    if isinstance(example, Example):
        encoded = tuple(int(a) for a in atoms.encode(example.string))
        if -1 in encoded:
            if example.label:
                raise Contradiction(f"positive {example.string!r} leaves the universe")
            return []
        return [encoded]
    inside = [p & atoms.universe for p in example.positions]
    if example.label and any(p != q for p, q in zip(example.positions, inside)):
        raise Contradiction(f"positive {example.pattern()} leaves the universe")
    if not all(inside):  # every string leaves the universe: all candidates reject them
        return []
    options = [atoms.classes_within(p) for p in inside]
    total = 1
    for o in options:
        total *= len(o)
    if total <= cap:
        return [tuple(s) for s in itertools.product(*options)]
    drawn = {tuple(o[0] for o in options)}
    while len(drawn) < cap:
        drawn.add(tuple(o[int(rng.integers(len(o)))] for o in options))
    return sorted(drawn)


def build(
    examples: Sequence[Counterexample],
    dialect: Dialect,
    universe: CharSet,
    *,
    cluster_cap: int,
    max_repeat: int,
    seed: int,
    extra: Sequence[Example] = (),
) -> Space:
    """The search space for ``examples`` plus the ``extra`` witness strings.

    Raises :class:`Contradiction` when no leaf combination can satisfy the examples, and
    :class:`TooLong` when a string is longer than :data:`MAX_LENGTH`.
    """
    everything = (*examples, *extra)
    sets = leaf_sets(everything, dialect, universe)
    atoms = atoms_of(universe, sets, everything)
    rng = np.random.default_rng(seed)
    labels: dict[AtomString, bool] = {}
    for example in everything:
        for string in atom_strings(example, atoms, cluster_cap, rng):
            if len(string) > MAX_LENGTH:
                raise TooLong(f"an example is longer than {MAX_LENGTH} characters")
            if labels.setdefault(string, example.label) != example.label:
                raise Contradiction(f"{example.text()} contradicts another example")
    rows = Rows.of(list(labels), list(labels.values()))
    leaves: list[Regex] = [
        Epsilon(),
        *(Chars(s) for s in sets),
    ]  # ε first: unions take it on the left
    masks = [
        np.asarray([c.issubset(s) for c in atoms.classes] + [False], dtype=np.bool_) for s in sets
    ]
    signatures = [
        np.ones(rows.n_rows, dtype=np.uint64),
        *(_leaf_signature(mask, rows) for mask in masks),
    ]
    return Space(
        tuple(leaves),
        np.asarray(signatures, dtype=np.uint64).reshape(len(leaves), rows.n_rows),
        operators(dialect, max_repeat),
        rows,
    )


def _leaf_signature(mask: np.ndarray, rows: Rows) -> np.ndarray:
    """A one-character leaf matches the one-atom prefix of the suffixes starting with its atoms."""
    hit = mask[rows.first_atom]  # first_atom == -1 indexes the trailing False
    return np.where(hit, np.uint64(2), np.uint64(0))
