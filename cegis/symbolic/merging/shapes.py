"""Class-and-count shapes of a few positives: the run templates of more cuts, and with the literal
prefix and suffix that every positive shares kept as they are.

Six positives are often all a person has, and they read them through classes and counts:
``qFbyB``, ``qWXaSCr``, ``qZoLgub`` are ``q[A-Za-z]{4,6}``; ``GC271w``, ``IA420lSU``, ``HA992Mb``
are ``[A-Z]{2}[0-9]{3}[A-Za-z]{1,3}``. The run templates (:mod:`.templates`) cut strings at
punctuation or at every change of class, so the shared ``q`` is read as part of a letter run and
``C271w`` and ``C271Z`` have different skeletons. Here the templates are also cut into runs of
digits or of letters, and, when no cut has a consistent pattern of the prior (below), made of the
whole string as one run, and of what is left once the longest prefix, suffix, or both that every
positive shares are kept literal. Negatives without the kept prefix and suffix are rejected by it;
the others are fitted as what they leave.

The writings with every run at its narrowest (its value where every positive shows the same, else
its class counted from the shortest value to the longest) are the *patterns of the prior*
(:func:`prior_patterns`): when one of them labels every example right and accepts more than the
positives (:func:`only_listed`), some pattern of the prior is consistent, and with strings given up
front an answer that only lists the positives is passed over whatever its length (issue 36: "never
the alternation of the positives unless no pattern of the prior is consistent"). A single positive,
or positives that differ only where no class is counted, have no such pattern."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from typing import TypeVar

from automata.dfa import DFA
from automata.ops import accepts_many, difference, is_empty
from cegis.symbolic.merging.scoring import CHECK_STATE_LIMIT, automaton_of
from cegis.symbolic.merging.templates import CUTS, NARROWEST, Cut, template_hypotheses
from regexlang.ast import Regex, concat, union
from regexlang.ast import text as text_regex
from oracle.clustered import misclassified
from oracle.examples import Counterexample
from regexlang.charset import CharSet

#: A candidate of the learner: its automaton, how it was found, and its regex if spelled.
_C = TypeVar("_C", bound=tuple[DFA, str, Regex | None])


#: The cuts tried first; the whole string as one run only when none of these has a consistent
#: pattern of the prior (its class is the characters shown: ``[-0-9]{5,}`` for ZIP codes).
FIRST_CUTS: tuple[Cut, ...] = ("word", "class", "letters")


def shape_hypotheses(positives: Sequence[str], negatives: Sequence[str], universe: CharSet, given: bool = True) -> list[tuple[Regex, str]]:
    """The templates of the :data:`FIRST_CUTS` of the positives as they are (distinct regexes);
    unless the narrowest of a cut that gives every positive one skeleton is consistent, with the
    shared prefix, suffix, or both kept literal too; and unless some pattern of the prior is
    consistent by then, those of the whole string as one run too. The later ones are guesses where
    negatives do not ask for them: log lines of one century share ``20``, which a person still
    writes as ``[0-9]{4}``; a ZIP code is ``[0-9]{5}(?:-[0-9]{4})?``, not ``[-0-9]{5,}``. Only for
    strings ``given`` up front: in the learning loop a teacher's counterexamples correct a
    template that is too general, and the templates of :data:`.templates.CUTS` are enough (KB13's
    runs spent half again as long on the other shapes, which never fit its targets)."""
    if not positives:
        return []
    out = _shapes(positives, negatives, universe, [("", "")], FIRST_CUTS if given else CUTS, given)
    if not given:
        return list(out.items())
    alone = [f"template ({cut} runs {NARROWEST}, 1 skeletons" for cut in FIRST_CUTS]
    if not any(how.startswith(tuple(alone)) and _consistent(regex, positives, negatives, universe) for regex, how in out.items()):
        out |= _shapes(positives, negatives, universe, _affixes(positives), FIRST_CUTS, given)
    if not any(NARROWEST in how and _consistent(regex, positives, negatives, universe) for regex, how in out.items()):
        out |= _shapes(positives, negatives, universe, [("", ""), *_affixes(positives)], ("whole",), given)
    return list(out.items())


def _consistent(regex: Regex, positives: Sequence[str], negatives: Sequence[str], universe: CharSet) -> bool:
    """Whether ``regex`` (which accepts every positive) accepts no negative and some other string."""
    dfa = automaton_of(regex, universe)
    own = automaton_of(union(*map(text_regex, positives)), universe)
    return not accepts_many(dfa, negatives).any() and not only_listed(dfa, own)


def _shapes(
    positives: Sequence[str], negatives: Sequence[str], universe: CharSet, affixes: Sequence[tuple[str, str]], cuts: Sequence[Cut], given: bool
) -> dict[Regex, str]:
    """The templates of the ``cuts`` with each prefix and suffix of ``affixes`` kept (for strings
    ``given`` up front, with every run at its narrowest too)."""
    out: dict[Regex, str] = {}
    for prefix, suffix in affixes:
        ends = len(prefix) + len(suffix)
        core = [p[len(prefix) : len(p) - len(suffix)] for p in positives]
        against = [n[len(prefix) : len(n) - len(suffix)] for n in negatives if len(n) >= ends and n.startswith(prefix) and n.endswith(suffix)]
        kept = f", {prefix!r} and {suffix!r} kept" if ends else ""
        for cut in cuts:
            for regex, how in template_hypotheses(core, against, universe, cut, narrowest=given):
                out.setdefault(concat(*(text_regex(a) for a in (prefix,) if a), regex, *(text_regex(a) for a in (suffix,) if a)), how + kept)
    return out


def _affixes(positives: Sequence[str]) -> list[tuple[str, str]]:
    """The prefixes and suffixes kept: the longest shared prefix, the longest shared suffix, and the
    prefix with the longest suffix shared by what it leaves (those not both empty)."""
    prefix = os.path.commonprefix(list(positives))
    suffix = _suffix(positives)
    after = _suffix([p[len(prefix) :] for p in positives])
    found = [(prefix, ""), ("", suffix), (prefix, after)]
    return list(dict.fromkeys(f for f in found if any(f)))


def _suffix(strings: Sequence[str]) -> str:
    return os.path.commonprefix([s[::-1] for s in strings])[::-1]


def prior_patterns(candidates: Sequence[tuple[DFA, str, Regex]], listed: DFA) -> list[tuple[DFA, str, Regex]]:
    """The ``candidates`` that are patterns of the prior (every run at its narrowest) and accept a
    string outside ``listed`` (the positives' own language)."""
    return [c for c in candidates if NARROWEST in c[1] and not only_listed(c[0], listed)]


def listing_last(candidates: Iterable[_C], examples: Sequence[Counterexample], listed: DFA | None) -> Iterator[_C]:
    """The ``candidates`` in order, except that those labeling every example right that accept no
    string outside ``listed`` (the positives' own language; None: no such candidate is moved) come
    after all others."""
    later = []
    for candidate in candidates:
        if listed is not None and not misclassified(candidate[0], examples) and only_listed(candidate[0], listed):
            later.append(candidate)
        else:
            yield candidate
    yield from later


def only_listed(dfa: DFA, listed: DFA) -> bool:
    """Whether ``dfa`` accepts no string outside ``listed`` (the positives' own language)."""
    return is_empty(difference(dfa, listed, state_limit=CHECK_STATE_LIMIT))
