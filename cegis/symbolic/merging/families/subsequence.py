"""Hypotheses that a string holds characters of a few classes in order, anything between them: "a
digit, later a vowel", six times over (``([0-9].*[AEIOUaeiou].*){6,}``).

Such a language needs a state per piece still to come, and the teacher's shortest counterexamples
raise its count one at a time: merging learns ``([0-9]Σ*[AEIOUaeiou]Σ*){6,}`` an epoch per count.
Its shortest positives spell it, one piece per character, so the pieces are read off the shortest
positives, place by place: the smallest class the teacher showed that holds their characters
there. Each class is then widened at all its places at once (then, when a positive does not hold
the result, place by place) to every larger shown class while no negative holds the pieces in
order. The first piece is tried at the first character and anywhere, the last piece at the last
character and anywhere; a variant is kept when every positive holds it and one shows a gap (a
character of neither piece around it), which a run of classes (``[A-Z]{2}[0-9]{2,3}``) does not.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from cegis.symbolic.merging.candidate import Found, spelled
from cegis.symbolic.merging.core.run_cache import RunCache
from cegis.symbolic.merging.evidence import Evidence
from cegis.symbolic.merging.families.pieces import class_pattern, piece_name, smallest_holding
from cegis.symbolic.merging.families.shared import Hypotheses
from regexlang.ast import Chars, Regex, Repeat, Star, concat
from regexlang.charset import CharSet
from regexlang.python_printing import interval_class

#: The fewest and most pieces (the shortest positive's characters) of a hypothesis.
FEWEST_PIECES, MOST_PIECES = 2, 16

Pieces = tuple[CharSet, ...]
"""Classes, one character of each in order."""


def subsequence_hypotheses(
    positives: Sequence[str],
    negatives: Sequence[str],
    universe: CharSet,
    shown: Sequence[CharSet],
    atoms: Sequence[CharSet],
    *,
    cache: RunCache | None = None,
) -> Hypotheses:
    """The strings that hold the pieces read off the shortest positive in order (module doc), for
    each placement of the first and last piece that every positive and no negative follows. A
    position's piece is the smallest of the ``shown`` classes that holds its characters in the
    shortest positives (else of the ``atoms``, else those characters), widened to larger ``shown``
    classes together with every position of the same piece. The patterns of the pieces are kept
    in the run's ``cache`` (the same pieces are tried on every agreement round)."""
    if not positives or not negatives:
        return []
    run = cache or RunCache()
    shortest = min(positives, key=len)
    if not FEWEST_PIECES <= len(shortest) <= MOST_PIECES:
        return []
    kinds = sorted((c for c in dict.fromkeys(shown) if not universe.issubset(c)), key=len)
    columns = [
        CharSet.of("".join(column))
        for column in zip(*(p for p in positives if len(p) == len(shortest)))
    ]
    first = tuple(
        run(smallest_holding, tuple(shown), chars, universe)
        or run(smallest_holding, tuple(atoms), chars, universe)
        or chars
        for chars in columns
    )
    least = len(shortest)
    long_enough = [n for n in negatives if len(n) >= least]
    out: Hypotheses = []
    for at_start in (True, False):
        for at_end in (False, True):
            pieces = _widened(first, kinds, positives, long_enough, at_start, at_end, run)
            if pieces is not None and _gapped(positives, pieces, at_start, at_end, run):
                out.append(_hypothesis(pieces, universe, at_start, at_end))
    return out


def _widened(
    pieces: Pieces,
    kinds: Sequence[CharSet],
    positives: Sequence[str],
    negatives: Sequence[str],
    at_start: bool,
    at_end: bool,
    cache: RunCache,
) -> Pieces | None:
    """``pieces`` with each distinct piece (at all its places at once, in the order they first
    occur) widened to every larger of ``kinds`` (smallest first) that holds it while no negative
    holds them in order; when a positive does not hold those, each place widened alone. ``None``
    when a negative holds the pieces as they are, or a positive does not hold the widest."""
    if _any_holds(negatives, pieces, at_start, at_end, cache):
        return None
    size = {chars: len(chars) for chars in {*kinds, *pieces}}
    for places in (
        [[k for k, p in enumerate(pieces) if p == piece] for piece in dict.fromkeys(pieces)],
        [[k] for k in range(len(pieces))],
    ):
        for where in places:
            piece = pieces[where[0]]
            for wider in kinds:
                if size[wider] > size[piece] and piece.issubset(wider):
                    trial = tuple(wider if k in where else p for k, p in enumerate(pieces))
                    if not _any_holds(negatives, trial, at_start, at_end, cache):
                        pieces, piece = trial, wider
        if all(_holds(p, pieces, at_start, at_end, cache) for p in positives):
            return pieces
    return None


def _holds(string: str, pieces: Pieces, at_start: bool, at_end: bool, cache: RunCache) -> bool:
    """Whether ``string`` holds ``pieces`` in order (the first at its first character when
    ``at_start``, the last at its last when ``at_end``)."""
    return _any_holds((string,), pieces, at_start, at_end, cache)


def _any_holds(
    strings: Sequence[str], pieces: Pieces, at_start: bool, at_end: bool, cache: RunCache
) -> bool:
    """Whether one of ``strings`` holds ``pieces`` in order (:func:`_holds`). One pattern finds
    each piece at its first occurrence after the one before (:func:`_pattern`); the first piece
    is then at the first character when no gap comes before it, and the last piece can be at the
    last character when that character is of the last piece (it occurs there, after the others),
    unless the last piece is the first, held at the first character."""
    match = cache(_pattern, pieces).match
    last = (
        cache(class_pattern, pieces[-1], False).match if len(pieces) > 1 or not at_start else None
    )
    for string in strings:
        found = match(string)
        if found is None or (at_start and found.end(1)):
            continue
        if (
            not at_end
            or found.end() == len(string)
            or (last is not None and last(string, len(string) - 1))
        ):
            return True
    return False


def _gapped(
    positives: Sequence[str], pieces: Pieces, at_start: bool, at_end: bool, cache: RunCache
) -> bool:
    """Whether a positive shows a gap: a character, between two pieces (or before the first, or
    after the last) where it holds them, that is of neither piece. Without one, a run of classes
    (``[A-Z]{2}[0-9]{2,3}``) reads as classes in order just as well, and is the likelier."""
    return any(_shows_gap(p, pieces, at_start, at_end, cache) for p in positives)


def _shows_gap(
    positive: str, pieces: Pieces, at_start: bool, at_end: bool, cache: RunCache
) -> bool:
    match = cache(_pattern, pieces).match(positive)
    if match is None or not _holds(positive, pieces, at_start, at_end, cache):
        return False
    # held with the last piece at the end, the gap before it runs up to the last character
    last = (
        [positive[match.start(len(pieces)) : len(positive) - 1], ""]
        if at_end
        else [match.group(len(pieces)), positive[match.end() :]]
    )
    gaps = [*match.groups()[:-1], *last]
    return any(
        all(char not in piece for piece in pieces[max(0, k - 1) : k + 1])
        for k, gap in enumerate(gaps)
        for char in gap
    )


def _pattern(pieces: Pieces) -> re.Pattern[str]:
    """A pattern that matches at the start of the strings that hold ``pieces`` in order: each piece
    at its first occurrence after the one before (no backtracking); group ``k`` is the gap before
    piece ``k``. Compiling it costs more than matching it against every example of a call, so the
    four placements of the ends share it (:func:`_any_holds`)."""
    parts = []
    for piece in pieces:
        one = interval_class(piece)
        parts.append(f"([^{one[1:]}*){one}")
    return re.compile("".join(parts))


def _hypothesis(
    pieces: Pieces, universe: CharSet, at_start: bool, at_end: bool
) -> tuple[Regex, str]:
    """The language of ``pieces`` in order, as a regex (a repeated period as ``(…){m,}``), and its
    description."""
    anything = Star(Chars(universe))
    period = len(pieces) if at_end else _period(pieces)
    parts = [part for piece in pieces[:period] for part in (Chars(piece), anything)]
    inner = concat(*(parts[:-1] if at_end else parts))  # at the end: no gap after the last piece
    times = len(pieces) // period
    body = Repeat(inner, times, None) if times > 1 else inner
    regex = body if at_start else concat(anything, body)
    named = ", ".join(map(piece_name, pieces[:period])) + (f" ×{times}" if times > 1 else "")
    ends = [
        end for end, held in (("first at the start", at_start), ("last at the end", at_end)) if held
    ]
    return regex, f"classes in order ({named})" + "".join(f", {end}" for end in ends)


def _period(pieces: Pieces) -> int:
    """The shortest period of ``pieces`` that repeats to all of them."""
    return next(
        p
        for p in range(1, len(pieces) + 1)
        if len(pieces) % p == 0 and pieces == pieces[:p] * (len(pieces) // p)
    )


def candidates(evidence: Evidence) -> Found:
    """The classes-in-order hypotheses, compiled: the family of subsequences
    (:class:`cegis.symbolic.merging.evidence.Family`)."""
    universe = evidence.universe
    hypotheses = subsequence_hypotheses(
        evidence.positives,
        evidence.negatives,
        universe,
        evidence.shown,
        evidence.classes,
        cache=evidence.cache,
    )
    return spelled(hypotheses, universe, "subsequence", evidence.cache)
