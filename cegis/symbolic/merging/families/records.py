"""Hypotheses that read each positive as a record: fields between separators, written column by
column as a person writes a log line's format.

``10.0.0.7 - anna [02/Mar/2024:13:45:01 +0000] "GET /api/v2?q=x&page=2 HTTP/1.1" 200 5120 "-"``
is a record: quoted and bracketed parts, then words between spaces, then values between ``.``,
``/``, ``:``, ``?``, ``&``, ``=``. A separator is an *anchor* when every positive holds it equally
often and the anchors come in the same order in each: the positives are cut at them into columns
(:func:`_anchors`), quotes first, then brackets, then spaces, then the other punctuation, so that
a quoted field's insides are split apart from the rest. A separator that some positives repeat
more often than others, with pieces of one kind between (a path's ``/``, a query's ``&``), is
written once with its piece repeated (:func:`_repeated`). A column of neither is free text: the
classes it shows when it is a token (no space, at most :data:`MOST_TOKEN_PUNCTUATION` punctuation
characters: ``[%.0-9A-Za-z]+``), else anything but the separator that ends it (``[^"]*``).

A column of word characters (:func:`_leaf`) is a literal when it never varies; a word set when few
words repeat and none was seen in one positive only (a Good-Turing reading: a word seen once says
the set is probably incomplete; letters only; counted by positives, not by the pieces a positive
repeats, since a new line is right or wrong whole); digits as ``[0-9]{1,n}`` when short, else
``[0-9]+``; a zero-padded number whose values show a bound with its leading digit bounded
(``[0-2][0-9]``, :mod:`.digit_bounds`, as the other families given strings up front write it);
hex as its class; else its runs of digits, lower and upper case written by class, or the classes
it shows. Numbers with no leading zero are counted from one digit (``[0-9]{1,3}``: five addresses
whose third part happened to be three digits long each rejected two in five new ones). The
general writing competes with the other families when it labels every example right (matched
with Python's ``re``). Where a near miss falls in a column written looser than seen (a method
``AET`` in ``[A-Z]+``, a year ``202`` in ``[0-9]+``, a status ``40`` in ``[0-9]{1,3}``), the
fewest such columns are written as seen (the words listed, where none was seen in one positive
only; a number as long as the positives show it, ``[0-9]{4}``) and the rest stay general: giving
the record up for one near miss left a loose free field to win (0.55 held-out, long lines at 5 +
5, seed 12; a listing of the positives or a class soup at 100 + 100, seeds 1 and 2). Else the
specific one (free text as the classes it shows): it wins on description length where both do,
and generalizes worse (listing the words seen as well rejected every new line)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence

import attrs

from cegis.symbolic.merging.candidate import Found, spelled
from cegis.symbolic.merging.evidence import Evidence
from cegis.symbolic.merging.families.digit_bounds import bounded_field
from cegis.symbolic.merging.families.prior import DIGITS, LOWER, UPPER
from cegis.symbolic.merging.families.separated import accepts_all, accepts_any
from regexlang.ast import Chars, Epsilon, Optional, Plus, Regex, Repeat, Star, concat, union
from regexlang.ast import text as text_regex
from regexlang.charset import CharSet

#: Separators by rank: a record is cut at the first rank with anchors, its columns at the next.
RANKS = ("\"'", "[]()<>{}", " \t")

#: Fewest positives the family reads (one positive is no record to generalize).
FEWEST_POSITIVES = 2

#: Most words of a column listed as a word set.
MOST_WORDS = 12

#: Positives holding each word, on average, for a word set to be listed.
WORD_DRAWS = 3

#: Longest number written with its counts (``[0-9]{1,3}``); a longer one that varies is ``+``.
LONGEST_COUNTED = 3

#: Most punctuation characters a token (free text written by the classes it shows) holds.
MOST_TOKEN_PUNCTUATION = 2

#: Fewest characters of a column whose letters all lie in ``a-f`` for it to read as hex.
FEWEST_HEX = 16

_WORD = DIGITS | LOWER | UPPER | CharSet.of("_")
_HEX_LETTERS = CharSet.range("a", "f") | CharSet.range("A", "F")
_CLASSES = (DIGITS, LOWER, UPPER, CharSet.of("_"))


def candidates(evidence: Evidence) -> Found:
    """The record hypotheses of the plain examples, compiled."""
    positives, negatives = evidence.plain
    return spelled(
        record_hypotheses(positives, negatives, evidence.universe),
        evidence.universe,
        "records",
        evidence.cache,
    )


def record_hypotheses(
    positives: Sequence[str], negatives: Sequence[str], universe: CharSet
) -> list[tuple[Regex, str]]:
    """The general writing of the positives as records, or the specific one where the general
    accepts a negative; none when neither labels every example right or the positives have no
    separator in common."""
    if len(positives) < FEWEST_POSITIVES or not _anchors(positives, _separators(positives)):
        return []
    for specific in (False, True):
        found = _written(positives, negatives, universe, specific)
        if found is not None:
            regex, seen = found
            fields = f"{'specific' if specific else 'general'} fields"
            return [(regex, f"records ({fields}{f', {seen} as seen' if seen else ''})")]
    return []


@attrs.define
class _Style:
    """How one writing reads its columns: ``specific``, free text as the classes it shows;
    ``as_seen``, the leaves (numbered in the order written) written as seen; while writing, the
    leaves written so far and those whose writing as seen is narrower (``loose``)."""

    specific: bool
    as_seen: frozenset[int] = frozenset()
    leaves: int = 0
    loose: list[int] = attrs.Factory(list)


def _written(
    positives: Sequence[str], negatives: Sequence[str], universe: CharSet, specific: bool
) -> tuple[Regex, int] | None:
    """The writing of the positives that accepts them all and no negative, and how many of its
    leaves are written as seen: none, else the fewest (:func:`_fewest`) that keep every negative
    out (a near miss ``AET`` for the method falls in one column, and the others stay general);
    None when even all of them let one in."""

    def write(as_seen: Iterable[int]) -> tuple[Regex, list[int]]:
        style = _Style(specific, frozenset(as_seen))
        return _column(positives, range(len(positives)), "", universe, style), style.loose

    regex, loose = write(())
    if not accepts_all(regex, positives):
        return None
    if not accepts_any(regex, negatives):
        return regex, 0
    if not loose or accepts_any(write(loose)[0], negatives):
        return None
    needed = _fewest(loose, lambda some: not accepts_any(write(some)[0], negatives))
    return write(needed)[0], len(needed)


def _fewest(items: Sequence[int], enough: Callable[[Sequence[int]], bool]) -> list[int]:
    """A few of ``items`` that are ``enough`` (all of them are, and so is every superset of an
    enough set): runs of halving length dropped while what is left stays enough, so one needed
    item among sixteen costs about ten trials, not sixteen."""
    kept = list(items)
    run = max(1, len(kept) // 2)
    while True:
        start = 0
        while start < len(kept):
            trial = kept[:start] + kept[start + run :]
            if enough(trial):
                kept = trial
            else:
                start += run
        if run == 1:
            return kept
        run //= 2


def _separators(values: Sequence[str]) -> str:
    """The characters of ``values`` outside word characters, in order of first appearance."""
    return "".join(dict.fromkeys(c for v in values for c in v if c not in _WORD))


def _column(
    values: Sequence[str], owners: Sequence[int], ends: str, universe: CharSet, style: _Style
) -> Regex:
    """The writing of one column's ``values``, followed in the record by ``ends`` (the separator
    that closes it, or nothing at the end); ``owners[i]``: the positive ``values[i]`` was cut from
    (a repeated piece gives one positive many values)."""
    if len(set(values)) == 1:
        return text_regex(values[0])
    separators = _separators(values)
    if not separators:
        return _leaf(values, owners, universe, style)
    anchors = _anchors(values, separators)
    if anchors:
        return _cut(values, owners, anchors, ends, universe, style)
    repeated = _repeated(values, owners, separators, universe, style)
    if repeated is not None:
        return repeated
    return _free(values, ends, universe, style.specific)


def _anchors(values: Sequence[str], separators: str) -> str:
    """The separators of the first rank (quotes, brackets, spaces, the rest) that every value
    holds equally often, in the same order; empty when no rank has them."""
    ranks = [*RANKS, "".join(c for c in separators if not any(c in r for r in RANKS))]
    for rank in ranks:
        chars = [c for c in rank if c in separators and _constant(values, c)]
        orders = {"".join(c for c in v if c in chars) for v in values}
        if chars and len(orders) == 1:
            return "".join(chars)
    return ""


def _constant(values: Sequence[str], char: str) -> bool:
    counts = {v.count(char) for v in values}
    return len(counts) == 1 and 0 not in counts


def _cut(
    values: Sequence[str],
    owners: Sequence[int],
    anchors: str,
    ends: str,
    universe: CharSet,
    style: _Style,
) -> Regex:
    """The values cut at their ``anchors`` into columns, each written apart."""
    rows = [_split(v, anchors) for v in values]
    order = "".join(c for c in values[0] if c in anchors)
    parts: list[Regex] = []
    for index in range(len(order) + 1):
        closing = order[index] if index < len(order) else ends
        column = [row[index] for row in rows]
        parts.append(_column(column, owners, closing, universe, style))
        if index < len(order):
            parts.append(text_regex(order[index]))
    return concat(*(p for p in parts if p != Epsilon()))


def _split(value: str, anchors: str) -> list[str]:
    fields, start = [], 0
    for index, char in enumerate(value):
        if char in anchors:
            fields.append(value[start:index])
            start = index + 1
    return [*fields, value[start:]]


def _repeated(
    values: Sequence[str],
    owners: Sequence[int],
    separators: str,
    universe: CharSet,
    style: _Style,
) -> Regex | None:
    """A separator some values repeat more often than others, written once around a piece that
    repeats, when the pieces between are of one kind (word characters, or all holding anchors):
    ``(?:/piece)+``, ``piece(?:&piece)*``, ``(?:piece,)+``; the separator seen least first. Not a
    space: words between spaces are free text."""
    totals = Counter(c for v in values for c in v if c in separators)
    for char in sorted(separators.replace(" ", ""), key=lambda c: totals[c]):
        counts = [v.count(char) for v in values]
        if max(counts) < 2 or len(set(counts)) == 1:
            continue
        leading = all(v.startswith(char) for v in values)
        trailing = not leading and all(v.endswith(char) for v in values)
        cut = [(v[1:] if leading else v[:-1] if trailing else v).split(char) for v in values]
        pieces = [p for split in cut for p in split]
        rest = _separators(pieces)
        if not pieces or (rest and not _anchors(pieces, rest)) or not all(pieces):
            continue
        whose = [owner for owner, split in zip(owners, cut) for _ in split]
        piece = _column(pieces, whose, char, universe, style)
        separator = text_regex(char)
        if leading:
            return Plus(concat(separator, piece))
        if trailing:
            return Plus(concat(piece, separator))
        return concat(piece, Star(concat(separator, piece)))
    return None


def _free(values: Sequence[str], ends: str, universe: CharSet, specific: bool) -> Regex:
    """Free text: a token as the classes it shows, else anything but the separator that ends it
    (anything but a newline at the record's end)."""
    repeat = Star if any(not v for v in values) else Plus
    punctuation = set(_separators(values))
    if specific or (" " not in punctuation and len(punctuation) <= MOST_TOKEN_PUNCTUATION):
        return repeat(Chars(_shown("".join(values), universe)))
    return repeat(Chars(universe - CharSet.of(ends or "\n")))


def _leaf(values: Sequence[str], owners: Sequence[int], universe: CharSet, style: _Style) -> Regex:
    """A column of word characters: a word set, digits, hex, runs by class, or the classes shown;
    optional when some value is empty. Written as seen (:func:`_filled`) where ``style`` says."""
    filled = [v for v in values if v]
    whose = [o for o, v in zip(owners, values) if v]
    index, style.leaves = style.leaves, style.leaves + 1
    written = _filled(filled, whose, universe)
    seen = _filled(filled, whose, universe, as_seen=True)
    if seen != written:
        style.loose.append(index)
        written = seen if index in style.as_seen else written
    return Optional(written) if len(filled) < len(values) else written


def _filled(
    values: Sequence[str], owners: Sequence[int], universe: CharSet, as_seen: bool = False
) -> Regex:
    """The writing of a column of word characters; ``as_seen``: its words listed though they are
    few draws, when no word is seen in one positive only, and a number as long as seen."""
    counts = Counter(values)
    if len(counts) == 1:
        return text_regex(values[0])
    words = _complete(values, owners, as_seen)
    if all(v.isalpha() for v in values) and len(counts) <= MOST_WORDS and words:
        return union(*map(text_regex, sorted(counts)))
    if (
        all(v.isdigit() for v in values)
        and len(counts) > 2
        and not any(v[0] == "0" for v in values)
    ):
        lengths = [len(v) for v in values]  # a number, not a code
        return _counted(DIGITS & universe, lengths if as_seen else [1, max(lengths)])
    leading = bounded_field(values)
    if leading is not None:  # a zero-padded number whose values show a bound
        return concat(Chars(leading & universe), _counted(DIGITS & universe, [len(values[0]) - 1]))
    joined = "".join(values)
    shown = _shown(joined, universe)
    letters = CharSet.of("".join(c for c in set(joined) if c.isalpha()))
    if len(joined) >= FEWEST_HEX and letters and letters.issubset(_HEX_LETTERS):
        hex_chars = DIGITS | (_HEX_LETTERS & (LOWER if letters & LOWER else UPPER))
        if not (letters & LOWER and letters & UPPER):
            return _counted(hex_chars & universe, [len(v) for v in values])
    skeletons = {_skeleton(v) for v in values}
    if len(skeletons) == 1:
        runs = [_runs(v) for v in values]
        return concat(
            *(
                _counted(_shown(column[0][0], universe), [len(r) for r in column])
                for column in zip(*runs)
            )
        )
    return _counted(shown, [len(v) for v in values])


def _complete(values: Sequence[str], owners: Sequence[int], as_seen: bool = False) -> bool:
    """Whether a word set looks complete, counted in the positives the words were drawn in (of
    each word's value, ``owners``): no word seen in one positive only (Good-Turing: the words seen
    once estimate the share of new positives that hold a word still unseen), and (unless written
    ``as_seen``, where a near miss asks for the words) :data:`WORD_DRAWS` positives per word. A
    new line is judged whole: the eight keys a query of five lines repeats are eight draws for
    each new line, and ten keys seen twice or more in 41 draws were not all eleven (one in two new
    lines held the eleventh, bench examples, long lines at 5 + 5, seed 4); counted by lines, five
    are too few for ten words."""
    seen_in = Counter(word for word, _ in set(zip(values, owners)))
    drawn = as_seen or len(set(owners)) >= WORD_DRAWS * len(seen_in)
    return min(seen_in.values()) >= 2 and drawn


def _counted(chars: CharSet, lengths: Sequence[int]) -> Regex:
    """A run of ``chars`` as long as the ``lengths`` say: ``{n}`` when all alike, ``{1,n}`` for
    short numbers, else ``+``."""
    low, high = min(lengths), max(lengths)
    run = Chars(chars)
    if low == high:
        return run if low == 1 else Repeat(run, low, low)
    if high <= LONGEST_COUNTED and chars.issubset(DIGITS):
        return Repeat(run, 1, high)
    return Plus(run)


def _class_of(char: str) -> int:
    return next((i for i, k in enumerate(_CLASSES) if char in k), len(_CLASSES))


def _skeleton(value: str) -> tuple[int, ...]:
    return tuple(_class_of(run[0]) for run in _runs(value))


def _runs(value: str) -> list[str]:
    """``value`` cut into runs of one class (digits, lower, upper, underscore)."""
    runs: list[str] = []
    for char in value:
        if runs and _class_of(runs[-1][0]) == _class_of(char):
            runs[-1] += char
        else:
            runs.append(char)
    return runs


def _shown(chars: str, universe: CharSet) -> CharSet:
    """The classes (digits, lower, upper) that ``chars`` touch, and their other characters."""
    found = CharSet.of("".join(c for c in set(chars) if not any(c in k for k in _CLASSES[:3])))
    for kind in _CLASSES[:3]:
        if any(c in kind for c in chars):
            found = found | kind
    return found & universe
