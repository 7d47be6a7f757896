"""What a hypothesis family reads, and what it must implement: the :class:`Family` protocol.

A family (:mod:`cegis.symbolic.merging.families`) is a function from :class:`Evidence` to
:class:`cegis.symbolic.merging.candidate.Found`. The evidence is the examples of a learner call as
given (plain strings, and clustered ones whose positions are the teacher's classes), the strings
that earlier hypotheses' agreements imply (:mod:`cegis.symbolic.merging.rounds.agreeing`), and what
most families read from them, each computed once however many families and rounds read it: the
positives and negatives as strings (a clustered example by its smallest string), the atoms of the
examples' character sets, and the classes the teacher showed, most often first.

A new family goes in ``families/<what it finds>.py`` with a ``candidates(evidence) -> Found``
function (spelled regexes compile through :func:`cegis.symbolic.merging.candidate.spelled`), and
joins a tuple of families in :mod:`cegis.symbolic.merging.gathering`; its candidates then compete
with every other on description length and are checked against every example there."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Protocol

import attrs

from cegis.symbolic.merging.candidate import Found
from cegis.symbolic.merging.core.run_cache import RunCache
from cegis.symbolic.merging.core.symbols import symbol_alphabet
from oracle.examples import ClusteredExample, Counterexample, Example
from regexlang.charset import CharSet


class Family(Protocol):
    """A hypothesis family: candidates (and the problems of hypotheses that did not compile) from
    the evidence. It proposes; the rounds check every candidate against every example."""

    def __call__(self, evidence: Evidence, /) -> Found: ...


@attrs.frozen(eq=False)
class Given:
    """The examples of a learner call over ``universe``, with what families read from them
    (:meth:`of` reads it once), and the run's cache (:class:`.core.run_cache.RunCache`) the
    families remember their work in."""

    examples: tuple[Counterexample, ...]
    universe: CharSet
    cache: RunCache
    positives: tuple[str, ...]
    negatives: tuple[str, ...]
    plain: tuple[tuple[str, ...], tuple[str, ...]]
    classes: tuple[CharSet, ...]
    shown: tuple[CharSet, ...]

    @classmethod
    def of(cls, examples: Sequence[Counterexample], universe: CharSet, cache: RunCache) -> Given:
        given = tuple(examples)
        shown: Counter[CharSet] = Counter()
        for example in given:
            if isinstance(example, ClusteredExample):
                shown.update(cache(_classes_shown, example))
        return cls(
            given,
            universe,
            cache,
            tuple(representative(e) for e in given if e.label),
            tuple(representative(e) for e in given if not e.label),
            (
                tuple(e.string for e in given if isinstance(e, Example) and e.label),
                tuple(e.string for e in given if isinstance(e, Example) and not e.label),
            ),
            symbol_alphabet(given, universe, "atoms", cache).classes,
            tuple(c for c, _ in shown.most_common()),
        )


@attrs.frozen(eq=False)
class Evidence:
    """What a family reads: the examples as given, and the examples agreements imply (plain strings
    whose labels follow from the teacher's contract, read like given ones)."""

    given: Given
    implied: tuple[Example, ...] = ()

    @classmethod
    def of(cls, examples: Sequence[Counterexample], universe: CharSet, cache: RunCache) -> Evidence:
        return cls(Given.of(examples, universe, cache))

    def implying(self, implied: Sequence[Example]) -> Evidence:
        """The same examples with ``implied`` (replacing those implied before)."""
        return Evidence(self.given, tuple(implied))

    @property
    def examples(self) -> tuple[Counterexample, ...]:
        """The examples as given (the implied ones apart)."""
        return self.given.examples

    @property
    def universe(self) -> CharSet:
        return self.given.universe

    @property
    def cache(self) -> RunCache:
        """The run's cache, for the work a family does again every round and epoch."""
        return self.given.cache

    @property
    def positives(self) -> list[str]:
        """Each positive as a string (a clustered one's smallest), the implied ones last."""
        return [*self.given.positives, *(e.string for e in self.implied if e.label)]

    @property
    def negatives(self) -> list[str]:
        """Each negative as a string (a clustered one's smallest), the implied ones last."""
        return [*self.given.negatives, *(e.string for e in self.implied if not e.label)]

    @property
    def plain(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The strings of the given plain examples (clustered and implied ones apart): positives,
        then negatives."""
        return self.given.plain

    @property
    def classes(self) -> tuple[CharSet, ...]:
        """The atoms of the given examples' character sets (the teacher's classes cut apart)."""
        return self.given.classes

    @property
    def shown(self) -> tuple[CharSet, ...]:
        """The classes of more than one character the teacher's clustered examples show, most
        often first."""
        return self.given.shown


def representative(example: Counterexample) -> str:
    """One string of ``example`` (a clustered one's smallest)."""
    return example.string if isinstance(example, Example) else example.representative()


def _classes_shown(example: ClusteredExample) -> tuple[CharSet, ...]:
    """The classes of more than one character at the positions of ``example``, each as often as
    it stands there (remembered: every epoch counts the same examples again)."""
    return tuple(p for p in example.positions if p and not p.is_single())  # no count of all
