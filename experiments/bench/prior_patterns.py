"""Patterns of the prior: the class-and-count patterns a person reads a few positives through.

``bench examples`` counts the answers that only list their positives; an answer may do so only
when *no pattern of the prior is consistent* with the examples. This module is that yardstick,
written apart from the learner (plain strings and Python's ``re``, none of the learner's code), so
the count does not grade the learner by its own search.

A pattern of the prior is made of the positives as follows. Optionally the longest prefix and the
longest suffix every positive shares are kept literal (*affixes*: none, prefix, suffix, both).
What is left of each positive is cut into *runs* (:data:`CUTS`): of one class each (digits, lower
case, upper case), of digits or letters, of word characters, or the whole rest as one run; any
other character (punctuation, space) is a literal of the *skeleton*. Every positive must have the
same skeleton. A run where every positive shows the same value is that value (a fixed part stays
literal); any other run is a class of :data:`KINDS` (digits, lower case, upper case, letters, word
characters, any character) holding every value shown there, repeated ``{m,n}`` with ``m`` at most
the shortest length shown and ``n`` at least the longest, or without bound (``+``, ``*``). A
pattern must accept some string besides the positives: one that only lists them is no pattern.

Whether *some* pattern of the prior labels the examples right is one check per cut and affix: a
pattern that rejects every negative still does when made narrower, and the narrowest pattern of a
cut and affix is unique (each varying run as the smallest kind holding its values, unique as the
kinds are nested, counted from the shortest value shown to the longest). It accepts every positive
by construction, so a pattern is consistent exactly when the narrowest rejects every negative and
accepts another string. (Where the narrowest accepts no other string, because the values shown
fill their classes, as ten one-digit positives fill ``[0-9]``, wider patterns are not looked for:
no bench problem has such a run.)
"""

from __future__ import annotations

import itertools
import math
import os
import re
from collections.abc import Callable, Sequence

#: The classes of the prior, narrowest first (each is inside every later one that holds it), as
#: the characters they hold (the last holds every character).
KINDS: tuple[tuple[str, str], ...] = (
    ("digits", "0123456789"),
    ("lower", "abcdefghijklmnopqrstuvwxyz"),
    ("upper", "ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
    ("letters", "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"),
    ("word", "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"),
    ("any", ""),  # every character
)
_PATTERNS = {
    "digits": "[0-9]",
    "lower": "[a-z]",
    "upper": "[A-Z]",
    "letters": "[A-Za-z]",
    "word": "[A-Za-z0-9_]",
    "any": "(?s:.)",
}

#: How a string is cut into runs: the run a character belongs to, or None for a skeleton literal.
CUTS: dict[str, Callable[[str], str | None]] = {
    "class": lambda c: (
        "digits"
        if c.isascii() and c.isdigit()
        else "lower"
        if "a" <= c <= "z"
        else "upper"
        if "A" <= c <= "Z"
        else None
    ),
    "letters": lambda c: (
        "digits" if "0" <= c <= "9" else "letters" if c.isascii() and c.isalpha() else None
    ),
    "word": lambda c: "word" if c.isascii() and (c.isalnum() or c == "_") else None,
    "whole": lambda c: "whole",
}

AFFIXES = ("none", "prefix", "suffix", "both")

#: A skeleton element: a run (its cut's name for it) or a literal character.
_Part = tuple[str, str]


def consistent_pattern(positives: Sequence[str], negatives: Sequence[str]) -> str | None:
    """A pattern of the prior (Python syntax, for ``re.fullmatch``) that accepts every positive, no
    negative, and some other string (else it is the positives listed), or None when there is none:
    the narrowest of each cut and affix, the first that fits."""
    for pattern in narrowest_patterns(positives):
        compiled = re.compile(pattern)
        if not any(compiled.fullmatch(n) for n in negatives):
            return pattern
    return None


def narrowest_patterns(positives: Sequence[str]) -> list[str]:
    """The narrowest pattern of the prior for each cut and affix whose positives share a skeleton,
    when it accepts more strings than the positives (distinct positives: it accepts each)."""
    if not positives:
        return []
    out: dict[str, None] = {}
    for affix, cut in itertools.product(AFFIXES, CUTS.values()):
        prefix, suffix = _affixes(positives, affix)
        middles = [p[len(prefix) : len(p) - len(suffix)] for p in positives]
        found = _narrowest(middles, cut)
        if found is not None and found[1] > len(set(positives)):
            out[re.escape(prefix) + found[0] + re.escape(suffix)] = None
    return list(out)


def _affixes(positives: Sequence[str], affix: str) -> tuple[str, str]:
    """The literal prefix and suffix kept, the suffix taken from what the prefix leaves."""
    prefix = os.path.commonprefix(list(positives)) if affix in ("prefix", "both") else ""
    rests = [p[len(prefix) :] for p in positives]
    suffix = (
        os.path.commonprefix([r[::-1] for r in rests])[::-1] if affix in ("suffix", "both") else ""
    )
    return prefix, suffix


def _skeleton(string: str, cut: Callable[[str], str | None]) -> tuple[tuple[_Part, ...], list[str]]:
    """The skeleton of ``string`` (runs by their kind, other characters as themselves) and its runs."""
    parts: list[_Part] = []
    runs: list[str] = []
    for kind, chars in itertools.groupby(string, cut):
        text = "".join(chars)
        if kind is None:
            parts += [("literal", c) for c in text]
        else:
            parts.append(("run", kind))
            runs.append(text)
    return tuple(parts), runs


def _narrowest(
    middles: Sequence[str], cut: Callable[[str], str | None]
) -> tuple[str, float] | None:
    """The narrowest pattern of the middles under ``cut`` and how many strings it accepts
    (infinite for a run of any character), None when their skeletons differ."""
    cuts = [_skeleton(m, cut) for m in middles]
    if len({skeleton for skeleton, _ in cuts}) != 1:
        return None
    skeleton = cuts[0][0]
    runs = iter(zip(*(r for _, r in cuts))) if cuts[0][1] else iter(())
    out, size = [], 1.0
    for part, value in skeleton:
        run = (re.escape(value), 1.0) if part == "literal" else _run(next(runs))
        out.append(run[0])
        size *= run[1]
    return "".join(out), size


def _run(values: Sequence[str]) -> tuple[str, float]:
    """One run and how many strings it accepts: its value when every positive shows the same, else
    the smallest kind holding the values, counted from the shortest to the longest."""
    if len(set(values)) == 1:
        return re.escape(values[0]), 1.0
    chars = set("".join(values))
    kind, members = next(
        (name, members) for name, members in KINDS if not members or chars <= set(members)
    )
    low, high = min(map(len, values)), max(map(len, values))
    size = sum(float(len(members)) ** n for n in range(low, high + 1)) if members else math.inf
    return _PATTERNS[kind] + (f"{{{low}}}" if low == high else f"{{{low},{high}}}"), size
