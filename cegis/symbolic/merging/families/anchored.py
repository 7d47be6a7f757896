"""Hypotheses that say how a string starts or ends, one rule or another: "ends with a lower-case
letter or starts with a vowel", "ends with ``dog``, starts with ``truck``, or is one lower-case
letter".

The other families describe what every positive holds; a union of anchored rules is what no
positive shares, each rule covering some of them. Merging needs a state per remembered character
to learn it and the factor families cannot spell it, so such targets were refuted epoch after
epoch. A rule is a prefix or suffix (a word of at most :data:`LONGEST_ANCHOR` characters, or one
character of a class) or one character of a class alone; it is admissible when no negative
follows it, and a few admissible rules that cover every positive are chosen greedily. A word
must be at least :data:`SHORTEST_FACTOR` characters long and begin or end two positives: one
positive's word is a listing of it, and a shared single character too often a coincidence.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from typing import Literal

import attrs

from cegis.symbolic.merging.candidate import Found, spelled
from cegis.symbolic.merging.core.run_cache import RunCache
from cegis.symbolic.merging.core.symbols import Remembered
from cegis.symbolic.merging.evidence import Evidence
from cegis.symbolic.merging.families.pieces import piece_name
from cegis.symbolic.merging.families.shared import SHORTEST_FACTOR, Hypotheses
from regexlang.ast import Chars, Regex, Star, concat, union
from regexlang.ast import text as text_regex
from regexlang.charset import CharSet

#: Most characters of an anchored word.
LONGEST_ANCHOR = 8
#: Most rules of a hypothesis (more would be a listing).
MOST_RULES = 3

Where = Literal["starts", "ends", "is"]


@attrs.frozen
class Rule:
    """Strings that start with, end with, or are ``piece`` (a word, or one character of a class)."""

    where: Where
    piece: str | CharSet

    def regex(self, anything: Regex) -> Regex:
        """The strings over ``anything``'s characters that follow the rule."""
        piece = text_regex(self.piece) if isinstance(self.piece, str) else Chars(self.piece)
        return (
            piece
            if self.where == "is"
            else concat(piece, anything)
            if self.where == "starts"
            else concat(anything, piece)
        )

    def name(self) -> str:
        """The rule described (``ends dog``)."""
        return f"{self.where} {piece_name(self.piece)}"


def anchored_hypotheses(
    positives: Sequence[str],
    negatives: Sequence[str],
    universe: CharSet,
    classes: Sequence[CharSet],
    *,
    cache: RunCache | None = None,
) -> Hypotheses:
    """The union of at most :data:`MOST_RULES` anchored rules that covers every positive and that
    no negative follows, when more than one rule is needed and there is such a union; rules over
    ``classes`` (distinct, smaller than the ``universe``) compete with words. The rules of each
    string are kept in the run's ``cache``: the same examples come back every epoch and agreement
    round."""
    if not positives or not negatives or "" in positives:
        return []
    run = cache or RunCache()
    kinds = tuple(c for c in dict.fromkeys(classes) if not universe.issubset(c))
    ends = run(_class_rules, kinds, run, limit=16)
    refused = _refused(negatives, positives, run(_holding, kinds, limit=16))
    held: dict[_Key, set[int]] = {}
    for i, positive in enumerate(positives):
        for rule in (*run(_words, positive, limit=1 << 16), *_classed(positive, ends)):
            if rule not in refused:
                held.setdefault(rule, set()).add(i)
    held = {rule: ids for rule, ids in held.items() if len(ids) > 1 or not isinstance(rule[1], str)}
    sizes = [len(c) for c in kinds]
    chosen = [
        Rule(where, piece if isinstance(piece, str) else kinds[piece])
        for where, piece in _cover(held, len(positives), sizes)
    ]
    if len(chosen) < 2:
        return []
    anything = Star(Chars(universe))
    return [
        (
            union(*(rule.regex(anything) for rule in chosen)),
            f"anchored ({', '.join(rule.name() for rule in chosen)})",
        )
    ]


_Key = tuple[Where, "str | int"]
"""A rule while rules are counted: its word, or its class by index."""


def _words(string: str) -> tuple[_Key, ...]:
    """The word rules ``string`` follows: each prefix and suffix of :data:`SHORTEST_FACTOR` to
    :data:`LONGEST_ANCHOR` characters, shortest first."""
    return tuple(
        rule
        for length in range(SHORTEST_FACTOR, min(len(string), LONGEST_ANCHOR) + 1)
        for rule in (("starts", string[:length]), ("ends", string[-length:]))
    )


_Ends = tuple[str, str, bool]
"""A string's first and last characters, and whether it is one character."""


def _classed(string: str, rules: Remembered[_Ends, tuple[_Key, ...]]) -> tuple[_Key, ...]:
    """The class rules ``string`` follows, class by class: it starts, ends, or (one character)
    is a character of the class (``rules``: :func:`_class_rules`)."""
    return rules[string[0], string[-1], len(string) == 1] if string else ()


def _class_rules(
    classes: tuple[CharSet, ...], cache: RunCache
) -> Remembered[_Ends, tuple[_Key, ...]]:
    """The class rules of a string by its ends (:data:`_Ends`), found once per ends: the same
    first and last characters come back in most examples, every epoch and agreement round (with
    :func:`_holding` of ``classes`` from the run's ``cache``)."""
    holding = cache(_holding, classes, limit=16)
    return Remembered(lambda ends: _rules_of(holding, *ends))


def _rules_of(
    holding: Remembered[str, frozenset[int]], first_char: str, last_char: str, single: bool
) -> tuple[_Key, ...]:
    first, last = holding[first_char], holding[last_char]
    out: list[_Key] = []
    for k in sorted(first | last):
        if k in first:
            out.append(("starts", k))
        if k in last:
            out.append(("ends", k))
        if single and k in first:
            out.append(("is", k))
    return tuple(out)


def _holding(classes: tuple[CharSet, ...]) -> Remembered[str, frozenset[int]]:
    """The classes (by index) that hold a character, found once per character."""
    return Remembered(lambda char: frozenset(k for k, chars in enumerate(classes) if char in chars))


def _refused(
    negatives: Sequence[str], positives: Sequence[str], holding: Remembered[str, frozenset[int]]
) -> set[_Key]:
    """The rules some of ``negatives`` follow, as far as they matter: every such class rule, and
    every such word rule of the ``positives``. The negatives are most of the examples (hundreds,
    the same every epoch), so they are read in bulk, never rule by rule: the classes by the
    characters negatives start with, end with, or are (``holding``: :func:`_holding`), the words
    length by length, among the negatives that begin (end) as a positive does one shorter."""
    chars: dict[Where, set[str]] = {
        "starts": {n[0] for n in negatives if n},
        "ends": {n[-1] for n in negatives if n},
        "is": {n for n in negatives if len(n) == 1},
    }
    refused: set[_Key] = {
        (where, k) for where, held in chars.items() for char in held for k in holding[char]
    }
    begun = ended = negatives
    for length in range(SHORTEST_FACTOR, LONGEST_ANCHOR + 1):
        heads, tails = (
            {p[:length] for p in positives if len(p) >= length},
            {p[-length:] for p in positives if len(p) >= length},
        )
        begun, ended = (
            [n for n in begun if n[:length] in heads],
            [n for n in ended if n[-length:] in tails],
        )
        refused.update(("starts", n[:length]) for n in begun)
        refused.update(("ends", n[-length:]) for n in ended)
    return refused


def _cover(held: dict[_Key, set[int]], count: int, sizes: Sequence[int]) -> list[_Key]:
    """At most :data:`MOST_RULES` rules that together hold all ``count`` positives, chosen
    greedily: the rule holding most positives not yet held, then a class over a word, then the
    larger class (``sizes``, by index) or the longer word (all the positives it holds share), then
    the first found; empty when they do not cover."""
    uncovered = set(range(count))
    chosen: list[_Key] = []
    heap = [
        (
            -len(ids),
            isinstance(piece, str),
            -len(piece) if isinstance(piece, str) else -sizes[piece],
            n,
            (where, piece),
        )
        for n, ((where, piece), ids) in enumerate(held.items())
    ]
    heapq.heapify(heap)
    while uncovered and heap and len(chosen) < MOST_RULES:
        count_now, word, length, n, rule = heap[0]
        now = len(held[rule] & uncovered)
        if now != -count_now:  # it holds fewer now: back in its place (counts only fall)
            heapq.heapreplace(heap, (-now, word, length, n, rule))
            continue
        heapq.heappop(heap)
        if not now:
            break
        chosen.append(rule)
        uncovered -= held[rule]
    return chosen if not uncovered else []


def candidates(evidence: Evidence) -> Found:
    """The union of anchored rules over the shown classes and the atoms, compiled: the family of
    anchored rules (:class:`cegis.symbolic.merging.evidence.Family`)."""
    kinds = [*evidence.shown, *evidence.classes]
    universe = evidence.universe
    return spelled(
        anchored_hypotheses(
            evidence.positives, evidence.negatives, universe, kinds, cache=evidence.cache
        ),
        universe,
        "anchored",
        evidence.cache,
    )
