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
(marked :attr:`.candidate.Candidate.prior_pattern`): when one of them labels every example right
and accepts more than the positives (:func:`.listing.only_listed`), some pattern of the prior is consistent, and an answer
that only lists the positives is passed over whatever its length
(:func:`cegis.symbolic.merging.rounds.selection.proposed`). A single positive, or positives that
differ only where no class is counted, have no such pattern. Only for strings given up front: in
the learning loop a teacher's counterexamples correct a template that is too general, and the
templates of :data:`.templates.CUTS` are enough (KB13's runs spent half again as long on the other
shapes, which never fit its targets)."""

from __future__ import annotations

import os
from collections.abc import Sequence

import attrs

from automata.algebra.ops import accepts_many
from cegis.symbolic.merging.candidate import Found, automaton_of, spelled
from cegis.symbolic.merging.evidence import Evidence
from cegis.symbolic.merging.families.listing import only_listed
from cegis.symbolic.merging.families.templates import Cut, Template, template_hypotheses
from regexlang.ast import Regex, concat, union
from regexlang.ast import text as text_regex
from regexlang.charset import CharSet

#: The cuts tried first; the whole string as one run only when none of these has a consistent
#: pattern of the prior (its class is the characters shown: ``[-0-9]{5,}`` for ZIP codes).
FIRST_CUTS: tuple[Cut, ...] = ("word", "class", "letters")


def candidates(evidence: Evidence) -> Found:
    """The shapes of the plain examples, compiled: the family of shapes
    (:class:`cegis.symbolic.merging.evidence.Family`)."""
    positives, negatives = evidence.plain
    shapes = shape_hypotheses(positives, negatives, evidence.universe)
    found = spelled([(t.regex, t.how) for t in shapes], evidence.universe, "shapes")
    patterns = {t.regex for t in shapes if t.narrowest}
    return attrs.evolve(
        found,
        candidates=tuple(
            attrs.evolve(c, prior_pattern=c.regex in patterns) for c in found.candidates
        ),
    )


def shape_hypotheses(
    positives: Sequence[str], negatives: Sequence[str], universe: CharSet
) -> list[Template]:
    """The templates of the :data:`FIRST_CUTS` of the positives as they are (distinct regexes);
    unless the narrowest of a cut that gives every positive one skeleton is consistent, with the
    shared prefix, suffix, or both kept literal too; and unless some pattern of the prior is
    consistent by then, those of the whole string as one run too. The later ones are guesses where
    negatives do not ask for them: log lines of one century share ``20``, which a person still
    writes as ``[0-9]{4}``; a ZIP code is ``[0-9]{5}(?:-[0-9]{4})?``, not ``[-0-9]{5,}``."""
    if not positives:
        return []
    out = _shapes(positives, negatives, universe, [("", "")], FIRST_CUTS)
    if not any(
        t.narrowest and t.skeletons == 1 and _consistent(t.regex, positives, negatives, universe)
        for t in out.values()
    ):
        out |= _shapes(positives, negatives, universe, _affixes(positives), FIRST_CUTS)
    if not any(
        t.narrowest and _consistent(t.regex, positives, negatives, universe) for t in out.values()
    ):
        out |= _shapes(positives, negatives, universe, [("", ""), *_affixes(positives)], ("whole",))
    return list(out.values())


def _consistent(
    regex: Regex, positives: Sequence[str], negatives: Sequence[str], universe: CharSet
) -> bool:
    """Whether ``regex`` (which accepts every positive) accepts no negative and some other string."""
    dfa = automaton_of(regex, universe)
    own = automaton_of(union(*map(text_regex, positives)), universe)
    return not accepts_many(dfa, negatives).any() and not only_listed(dfa, own)


def _shapes(
    positives: Sequence[str],
    negatives: Sequence[str],
    universe: CharSet,
    affixes: Sequence[tuple[str, str]],
    cuts: Sequence[Cut],
) -> dict[Regex, Template]:
    """The templates of the ``cuts``, with every run at its narrowest too, with each prefix and
    suffix of ``affixes`` kept."""
    out: dict[Regex, Template] = {}
    for prefix, suffix in affixes:
        ends = len(prefix) + len(suffix)
        core = [p[len(prefix) : len(p) - len(suffix)] for p in positives]
        against = [
            n[len(prefix) : len(n) - len(suffix)]
            for n in negatives
            if len(n) >= ends and n.startswith(prefix) and n.endswith(suffix)
        ]
        kept = f", {prefix!r} and {suffix!r} kept" if ends else ""
        for cut in cuts:
            for t in template_hypotheses(core, against, universe, cut, narrowest=True):
                regex = concat(
                    *(text_regex(a) for a in (prefix,) if a),
                    t.regex,
                    *(text_regex(a) for a in (suffix,) if a),
                )
                out.setdefault(regex, attrs.evolve(t, regex=regex, how=t.how + kept))
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
