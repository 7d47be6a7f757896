"""A prior over character classes for plain examples: the classes a person reads strings through.

A plain string carries no classes, so the atoms of plain examples alone are the whole universe (one
symbol) until conflicts split characters off one at a time. The prior cuts the universe along the
classes people write (digits, lower and upper case, hex letters, whitespace, punctuation); where the
positives show too few characters of a class for it to be cheaper (description length), they stay literal."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from oracle.examples import ClusteredExample, Counterexample, Example
from regexlang.charset import CharSet

DIGITS = CharSet.range("0", "9")
LOWER = CharSet.range("a", "z")
UPPER = CharSet.range("A", "Z")
WHITESPACE = CharSet.of(" \t\n\r\f\v")
PUNCTUATION = CharSet.of("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")

#: The classes of the prior, each with the smaller classes inside it that it may narrow to
#: (hex letters inside the letters of one case). Letters, word characters and hex digits are unions
#: of these, which state merging forms where a state reads several of them alike.
CLASSES: tuple[tuple[CharSet, tuple[CharSet, ...]], ...] = (
    (DIGITS, ()),
    (LOWER, (CharSet.range("a", "f"),)),
    (UPPER, (CharSet.range("A", "F"),)),
    (WHITESPACE, ()),
    (PUNCTUATION, ()),
)

#: The classes people write by name (``[0-9]``, ``[a-f0-9]``, ``[A-Za-z]``, ``\\w``): a run of word
#: characters is written as one of them (:mod:`.templates`), and naming one costs a regex less than
#: spelling a range of the characters seen
#: (:func:`cegis.symbolic.merging.rounds.scoring.regex_bits`). Word characters last.
NAMED: tuple[CharSet, ...] = (
    DIGITS,
    LOWER,
    UPPER,
    DIGITS | CharSet.range("a", "f"),
    DIGITS | CharSet.range("A", "F"),
    DIGITS | CharSet.range("a", "f") | CharSet.range("A", "F"),
    LOWER | UPPER,
    LOWER | UPPER | CharSet.of("_"),
    LOWER | CharSet.of("_"),
    UPPER | CharSet.of("_"),
    LOWER | DIGITS,
    UPPER | DIGITS,
    LOWER | DIGITS | CharSet.of("_"),
    UPPER | DIGITS | CharSet.of("_"),
    LOWER | UPPER | DIGITS,
    LOWER | UPPER | DIGITS | CharSet.of("_"),
)


def class_cuts(positives: Sequence[str], universe: CharSet) -> tuple[CharSet, ...]:
    """The sets that cut ``universe`` into the prior's atoms for these positives: per class of
    :data:`CLASSES`, the class, its narrower class or its characters one by one, whichever
    describes the positives' characters of that class in the fewest bits (naming a class once and
    each occurrence within it, or naming each distinct character and each occurrence among them);
    and every other character the positives use, alone."""
    counts = Counter(c for string in positives for c in string)
    char_bits = math.log2(len(universe) + 1)
    name_bits = math.log2(len(CLASSES) + 2)
    cuts: list[CharSet] = []
    for whole, narrower in CLASSES:
        whole &= universe
        if not whole:
            continue
        cuts.append(whole)
        seen = Counter({c: n for c, n in counts.items() if c in whole})
        total = sum(seen.values())
        if not total:
            continue
        entropy = -sum(n / total * math.log2(n / total) for n in seen.values())
        options: list[tuple[float, tuple[CharSet, ...]]] = [
            (len(seen) * char_bits + total * entropy, tuple(CharSet.of(c) for c in seen)),
        ]
        for chars in (whole, *(n & universe for n in narrower)):
            if all(c in chars for c in seen):
                options.append((name_bits + total * math.log2(len(chars)), (chars,)))
        cuts.extend(min(options, key=lambda option: option[0])[1])
    cuts.extend(CharSet.of(c) for c in counts if not any(c in whole for whole, _ in CLASSES))
    return tuple(dict.fromkeys(cuts))


def lifted(examples: Sequence[Counterexample], universe: CharSet) -> tuple[Counterexample, ...]:
    """The examples with each plain positive read through the prior (:func:`class_cuts`): every
    character stands for its class, except where that would take in a negative, which keeps the
    characters that tell the two apart. Lifted positives are guesses: a hypothesis is still
    checked against the examples as given."""
    positives = [e.string for e in examples if isinstance(e, Example) and e.label]
    cuts = class_cuts(positives, universe)
    of = {
        c: min((s for s in cuts if c in s), key=len, default=CharSet.of(c))
        for c in {c for p in positives for c in p}
    }
    negatives: dict[int, list[str]] = {}
    for e in examples:
        if isinstance(e, Example) and not e.label:
            negatives.setdefault(len(e.string), []).append(e.string)
    out: dict[Counterexample, None] = {}
    for e in examples:
        if isinstance(e, Example) and e.label:
            out[
                ClusteredExample(
                    _narrowed(
                        e.string, [of[c] for c in e.string], negatives.get(len(e.string), [])
                    ),
                    True,
                    universe,
                )
            ] = None
        else:
            out[e] = None
    return tuple(out)


def _narrowed(string: str, classes: list[CharSet], negatives: Sequence[str]) -> tuple[CharSet, ...]:
    """``classes`` (one per character of ``string``) narrowed to the characters themselves where
    a negative of the same length falls inside them and differs."""
    for negative in negatives:
        if all(c in chars for c, chars in zip(negative, classes)):
            for i, (mine, theirs) in enumerate(zip(string, negative)):
                if mine != theirs:
                    classes[i] = CharSet.of(mine)
    return tuple(classes)
