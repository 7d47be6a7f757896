"""Character classes inferred from plain examples: the coarsest cut of the universe they ask for.

Plain strings carry no classes. Refining one conflicting character at a time (the atoms of
:mod:`cegis.symbolic.merging.core.symbols`) ends with one class per letter after a few hundred
counterexamples, and merging over forty sparse columns guesses wrong. Here the universe is cut
greedily, each time along the
prior's classes (:data:`.prior.CLASSES`, letters, word characters) or one character, whichever
leaves the fewest pairs of a positive and a negative that read alike, until none does. Every
example is then read through those classes (as a clustered example), so that merging sees a few
well-evidenced columns; the answer is still checked against the examples as given.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from cegis.symbolic.merging.core.run_cache import RunCache
from cegis.symbolic.merging.families.prior import CLASSES, DIGITS, LOWER, UPPER
from cegis.symbolic.union import as_regex
from oracle.examples import ClusteredExample, Counterexample, Example
from regexlang.ast import Chars, Complement, Regex, union
from regexlang.charset import CharSet

#: Sets a class may be cut along besides single characters: the prior's classes and their
#: narrower classes, letters, and word characters, the broadest first (preferred on a tie).
CUTS: tuple[CharSet, ...] = tuple(
    sorted(
        {
            LOWER | UPPER | DIGITS | CharSet.of("_"),
            LOWER | UPPER,
            *(c for whole, narrower in CLASSES for c in (whole, *narrower)),
        },
        key=len,
        reverse=True,
    )
)

#: Most distinct negatives (read through the classes) that :func:`excluded` lists.
MOST_EXCLUDED = 64

#: Characters of a class the positives must show, per character of it the examples use, before
#: the characters they never show are cut off together (the vowels of "no vowel"): among a few
#: positives, a character is missing by chance.
SHOWN_EVIDENCE = 10

#: Most cuts made; past it the examples have no few classes (each further cut is one character).
MOST_CUTS = 64

_MULTIPLIER = np.int64(0x9E3779B1)


def inferred_classes(
    examples: Sequence[Example], universe: CharSet, cache: RunCache
) -> tuple[CharSet, ...]:
    """The classes the universe is cut into: starting from the whole universe, each step cuts
    one class along one of :data:`CUTS`, the characters positives show (given
    :data:`SHOWN_EVIDENCE`) or one character of the examples, the cut that leaves the fewest
    examples reading alike to one of the other label (their characters in the same classes,
    position by position), then the fewest such pairs, the broadest cut on a tie, until no pair
    reads alike or :data:`MOST_CUTS` cuts are made. Counting examples, not pairs, prefers a cut
    that sets some apart entirely over one that halves every group, as any cut does. Remembered in
    the run's ``cache``: a learner call asks for the same examples' classes to merge and to write
    templates."""
    return cache(_inferred, frozenset(examples), universe, limit=4)


def _inferred(given: frozenset[Example], universe: CharSet) -> tuple[CharSet, ...]:
    examples = sorted(given, key=lambda e: (e.string, e.label))
    chars = sorted(c for c in set().union(*(e.string for e in examples)) if c in universe)
    index = {c: i for i, c in enumerate(chars)}
    width = max((len(e.string) for e in examples), default=0)
    codes = np.full((len(examples), width), len(chars), dtype=np.int64)  # the last code pads
    for row, e in enumerate(examples):
        codes[row, : len(e.string)] = [index.get(c, len(chars)) for c in e.string]
    lengths = np.array([len(e.string) for e in examples], dtype=np.int64)
    labels = np.array([e.label for e in examples], dtype=bool)
    weights = (
        np.cumprod(np.full(width, _MULTIPLIER, dtype=np.int64))
        if width
        else np.zeros(0, dtype=np.int64)
    )
    shown = CharSet.of(c for e in examples if e.label for c in e.string)
    shown_counts = np.bincount(codes[labels].ravel(), minlength=len(chars) + 1)
    classes = [universe]
    member = np.zeros(len(chars) + 1, dtype=np.int64)
    member[-1] = -1

    def conflicts(assigned: np.ndarray) -> tuple[tuple[int, int], np.ndarray]:
        keys = (assigned[codes] + 2) @ weights + lengths if width else lengths
        _, groups = np.unique(keys, return_inverse=True)
        positives = np.bincount(groups, weights=labels)
        negatives = np.bincount(groups, weights=~labels)
        mixed = (positives > 0) & (negatives > 0)
        return (
            int((positives + negatives)[mixed].sum()),
            int((positives * negatives).sum()),
        ), mixed[groups]

    left, rows = conflicts(member)
    for _ in range(MOST_CUTS):
        if not left[1]:
            break
        # Only characters of rows that read alike across labels can tell such rows apart.
        active = set(np.unique(codes[rows]).tolist())
        best: tuple[tuple[int, int], int, int, CharSet] | None = None
        for k, whole in enumerate(classes):
            inside = [c for c in chars if member[index[c]] == k]
            telling = [c for c in inside if index[c] in active]
            if len(telling) < 2:
                continue
            evident = sum(shown_counts[index[c]] for c in inside) >= SHOWN_EVIDENCE * len(inside)
            shows = [shown & whole for whole, _ in CLASSES] if evident else []
            options = [*CUTS, *shows, *(CharSet.of(c) for c in telling)]
            for rank, cut in enumerate(options):
                if all(c in cut for c in telling) or not any(c in cut for c in telling):
                    continue
                trial = member.copy()
                trial[[index[c] for c in inside if c in cut]] = len(classes)
                found = (conflicts(trial)[0], rank, k, whole & cut)
                if best is None or found[:2] < best[:2]:
                    best = found
        if best is None or best[0] >= left:
            break
        _, _, k, cut = best
        member[[index[c] for c in chars if member[index[c]] == k and c in cut]] = len(classes)
        classes[k] = classes[k] - cut
        classes.append(cut)
        left, rows = conflicts(member)
    return tuple(classes)


def read_through(
    examples: Sequence[Counterexample], classes: Sequence[CharSet], universe: CharSet
) -> tuple[Counterexample, ...]:
    """Every plain example as the clustered example of its characters' classes (the strings that
    read alike); other examples as they are."""
    shown = {c for e in examples if isinstance(e, Example) for c in e.string}
    of = {c: next(cls for cls in classes if c in cls) for c in shown if c in universe}
    out: dict[Counterexample, None] = {}
    for e in examples:
        if isinstance(e, Example) and all(c in of for c in e.string):
            out[ClusteredExample(tuple(of[c] for c in e.string), e.label, universe)] = None
        else:
            out[e] = None
    return tuple(out)


def read_classes(
    examples: Sequence[Counterexample], universe: CharSet, cache: RunCache
) -> tuple[Counterexample, ...]:
    """The examples read through the classes their plain ones ask for (:func:`inferred_classes`);
    remembered in the run's ``cache``: a learner call reads the same examples for merging and for
    :func:`excluded`."""
    return cache(_read_classes, tuple(examples), universe, cache, limit=4)


def _read_classes(
    examples: tuple[Counterexample, ...], universe: CharSet, cache: RunCache
) -> tuple[Counterexample, ...]:
    plain = [e for e in examples if isinstance(e, Example)]
    return read_through(examples, inferred_classes(plain, universe, cache), universe)


def excluded(read: Sequence[Counterexample]) -> Regex | None:
    """Everything but the negatives of ``read`` (examples read through classes, single characters
    as one class): the hypothesis for a target that rejects a few strings (``~(dog|truck|[a-z])``),
    which no positive shows; ``None`` without negatives or past :data:`MOST_EXCLUDED` of them."""
    negatives = [e for e in read if not e.label]
    if not negatives or len(negatives) > MOST_EXCLUDED:
        return None
    singles = [
        p[0] for e in negatives if isinstance(e, ClusteredExample) and len(p := e.positions) == 1
    ]
    rest = [
        as_regex(e)
        for e in negatives
        if not (isinstance(e, ClusteredExample) and len(e.positions) == 1)
    ]
    return Complement(
        union(
            *rest,
            *([Chars(CharSet(tuple(i for c in singles for i in c.intervals)))] if singles else []),
        )
    )
