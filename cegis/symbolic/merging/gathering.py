"""One learner call: the candidates of every family, gathered, then the choice among them.

The merged candidates come from the witness rounds (:mod:`.rounds.witnesses`) over each reading
of the examples: as they are, or, for plain examples (``class_prior``), read through the prior's
classes and through the classes they ask for. Templates of plain examples that fit every example
spare the merging (the slow part). An augmented learner adds the listing families and the spelled
families (shared factors, anchored rules, subsequences) in agreement rounds
(:mod:`.rounds.agreeing`). The examples agreements imply are facts about the target: every round
adds those it found to the call's facts, which the learner's memo carries to the next epoch. The
candidates, in the order gathered (ties in description length keep it), go to
:func:`.rounds.selection.proposed` with the call's :class:`.rounds.selection.SelectionPolicy`. The
work that repeats from round to round and epoch to epoch is remembered in the run's cache
(:class:`.core.run_cache.RunCache`), which the learner's memo carries."""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from cegis.learner import Proposal
from cegis.symbolic.merging.candidate import Candidate, Found, check_state_limit
from cegis.symbolic.merging.core.run_cache import RunCache
from cegis.symbolic.merging.evidence import Evidence, Family
from cegis.symbolic.merging.families import (
    anchored,
    factors,
    fields,
    listing,
    records,
    separated,
    shapes,
    subsequence,
    templates,
)
from cegis.symbolic.merging.families.classes import read_classes
from cegis.symbolic.merging.families.prior import lifted
from cegis.symbolic.merging.rounds.agreeing import agreeing
from cegis.symbolic.merging.rounds.agreement import Agreement, Agreements
from cegis.symbolic.merging.rounds.selection import (
    SelectionPolicy,
    proposed,
    refuted_automaton,
)
from cegis.symbolic.merging.rounds.witnesses import consistent
from cegis.symbolic.merging.settings import Settings
from oracle.clustered import misclassified
from oracle.examples import ClusteredExample, Counterexample, Example
from regexlang.ast import Regex
from regexlang.charset import CharSet
from regexlang.dialects import Dialect

#: Most positives for which the spelled families are made beside templates that fit: over
#: hundreds of positives they take seconds, and where a template fits they never won (bench examples).
MOST_SPELLED_POSITIVES = 64

#: The families of templates of plain examples: in the loop, and (with the learner's
#: ``listing_cap``) of strings given up front: their shapes, templates along a repeated separator,
#: a head then a free-text field, and records of fields.
TEMPLATES: tuple[Family, ...] = (templates.candidates,)
GIVEN: tuple[Family, ...] = (
    shapes.candidates,
    separated.candidates,
    fields.candidates,
    records.candidates,
)

#: The spelled families made again in agreement rounds with the strings the others imply.
SPELLED: tuple[Family, ...] = (factors.candidates, anchored.candidates, subsequence.candidates)


def learn(
    examples: Sequence[Counterexample],
    dialect: Dialect,
    universe: CharSet,
    learner: Settings,
    agreements: Sequence[Agreement],
    facts: Sequence[Example],
    draft: bool,
    cache: RunCache,
    refuted: Regex | None = None,
) -> tuple[Proposal, tuple[Example, ...]]:
    """The proposal for ``examples`` (a typed failure when no candidate prints right), and the
    implied examples known after the call: ``facts`` (those implied before), then those found now.
    The run's ``cache`` remembers the work later calls would do again."""
    known = {e.string: e for e in facts}
    earlier = Agreements.compile(agreements, dialect, universe, check_state_limit(), cache)
    written = learner.class_prior and not any(isinstance(e, ClusteredExample) for e in examples)
    evidence = Evidence.of(examples, universe, cache)
    problems: list[str] = []
    fitting: list[Candidate] = []
    if (
        written
    ):  # templates that fit compete with the other families, and spare the merging (the slow part)
        found = _found(GIVEN if learner.listing_cap else TEMPLATES, evidence)
        problems += found.problems
        fitting = [c for c in found.candidates if not misclassified(c.automaton, examples)]
        fitting = [c for c in fitting if not earlier.implied(c.automaton)]
    candidates = list(fitting)

    def read(more: Sequence[Counterexample]) -> Sequence[Counterexample]:
        return lifted([*examples, *more], universe) if written else [*examples, *more]

    def plain(more: Sequence[Counterexample]) -> Sequence[Counterexample]:
        return [*examples, *more]

    def classed(more: Sequence[Counterexample]) -> Sequence[Counterexample]:
        return read_classes([*examples, *more], universe, cache)

    if not candidates:  # merged through the prior and through the classes the examples ask for
        for view in (read, classed) if written else (plain,):
            merged = consistent(view, universe, learner, earlier, known, cache)
            problems += merged.problems
            known.update((e.string, e) for e in merged.learned)
            suffix = f", {merged.implied_count} implied examples" if merged.implied_count else ""
            candidates += [attrs.evolve(c, how=c.how + suffix) for c in merged.candidates]
        if written and learner.augmented:
            found = _kept(listing.positives(Evidence.of(read(()), universe, cache)), earlier)
            problems += found.problems
            candidates += [
                attrs.evolve(c, how=f"{c.how}, read through classes") for c in found.candidates
            ]
            found = _kept(
                listing.all_but_negatives(Evidence.of(classed(()), universe, cache)), earlier
            )
            problems += found.problems
            candidates += found.candidates
    if learner.augmented:
        found = _kept(listing.positives(evidence), earlier)
        problems += found.problems
        candidates += found.candidates
        if not fitting or sum(e.label for e in examples) <= MOST_SPELLED_POSITIVES:
            agreed = agreeing(
                lambda implied: _found(SPELLED, evidence.implying(implied)), earlier, known
            )
            problems += agreed.problems
            known.update((e.string, e) for e in agreed.learned)
            candidates += {
                c.regex: c for c in agreed.kept
            }.values()  # each spelling once: the last made, where it came first
    policy = SelectionPolicy.of(
        learner,
        examples,
        written=written,
        earlier=earlier if agreements else None,
        draft=draft,
        refuted=refuted_automaton(refuted, universe, cache),
    )
    proposal = proposed(
        candidates, examples, dialect, universe, policy, cache, problems=problems, prior=fitting
    )
    return proposal, tuple(known.values())


def _found(families: Sequence[Family], evidence: Evidence) -> Found:
    """What ``families`` find in ``evidence``, in order."""
    found = Found()
    for family in families:
        found += family(evidence)
    return found


def _kept(found: Found, earlier: Agreements) -> Found:
    """``found`` without the candidates that break an ``earlier`` agreement."""
    return attrs.evolve(
        found, candidates=tuple(c for c in found.candidates if not earlier.implied(c.automaton))
    )
