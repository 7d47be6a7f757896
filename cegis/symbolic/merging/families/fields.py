"""Hypotheses with a free-text field: a head, an opening separator, then text that may hold any
character but a few, and the closing characters every positive ends with.

``mode=fast;x``, ``"a quoted phrase"``, ``## Some heading``: after a separator comes a value whose
characters no one shape describes (its positives cut at punctuation have different skeletons), and
a person writes it as ``.+``, as "anything but" the characters that would end it (``[^ ;]+``,
``"[^"]*"``), or as the classes it shows (``[A-Za-z ]+``); the head before the separator is written
as a run of one symbol (``#+``), as a word of a small set the positives repeat (``(?:GET|PUT)``), or
by the run templates (:mod:`.templates`).

The characters a field excludes come from the negatives: a near miss whose head is right and whose
field holds a character no positive's field shows is kept out by that character. Among several, the
fewest characters that keep out every such negative are chosen greedily (space and the separators
of the string first: those are what end a free field). The writings are matched against the
examples with Python's ``re`` (:func:`.separated.accepts_all`); those that label every example
right are compiled and compete with the other families on description length."""

from __future__ import annotations

import os
from collections.abc import Sequence

from cegis.symbolic.merging.candidate import Found, spelled
from cegis.symbolic.merging.evidence import Evidence
from cegis.symbolic.merging.families.prior import DIGITS, LOWER, UPPER
from cegis.symbolic.merging.families.separated import accepts_all, accepts_any
from cegis.symbolic.merging.families.templates import RUN_CHARS, cut_runs, template_hypotheses
from regexlang.ast import Chars, Epsilon, Plus, Regex, Repeat, Star, concat, union
from regexlang.ast import text as text_regex
from regexlang.charset import CharSet

#: Most opening separators tried, those that come earliest in the positives first.
MOST_OPENERS = 3

#: Most words of a small set written as alternatives, when each is shown twice on average.
MOST_WORDS = 4

#: Most run templates of the head combined with each field writing.
MOST_HEADS = 4

#: The classes a field's characters are read through (any other character stands for itself).
_CLASSES = (DIGITS, LOWER, UPPER)


def candidates(evidence: Evidence) -> Found:
    """The free-field hypotheses of the plain examples, compiled: the family of free fields
    (:class:`cegis.symbolic.merging.evidence.Family`)."""
    positives, negatives = evidence.plain
    return spelled(
        free_field_hypotheses(positives, negatives, evidence.universe),
        evidence.universe,
        "fields",
        evidence.cache,
    )


def free_field_hypotheses(
    positives: Sequence[str], negatives: Sequence[str], universe: CharSet
) -> list[tuple[Regex, str]]:
    """For each opening separator whose fields after it have no one shape, each writing of the
    heads before it and each writing of the fields: the hypotheses that accept every positive and
    no negative."""
    if len(positives) < 2:
        return []
    closing = _closing(positives)
    bodies = [p[: len(p) - len(closing)] for p in positives]
    against = [n[: len(n) - len(closing)] for n in negatives if n.endswith(closing)]
    out: dict[Regex, str] = {}
    for opener in openers(bodies):
        heads, fields = zip(*(body.split(opener, 1) for body in bodies))
        if not _free(fields):
            continue
        split = [n.split(opener, 1) for n in against if opener in n]
        for head, head_how in _heads(heads, [h for h, _ in split], universe):
            kept = [f for h, f in split if accepts_all(head, [h])]
            for field, field_how in _fields(fields, kept, opener + closing, universe):
                parts = (head, text_regex(opener), field, text_regex(closing))
                regex = concat(*(part for part in parts if part != Epsilon()))
                out.setdefault(
                    regex, f"free field (after {opener!r}, head {head_how}, field {field_how})"
                )
    return [
        (regex, how)
        for regex, how in out.items()
        if accepts_all(regex, positives) and not accepts_any(regex, negatives)
    ]


def openers(bodies: Sequence[str]) -> list[str]:
    """The characters outside runs (punctuation, space) that every body has, earliest first (by
    the mean place of their first occurrence); at most :data:`MOST_OPENERS`."""
    shared = set.intersection(*(set(body) for body in bodies)) - set(_run_chars())
    return sorted(shared, key=lambda c: (sum(b.index(c) for b in bodies), c))[:MOST_OPENERS]


def _run_chars() -> str:
    return "".join(chr(c) for lo, hi in RUN_CHARS.intervals for c in range(lo, hi + 1))


def _closing(positives: Sequence[str]) -> str:
    """The longest suffix of characters outside runs that every positive ends with (a closing
    quote or bracket), leaving every positive at least one character before it."""
    shared = os.path.commonprefix([p[::-1] for p in positives])[::-1]
    run = set(_run_chars()) | {" "}
    kept = ""
    for char in reversed(shared):
        if char in run:
            break
        kept = char + kept
    shortest = min(map(len, positives))
    return kept[len(kept) - min(len(kept), shortest - 1) :] if shortest > 1 else ""


def _free(fields: Sequence[str]) -> bool:
    """Whether the fields have no one shape: cut at punctuation and space into runs, their
    skeletons differ (a field of one shape is a template's, :mod:`.templates`)."""
    return len({cut_runs(field, "word")[0:2] for field in fields}) > 1


def _heads(
    heads: Sequence[str], negatives: Sequence[str], universe: CharSet
) -> list[tuple[Regex, str]]:
    """The writings of the heads: nothing when they are empty; a run of one symbol (``#+``,
    ``#{1,3}``); the words listed when few, each shown twice on average; the run templates."""
    distinct = sorted(set(heads))
    if distinct == [""]:
        return [(Epsilon(), "empty")]
    out: list[tuple[Regex, str]] = []
    if all(h and set(h) == {h[0]} for h in heads) and len({h[0] for h in heads}) == 1:
        char = text_regex(heads[0][0])
        low, high = min(map(len, heads)), max(map(len, heads))
        out.append((Plus(char), "a run of one symbol"))
        if low != high:
            out.append((Repeat(char, low, high), "a run of one symbol counted"))
    if len(distinct) <= MOST_WORDS and len(heads) >= 2 * len(distinct):
        out.append((union(*map(text_regex, distinct)), "words listed"))
    templates = template_hypotheses(heads, negatives, universe, "word")
    out += [(t.regex, "a template") for t in templates[:MOST_HEADS]]
    return out


def _fields(
    fields: Sequence[str], negatives: Sequence[str], separators: str, universe: CharSet
) -> list[tuple[Regex, str]]:
    """The writings of the fields, general to specific: any character; any but the fewest that
    keep out the ``negatives`` (fields after a right head); the classes shown; the classes shown
    first and then the rest's. Repeated with ``+``, or ``*`` when a field is empty."""
    repeat = Star if any(not f for f in fields) else Plus
    out: list[tuple[Regex, str]] = [(repeat(Chars(universe - CharSet.of("\n"))), "any character")]
    excluded = _excluded(fields, negatives, separators)
    if excluded:
        out.append((repeat(Chars(universe - CharSet.of(excluded))), f"any but {excluded!r}"))
    shown = _classes("".join(fields), universe)
    out.append((repeat(Chars(shown)), "the classes shown"))
    filled = [f for f in fields if f]
    first, rest = _classes("".join(f[0] for f in filled), universe), "".join(f[1:] for f in filled)
    if rest:
        written = concat(Chars(first), Star(Chars(_classes(rest, universe))))
        out.append((written if repeat is Plus else union(Epsilon(), written), "first apart"))
    return out


def _classes(chars: str, universe: CharSet) -> CharSet:
    """The classes of :data:`_CLASSES` that ``chars`` touch, and any other character of them."""
    found = CharSet.of("".join(c for c in set(chars) if not any(c in k for k in _CLASSES)))
    for kind in _CLASSES:
        if any(c in kind for c in chars):
            found = found | kind
    return found & universe


def _excluded(fields: Sequence[str], negatives: Sequence[str], separators: str) -> str:
    """The fewest characters outside runs, absent from every field, that some character of each
    negative field is (chosen greedily: the one in most negatives left, space and the
    ``separators`` first on a tie); empty when some negative holds none of them."""
    shown = set("".join(fields)) | set(_run_chars())
    left = [set(n) - shown for n in negatives]
    if any(not chars for chars in left):
        return ""
    preferred = " " + separators
    chosen = ""
    while left:
        counts: dict[str, int] = {}
        for chars in left:
            for c in chars:
                counts[c] = counts.get(c, 0) + 1
        best = max(counts, key=lambda c: (counts[c], c in preferred, -ord(c)))
        chosen += best
        left = [chars for chars in left if best not in chars]
    return "".join(sorted(chosen))
