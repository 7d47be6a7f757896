"""One call from labeled strings to a regex for an engine: ``learn_regex(positives, negatives)``.

The symbolic learner reads plain strings through its class prior (digits, letters, hex digits, …)
and proposes the regex of the shortest description consistent with every example; when it finds
none, the positives listed as alternatives are the answer. The result is printed for the engine
the caller names (:mod:`regexlang.flavors`); an answer with ``&`` or ``~`` is printed through its
automaton's regex, or with lookaheads when the engine has them and that is shorter. Synchronous: no event loop for the caller."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import attrs

from automata.algebra.ops import equivalent
from automata.building.compile import compile_regex
from automata.core.dfa import DFA
from automata.core.minimize import minimize
from automata.printing.lookahead_print import lookahead_prints
from automata.printing.readable import readable
from cegis.gc_pause import settle
from oracle.clustered import misclassified
from oracle.examples import Example
from regexlang.ast import Regex, text, union
from regexlang.charset import UNICODE, CharSet
from regexlang.dialects import parse
from regexlang.errors import NotExpressible
from regexlang.flavors import LOOKAROUND_FLAVORS, Anchoring, Flavor, render
from regexlang.metrics import node_count

#: States the learned regex may compile to when it is checked and printed.
STATE_LIMIT = 20_000
#: Prints this short are kept as they are (lookaheads would save little and cost a search).
LOOKAHEAD_WORTH = 30

if TYPE_CHECKING:
    from cegis.symbolic.merging import MergingLearner


class ContradictoryExamples(ValueError):
    """A string given both as a positive and as a negative example."""


@attrs.frozen
class LearnedRegex:
    """A learned regex: its text for the engine, whether it labels every example as given, its
    size in nodes, and whether it is only a guess (no negative examples)."""

    regex: str
    consistent: bool
    size: int
    guess: bool
    tree: Regex = attrs.field(repr=False)
    reasoning: str = attrs.field(default="", repr=False)


def learn_regex(
    positives: Iterable[str],
    negatives: Iterable[str] = (),
    *,
    flavor: Flavor = "python",
    anchored: Anchoring | None = None,
    universe: CharSet = UNICODE,
) -> LearnedRegex:
    """A regex accepting every positive and no negative, printed for ``flavor`` (anchored for a
    search call when ``anchored`` says so; default: what the flavour's usual call needs).
    ``ContradictoryExamples`` when a string is in both lists."""

    wanted = list(dict.fromkeys(positives))
    unwanted = list(dict.fromkeys(negatives))
    both = set(wanted) & set(unwanted)
    if both:
        raise ContradictoryExamples(
            f"{sorted(both)[0]!r} is both a positive and a negative example"
        )
    examples = [Example(s, True) for s in wanted] + [Example(s, False) for s in unwanted]
    settle()  # what earlier calls left is not walked again by every collection
    proposal = from_examples().learn(examples, "python", universe)
    tree = proposal.regex if proposal.regex is not None else union(*map(text, wanted))
    dfa = minimize(compile_regex(tree, universe, state_limit=STATE_LIMIT))
    consistent = not misclassified(dfa, examples)
    printed = printed_for(tree, flavor, anchored, universe)
    return LearnedRegex(
        printed, consistent, node_count(tree), not unwanted, tree, proposal.reasoning
    )


def from_examples() -> MergingLearner:
    """The symbolic learner as it answers from given strings: never longer than the positives listed."""
    from cegis.symbolic.merging import symbolic  # the learner loads numba kernels: only when used

    return attrs.evolve(symbolic(), listing_cap=True)


def printed_for(
    tree: Regex, flavor: Flavor, anchored: Anchoring | None = None, universe: CharSet = UNICODE
) -> str:
    """``tree`` printed for ``flavor`` (:func:`regexlang.flavors.render`); with ``&`` or ``~``, or
    anything else the flavour cannot write, the regex of its automaton instead (``NotExpressible``
    when even that cannot be written, e.g. the empty language in POSIX). Flavours with lookarounds
    get the language written with lookaheads instead when that is shorter and reads back exactly
    (:mod:`automata.printing.lookahead_print`)."""
    try:
        printed = render(tree, flavor, anchored, universe)
    except NotExpressible:
        dfa = minimize(compile_regex(tree, universe, state_limit=STATE_LIMIT))
        printed = render(readable(dfa, size_limit=STATE_LIMIT), flavor, anchored, universe)
    if flavor not in LOOKAROUND_FLAVORS or len(printed) <= LOOKAHEAD_WORTH:
        return printed
    dfa = minimize(compile_regex(tree, universe, state_limit=STATE_LIMIT))
    for candidate in lookahead_prints(dfa, tree):
        text = render(candidate, flavor, anchored, universe)
        if len(text) < len(printed) and _reads_back(candidate, dfa, universe):
            printed = text
    return printed


def _reads_back(candidate: Regex, dfa: DFA, universe: CharSet) -> bool:
    """Whether ``candidate``'s python text, parsed and compiled again, has ``dfa``'s language (the
    tree was checked; this checks its spelling, e.g. that ``.`` leaves out no character in play)."""
    text = render(candidate, "python", "fullmatch", universe)
    return equivalent(
        dfa, compile_regex(parse(text, "python", universe), universe, state_limit=STATE_LIMIT)
    )
