"""Hypotheses built from the factors (substrings) that every positive example shares.

State merging generalizes from the prefix tree: it finds loops and joins, but a constraint such as
"contains ``New#Zealand``" is a twelve-state automaton whose back edges (on ``N`` back to the
second state, on any other character to the first) no sample of a few long positives spells out,
and two such constraints together are their product. Regexes written by people are full of them
(KB13's targets were written from descriptions like "lines containing X and Y"). So the learner
also proposes, as candidates that compete on description length with the merged ones:

- the *conjunction*: every positive starts with their longest common prefix, ends with their
  longest common suffix, and contains each of their shared factors as many times as each of them
  does (``ug`` four times);
- the conjunction that also asks for characters of the classes every positive has (``Westbury``
  and a digit), when a negative refutes the words alone;
- the conjunction that also excludes the factors shared by the negatives it would accept, when no
  positive has them (``Wednesday`` but not ``Sunday``);
- the *sequences*: the same factors, in the orders the positives contain them in (one of at
  most :data:`MOST_ALTERNATIVES`: ``car`` then ``foo`` then ``cop``, or the other way round);
- *contains one of* a few factors that no negative contains and that together cover every
  positive (``bedrock`` or ``yabadabadoo``).

A candidate that a negative example contradicts is dropped later like any other
(:func:`oracle.misclassified`); these only add hypotheses, never remove one.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from regexlang.ast import Chars, Complement, Regex, Star, concat, intersection, union
from regexlang.ast import text as text_regex
from regexlang.charset import CharSet

#: Fewest characters of a shared factor (a shared single character is too often a coincidence).
SHORTEST_FACTOR = 2

#: Most factors of a "contains one of" hypothesis (and most orders of a sequence), and the fewest
#: and most characters of those factors.
MOST_ALTERNATIVES = 3
SHORTEST_ALTERNATIVE = 3
LONGEST_ALTERNATIVE = 16


def shared_factors(strings: Sequence[str], shortest: int = SHORTEST_FACTOR) -> dict[str, int]:
    """The substrings of at least ``shortest`` characters that every one of ``strings`` contains,
    each with the fewest times a string contains it without overlaps, keeping only those that
    another does not imply (``ugug`` once implies ``ug`` twice, not ``ug`` four times); longest
    first."""
    if not strings:
        return {}
    base = min(strings, key=len)
    counts: dict[str, int] = {}
    for start in range(len(base)):
        for end in range(start + shortest, len(base) + 1):
            factor = base[start:end]
            if factor not in counts:
                counts[factor] = min(s.count(factor) for s in strings)
    shared = {w: n for w, n in counts.items() if n}
    kept = {w: n for w, n in shared.items() if not any(v != w and w in v and m >= n for v, m in shared.items())}
    return dict(sorted(kept.items(), key=lambda item: (-len(item[0]), item[0])))


def factor_hypotheses(
    positives: Sequence[str], negatives: Sequence[str], universe: CharSet, classes: Sequence[CharSet] = ()
) -> list[tuple[Regex, str]]:
    """The hypotheses of this module that the examples suggest, each with a short description,
    over ``universe``; ``classes`` are the character classes the examples show (a learner's atoms)."""
    return _conjunctions(positives, negatives, universe, classes) + _alternatives(positives, negatives, universe)


def _conjunctions(
    positives: Sequence[str], negatives: Sequence[str], universe: CharSet, classes: Sequence[CharSet]
) -> list[tuple[Regex, str]]:
    """The conjunction (when a negative refutes it, also with the ``classes`` every positive has
    characters of; when negatives it accepts share factors no positive has, also excluding those),
    and the sequences of the factors in the orders the positives show; none without positives or
    shared parts."""
    if not positives:
        return []
    prefix = os.path.commonprefix(list(positives))
    suffix = os.path.commonprefix([s[::-1] for s in positives])[::-1]
    if min(map(len, positives)) < len(prefix) + len(suffix):  # a positive is all prefix and suffix
        suffix = ""
    factors = shared_factors(positives)
    inner = [w for w, n in factors.items() if n > 1 or (w not in prefix and w not in suffix)]
    if not (prefix or suffix or inner):
        return []
    anything = Star(Chars(universe))
    starts = [text_regex(prefix)] if prefix else []
    ends = [text_regex(suffix)] if suffix else []
    parts = [concat(*starts, anything)] if prefix else []
    parts += [_contains(text_regex(w), factors[w], anything) for w in inner]
    parts += [concat(anything, *ends)] if suffix else []
    named = [f"starts {prefix}"] if prefix else []
    named += [w if factors[w] == 1 else f"{w} ×{factors[w]}" for w in inner]
    named += [f"ends {suffix}"] if suffix else []
    out = [(intersection(*parts), f"shared factors ({', '.join(named)})")]
    accepted = [n for n in negatives if n.startswith(prefix) and n.endswith(suffix) and all(w in n for w in inner)]
    held = _held_classes(positives, classes, "".join([prefix, suffix, *inner]))
    if accepted and held:  # the words alone are refuted: ask for the classes every positive has too
        parts += [_contains(Chars(c), n, anything) for c, n in held.items()]
        named += [f"[{c.first()}…] ×{n}" for c, n in held.items()]
        out.append((intersection(*parts), f"shared factors ({', '.join(named)})"))
        accepted = [x for x in accepted if all(_count(x, c) >= n for c, n in held.items())]
    excluded = [w for w in shared_factors(accepted) if not any(w in p for p in positives)]
    if excluded:
        absent = [Complement(_contains(text_regex(w), 1, anything)) for w in excluded]
        out.append((intersection(*parts, *absent), f"shared factors ({', '.join(named)}), none of ({', '.join(excluded)})"))
    orders = _orders(positives, inner, len(prefix), len(suffix))
    if len(inner) > 1 and all(factors[w] == 1 for w in inner) and 0 < len(orders) <= MOST_ALTERNATIVES:
        sequences = [concat(*starts, _one_after_another([text_regex(w) for w in order], anything), *ends) for order in orders]
        out.append((union(*sequences), f"factors in order ({' | '.join(', '.join(order) for order in orders)})"))
    return out


def _alternatives(positives: Sequence[str], negatives: Sequence[str], universe: CharSet) -> list[tuple[Regex, str]]:
    """"Contains one of" :func:`covering_factors`, when it takes more than one factor."""
    factors = covering_factors(positives, negatives)
    if len(factors) < 2:
        return []
    anything = Star(Chars(universe))
    regex = concat(anything, union(*map(text_regex, factors)), anything)
    return [(regex, f"contains one of ({', '.join(factors)})")]


def covering_factors(positives: Sequence[str], negatives: Sequence[str]) -> list[str]:
    """At most :data:`MOST_ALTERNATIVES` substrings (of :data:`SHORTEST_ALTERNATIVE` to
    :data:`LONGEST_ALTERNATIVE` characters) that no negative contains and that together cover
    every positive, chosen greedily (the one in most positives not yet covered, the longest on a
    tie); empty when there are none such."""
    held: dict[str, set[int]] = {}
    for i, string in enumerate(positives):
        for factor in _substrings(string):
            held.setdefault(factor, set()).add(i)
    negative_text = "\n".join(negatives)  # a match across two negatives only refuses a factor
    uncovered = set(range(len(positives)))
    chosen: list[str] = []
    while uncovered and len(chosen) < MOST_ALTERNATIVES:
        ranked = sorted(held, key=lambda w: (len(held[w] & uncovered), len(w), w), reverse=True)
        best = next((w for w in ranked if held[w] & uncovered and w not in negative_text), None)
        if best is None:
            break
        chosen.append(best)
        uncovered -= held.pop(best)
    return [] if uncovered else chosen


def _substrings(string: str) -> set[str]:
    """The substrings of ``string`` an alternative may be."""
    return {
        string[start:end]
        for start in range(len(string))
        for end in range(start + SHORTEST_ALTERNATIVE, min(len(string), start + LONGEST_ALTERNATIVE) + 1)
    }


def _contains(piece: Regex, times: int, anything: Regex) -> Regex:
    """Strings with ``times`` occurrences of ``piece`` (``.*w.*w.*``)."""
    return _one_after_another([piece] * times, anything)


def _one_after_another(pieces: Sequence[Regex], anything: Regex) -> Regex:
    """Strings that contain ``pieces`` one after another, anything around them."""
    return concat(anything, *[concat(piece, anything) for piece in pieces])


def _held_classes(positives: Sequence[str], classes: Sequence[CharSet], spelled: str) -> dict[CharSet, int]:
    """The classes (of more than one character, none ``spelled`` by the factors) that every
    positive has characters of, with the fewest a positive has."""
    held = {c: min(_count(p, c) for p in positives) for c in classes if len(c) > 1 and not any(x in c for x in spelled)}
    return {c: n for c, n in held.items() if n}


def _count(string: str, chars: CharSet) -> int:
    """How many characters of ``string`` are in ``chars``."""
    return sum(x in chars for x in string)


def _orders(positives: Sequence[str], factors: Sequence[str], skip: int, keep: int) -> list[tuple[str, ...]]:
    """The orders in which the positives contain ``factors`` one after another between their
    first ``skip`` and last ``keep`` characters (a positive's order: that of its first
    occurrences), or none when some positive contains them in no such order."""
    orders: list[tuple[str, ...]] = []
    for string in positives:
        if any(_in_order(string, order, skip, keep) for order in orders):
            continue
        order = tuple(sorted(factors, key=lambda w: string.find(w, skip)))
        if not _in_order(string, order, skip, keep):
            return []
        orders.append(order)
    return orders


def _in_order(string: str, order: Sequence[str], skip: int, keep: int) -> bool:
    """Whether ``string`` contains the factors of ``order`` one after another between its first
    ``skip`` and last ``keep`` characters."""
    at, end = skip, len(string) - keep
    for w in order:
        found = string.find(w, at, end)
        if found < 0:
            return False
        at = found + len(w)
    return True
