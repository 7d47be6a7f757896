"""Witness rounds: merging again with a misclassified string of each example left out of the tree.

A clustered example that the prefix tree leaves out (read through one representative path, or
spelled past :data:`cegis.symbolic.merging.core.prefix_tree.MAX_SPELLED` words) is checked on each
merged automaton; when no merge order labels every example right, a misclassified string of each
missed example (its *witness*) is learned literally, as a plain example, in the next round. After
:data:`WITNESS_ROUNDS` such rounds, or once the tree passes :data:`MAX_WITNESS_NODES` nodes, the
misses are patched in as exceptions instead (:mod:`.patching`). Misses too many to patch
(:data:`cegis.symbolic.merging.families.listing.MAX_LISTING_STATES`) give witnesses still, and
below the node cap the reading goes on learning them, within the call's :data:`.agreeing.ROUNDS`:
a reading that ended there found nothing, and a learner call that proposes nothing spends the
epoch on random examples (issue 36: a StructuredRegex target lost five epochs so, and a run).

Each of the learner's readings (:data:`cegis.symbolic.merging.core.prefix_tree.TreeReading`) runs
its own witness rounds; with agreements to keep, a round learns the readings in the learner's order
and ends at the first with a candidate that keeps them (the representative reading, second, gave 15
of 462 proposals on every second StructuredRegex task under one shortest counterexample, seed 0,
and is not learned then). With agreements to keep, the rounds also learn the strings that candidates
breaking an agreement imply (:mod:`.agreeing`), and the witnesses share the call's
:data:`.agreeing.ROUNDS` with them."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import attrs

from cegis.symbolic.merging.candidate import Candidate
from cegis.symbolic.merging.core.prefix_tree import PrefixTree, TreeReading, extended, prefix_tree
from cegis.symbolic.merging.core.quotient import LabelConflict
from cegis.symbolic.merging.core.run_cache import RunCache
from cegis.symbolic.merging.rounds.agreeing import ROUNDS
from cegis.symbolic.merging.rounds.agreement import Agreements
from cegis.symbolic.merging.rounds.merges import merged
from cegis.symbolic.merging.settings import Settings
from oracle.examples import Counterexample, Example
from regexlang.charset import CharSet

#: Rounds of learning again with the witnesses of each clustered example left out of the prefix
#: tree, before a reading's misses are patched in as exceptions (their strings added or removed,
#: exactly); with agreements to keep, the witnesses share the call's :data:`.agreeing.ROUNDS` with
#: the implied strings instead. A reading keeps its witnesses when implied strings come: learning
#: them again in every agreement round would repeat the witness rounds for each.
WITNESS_ROUNDS = 8

#: Most prefix-tree nodes the witness rounds grow a tree to: the round whose tree passes it is the
#: last (its misses patched in). Past it each round learns thousands more literal strings and
#: merges for seconds; it sits above the largest tree a proposal came from on the held-out
#: benchmark, so the cap ends only rounds that would not be proposed.
MAX_WITNESS_NODES = 20_000


@attrs.frozen
class Consistent:
    """What the rounds of the merged candidates found: the automata that label every example right
    (keeping the agreements, unless the rounds ran out), how many implied examples they were
    learned from, the implied strings not known before (in the order found), and the problems."""

    candidates: tuple[Candidate, ...]
    implied_count: int
    learned: tuple[Example, ...]
    problems: tuple[str, ...]


@attrs.frozen(eq=False)
class ReadingRounds:
    """One reading across the rounds of :func:`consistent`: its witnesses so far, its prefix tree,
    the candidates it found last with the agreements each breaks (the strings that show it), the
    strings to learn next round, whether new strings are still to be learned, the rounds that
    learned witnesses, and the problems of its last round."""

    name: TreeReading
    witnesses: tuple[Example, ...] = ()
    tree: PrefixTree | None = None
    found: tuple[Candidate, ...] = ()
    broken: tuple[list[Example], ...] = ()
    missed: tuple[Example, ...] = ()
    stale: bool = True
    rounds: int = 0
    problems: tuple[str, ...] = ()

    def learn(
        self,
        examples: Sequence[Counterexample],
        universe: CharSet,
        learner: Settings,
        patching: int,
        earlier: Agreements,
        cache: RunCache,
    ) -> ReadingRounds:
        """Merge the tree of ``examples`` and the witnesses (the tree of the last round grown by the
        new witnesses, in the representative reading); when no merge order labels every example
        right, the misclassified strings become witnesses for the next round. A tree that cannot be
        built ends the reading (its problem noted). After ``patching`` rounds of witnesses, or past
        :data:`MAX_WITNESS_NODES` nodes, misses are patched in as exceptions instead."""
        try:
            tree = (
                extended(self.tree, self.missed, cache)
                if self.tree is not None and self.name == "representative"
                else None
            )
            tree = tree or prefix_tree(
                [*examples, *self.witnesses, *self.missed],
                universe,
                learner.granularity,
                self.name,
                cache,
            )
        except (ValueError, LabelConflict) as error:
            return attrs.evolve(
                self,
                found=(),
                broken=(),
                missed=(),
                stale=False,
                problems=(f"{self.name}: {error}",),
            )
        rounds = self.rounds + bool(self.missed)
        capped = tree.tree.nodes > MAX_WITNESS_NODES
        found = merged(tree, learner, rounds >= patching or capped, cache, bool(earlier.automata))
        missed = () if found.candidates or capped else found.witnesses
        return ReadingRounds(
            self.name,
            (*self.witnesses, *self.missed),
            tree,
            found.candidates,
            tuple(earlier.implied(candidate.automaton) for candidate in found.candidates),
            missed,
            bool(missed),
            rounds,
            found.problems,
        )


def consistent(
    view: Callable[[Sequence[Counterexample]], Sequence[Counterexample]],
    universe: CharSet,
    learner: Settings,
    earlier: Agreements,
    facts: Mapping[str, Example],
    cache: RunCache,
) -> Consistent:
    """The distinct DFAs that the learner's readings and merge orders find for the examples ``view``
    gives (with the implied ``facts`` and those found now) that label every example right and keep
    the ``earlier`` agreements, in rounds (:data:`.agreeing.ROUNDS`). The rounds stop at the first
    with such a DFA (without agreements, once every reading has learned its witnesses); with
    agreements, a round stops at the first reading, in the learner's order, that finds one; when
    nothing new is learned or the rounds are spent, the last DFAs that label every example right
    are the answer, though they break an agreement. The run's ``cache`` keeps what the next rounds
    and epochs would find again."""
    implied = dict(facts)
    learned: dict[str, Example] = {}
    problems: list[str] = []
    examples = view(list(implied.values()))
    readings = [ReadingRounds(name) for name in learner.readings]
    patching = (
        ROUNDS if earlier.automata else WITNESS_ROUNDS
    )  # rounds of witnesses before misses are patched in
    latest: list[Candidate] = []
    for round_ in range(ROUNDS + 1):
        found: list[Candidate] = []
        broken: list[list[Example]] = []
        for i, reading in enumerate(readings):
            last = round_ == ROUNDS
            if reading.stale or last:
                readings[i] = reading = reading.learn(
                    examples, universe, learner, 0 if last else patching, earlier, cache
                )
                problems += reading.problems
            found += [
                attrs.evolve(candidate, how=f"{candidate.how}, {reading.name}")
                for candidate in reading.found
            ]
            broken += reading.broken
            if earlier.automata and not all(
                broken
            ):  # a candidate keeps them: the later readings wait
                break
        if found:
            latest = found
        kept = [candidate for candidate, wrong in zip(found, broken) if not wrong]
        if kept and (earlier.automata or not any(reading.stale for reading in readings)):
            return Consistent(tuple(kept), len(implied), tuple(learned.values()), tuple(problems))
        new = {e.string: e for wrong in broken for e in wrong if e.string not in implied}
        if not new and not any(reading.stale for reading in readings):
            break
        learned.update(new)
        implied.update(new)
        if new:  # every reading learns them
            examples = view(list(implied.values()))
            readings = [attrs.evolve(reading, tree=None, stale=True) for reading in readings]
    return Consistent(tuple(latest), len(implied), tuple(learned.values()), tuple(problems))
