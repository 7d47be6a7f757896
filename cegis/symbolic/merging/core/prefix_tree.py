"""Building the prefix tree of a learner call: the alphabet, the tree, and the examples left out.

The examples are read over the learner's alphabet (:mod:`.symbols`) and inserted into one
:class:`.quotient.Quotient`. A clustered example enters as its *reading* says
(:data:`TreeReading`); when two examples meet in one node with different labels, the characters of
plain strings that tell them apart are split off their classes (atom granularity), or the clustered
example in the way is spelled out class by class. Examples left out of the tree are checked
universally on each candidate instead (:mod:`cegis.symbolic.merging.rounds.merges`)."""

from __future__ import annotations

import functools
import operator
from collections.abc import Sequence
from typing import Literal

import attrs

from automata.core.alphabet import Alphabet
from cegis.symbolic.merging.core.quotient import LabelConflict, Quotient
from cegis.symbolic.merging.core.symbols import (
    Cuts,
    Granularity,
    SymbolicWord,
    distinguishing,
    encoder,
    several,
)
from oracle.examples import Counterexample, Example
from regexlang.charset import CharSet

#: How a clustered example enters the prefix tree: ``tied`` (every class of a position leads to one
#: child: a guess, since the teacher groups characters by the states of the *difference* automaton,
#: not the target's, and it sometimes bloats the hypothesis) or ``representative`` (one path through
#: the largest class of each position, guessing nothing; the example is then checked universally on
#: each candidate like any example left out of the tree). The symbolic learner tries both.
TreeReading = Literal["tied", "representative"]

#: Most words a clustered example is spelled out into when its tie fails.
MAX_SPELLED = 256


@attrs.frozen(eq=False)
class PrefixTree:
    """The alphabet, the prefix tree (mutable: merges are tried on it and undone), the examples as
    words, and the examples left out of the tree (with their words)."""

    alphabet: Alphabet
    tree: Quotient
    words: tuple[SymbolicWord, ...]
    untied: tuple[tuple[Counterexample, SymbolicWord], ...]


def prefix_tree(
    examples: Sequence[Counterexample],
    universe: CharSet,
    granularity: Granularity,
    reading: TreeReading,
) -> PrefixTree:
    """The alphabet, the prefix tree, the examples as words, and those left out of the tree (to
    check on the hypothesis). A clustered example is read as ``reading`` says; a tie that fails is
    spelled out class by class. When two examples meet in one node with different labels, the
    characters of plain strings that tell them apart are split off their classes (atom
    granularity), or the clustered example in the way is spelled out from the start."""
    refine: set[str] = set()
    spelled: set[int] = set()
    cuts = Cuts.of(examples, granularity)
    read: tuple[Alphabet, Sequence[Counterexample], list[SymbolicWord]] | None = (
        None  # a retry spelling more reads alike
    )
    while True:
        alphabet = cuts.alphabet(universe, granularity, refine)
        if read is None or read[0] != alphabet:
            read = (alphabet, *_encoded(examples, alphabet))
        _, kept, words = read
        represented = (
            [i for i in several(words) if i not in spelled] if reading == "representative" else []
        )
        in_tree = list(words)
        for i in represented:
            in_tree[i] = _represented(words[i], alphabet)
        try:
            tree, left_out = Quotient.prefix_tree(in_tree, spelled, MAX_SPELLED)
        except LabelConflict as conflict:
            first, second = kept[conflict.first], kept[conflict.second]
            split = distinguishing(first, second, refine) if granularity == "atoms" else set()
            if split:
                refine |= split
            elif conflict.inserting not in spelled and any(
                len(p) > 1 for p in words[conflict.inserting].positions
            ):
                spelled.add(conflict.inserting)
            else:
                raise
            continue
        unchecked = sorted({*left_out, *represented})
        return PrefixTree(
            alphabet, tree, tuple(words), tuple((kept[i], words[i]) for i in unchecked)
        )


def extended(built: PrefixTree, more: Sequence[Example]) -> PrefixTree | None:
    """``built`` with the plain examples ``more`` added last, as :func:`prefix_tree` builds it from
    the examples and them when they meet no differently labeled state (in the representative
    reading every word enters the tree literally, in order, so the earlier words make the same
    tree); ``None`` when they do, or need a class the tree has no column for (build it again)."""
    encode = encoder(built.alphabet)
    added = [word for word in map(encode, more) if word is not None]
    if len(added) < len(
        more
    ):  # a string outside the universe: the tree would number the examples otherwise
        return None
    try:
        built.tree.extend(added, len(built.words))
    except (ValueError, LabelConflict):
        return None
    return attrs.evolve(built, words=(*built.words, *added))


def _encoded(
    examples: Sequence[Counterexample], alphabet: Alphabet
) -> tuple[Sequence[Counterexample], list[SymbolicWord]]:
    """The examples ``alphabet`` can read and their words (in C: thousands of examples, every round).

    The rounds of a learner call build trees of the same examples followed by a few more (the
    witnesses), so the words of the examples the last call over ``alphabet`` began with, the very
    same objects, are taken from it: only the rest are looked up (each lookup hashes an example)."""
    held = _last_encoded(alphabet)
    before, before_words = held[0]  # one read: a thread replaces the pair whole
    common = _common_prefix(before, examples)
    words_or_none = [*before_words[:common], *map(encoder(alphabet), examples[common:])]
    held[0] = (tuple(examples), words_or_none)
    words = [w for w in words_or_none if w is not None]
    kept = (
        examples
        if len(words) == len(examples)
        else [e for e, w in zip(examples, words_or_none) if w is not None]
    )
    return kept, words


@functools.lru_cache(maxsize=16)
def _last_encoded(
    alphabet: Alphabet,
) -> list[tuple[tuple[Counterexample, ...], list[SymbolicWord | None]]]:
    """The examples :func:`_encoded` read last over ``alphabet`` and their words (or ``None``)."""
    return [((), [])]


def _common_prefix(first: Sequence[object], second: Sequence[object]) -> int:
    """How many leading items ``first`` and ``second`` share (the same objects), by bisection:
    each test compares a prefix in C."""
    low, high = 0, min(len(first), len(second))  # the prefix of ``low`` items is shared
    while low < high:
        middle = (low + high + 1) // 2
        if all(map(operator.is_, first[low:middle], second[low:middle])):
            low = middle
        else:
            high = middle - 1
    return low


@functools.lru_cache(
    maxsize=1 << 14
)  # every round and epoch reads the same clustered examples again
def _represented(word: SymbolicWord, alphabet: Alphabet) -> SymbolicWord:
    """``word`` with each position read as its largest class (the first on a tie)."""
    sizes = _class_sizes(alphabet)
    return SymbolicWord.literal(
        [max(position, key=lambda k: (sizes[k], -k)) for position in word.positions], word.label
    )


@functools.lru_cache(maxsize=16)
def _class_sizes(alphabet: Alphabet) -> list[int]:
    return [len(c) for c in alphabet.classes]
