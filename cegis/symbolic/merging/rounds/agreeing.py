"""Agreement rounds: candidates made again with the strings the earlier hypotheses' agreements imply.

With a teacher of shortest counterexamples, a candidate that breaks an agreement
(:mod:`.agreement`) is refuted by the shortest string where it does, labeled as the agreement
says: a fact about the target, asked of no one. A round adds those strings to the examples and
makes the candidates again, until no candidate breaks an agreement with a string not yet known, or
:data:`ROUNDS` are done. The spelled families run in these rounds alone; the merged candidates run
them interleaved with their witness rounds (:mod:`.witnesses`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import attrs

from cegis.symbolic.merging.candidate import Candidate, Found
from cegis.symbolic.merging.rounds.agreement import Agreements
from oracle.examples import Example

#: Rounds of learning again with new strings in one learner call, before the last candidates are
#: proposed as they are: enough for the strings a few broken agreements imply to settle, few
#: enough that a call whose candidates keep breaking them still ends in time.
ROUNDS = 16


@attrs.frozen
class Agreed:
    """What the agreement rounds found: every round's candidates that keep the agreements (in
    order), the strings they implied that were not known before (in the order found), and the
    problems of the hypotheses that did not compile."""

    kept: tuple[Candidate, ...]
    learned: tuple[Example, ...]
    problems: tuple[str, ...]


def agreeing(
    generate: Callable[[Sequence[Example]], Found],
    earlier: Agreements,
    facts: Mapping[str, Example],
) -> Agreed:
    """Rounds of candidates that ``generate`` makes from the examples the agreements imply,
    starting with ``facts`` (those implied before): each round adds, for every candidate that
    breaks an agreement, the shortest string where it does (labeled as the earlier hypothesis
    labels it), until no string is new or :data:`ROUNDS` are done."""
    implied = dict(facts)
    kept: list[Candidate] = []
    learned: dict[str, Example] = {}
    problems: list[str] = []
    for _ in range(ROUNDS + 1):
        found = generate(list(implied.values()))
        problems += found.problems
        broken = [earlier.implied(candidate.automaton) for candidate in found.candidates]
        more = {e.string: e for wrong in broken for e in wrong if e.string not in implied}
        learned.update(more)
        kept += [candidate for candidate, wrong in zip(found.candidates, broken) if not wrong]
        if not more:
            break
        implied.update(more)
    return Agreed(tuple(kept), tuple(learned.values()), tuple(problems))
