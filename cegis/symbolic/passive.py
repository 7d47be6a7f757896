"""One call from labeled strings to a regex for an engine: ``learn_regex(positives, negatives)``.

The symbolic learner reads plain strings through its class prior (digits, letters, hex digits, …)
and proposes the regex of the shortest description consistent with every example; when it finds
none, the positives listed as alternatives are the answer. The result is printed for the engine
the caller names (:mod:`regexlang.flavors`); an answer with ``&`` or ``~`` is printed through its
automaton's regex, or with lookaheads when the engine has them and that is shorter. For an engine
that backtracks, a print that is not linear is replaced by its safe form when one is found
(:func:`pasteable`, :mod:`cegis.redos_check`). An answer that
only lists its positives carries a hint: the pattern the fewest negatives block, those
negatives, and the positives alone in their shape, of which more would help. Synchronous: no
event loop for the caller."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import attrs

from automata.algebra.ops import equivalent
from automata.building.compile import compile_regex
from automata.core.dfa import DFA
from automata.core.minimize import minimize
from automata.errors import StateLimitExceeded
from automata.printing.lookahead_print import lookahead_prints
from automata.printing.readable import readable
from automata.redos import Verdict
from cegis.errors import ContradictoryExamples as ContradictoryExamples
from cegis.gc_pause import settle
from cegis.generalization import generalizes, sized_limit
from cegis.redos_check import Printed, Printing, checked
from oracle.clustered import misclassified
from oracle.examples import Example
from regexlang.ast import (
    Complement,
    Concat,
    Epsilon,
    Intersection,
    Optional,
    Plus,
    Regex,
    Repeat,
    Star,
    Union,
    concat,
    intersection,
    text,
    union,
)
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


@attrs.frozen
class LearnedRegex:
    """A learned regex: its text for the engine, whether it labels every example as given, its
    size in nodes, whether it is only a guess (no negative examples), and the ReDoS verdict of
    the text on the engine (None for RE2 and POSIX, which do not backtrack); ``plain``: the print
    as written when ``regex`` is its safe form (None otherwise)."""

    regex: str
    consistent: bool
    size: int
    guess: bool
    tree: Regex = attrs.field(repr=False)
    reasoning: str = attrs.field(default="", repr=False)
    hint: str = ""  # when the answer only lists its positives: what blocks a pattern, what helps
    redos: Verdict | None = None
    plain: str | None = None


def learn_regex(
    positives: Iterable[str],
    negatives: Iterable[str] = (),
    *,
    flavor: Flavor = "python",
    anchored: Anchoring | None = None,
    universe: CharSet = UNICODE,
    printing: Printing = "safe",
) -> LearnedRegex:
    """A regex accepting every positive and no negative, printed for ``flavor`` (anchored for a
    search call when ``anchored`` says so; default: what the flavour's usual call needs), in its
    safe form unless ``printing="plain"`` (:func:`pasteable`). ``ContradictoryExamples`` when a
    string is in both lists."""

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
    hint = "" if generalizes(tree, wanted, universe) else listing_hint(wanted, unwanted, universe)
    dfa = minimize(compile_regex(tree, universe, state_limit=sized_limit(wanted + unwanted)))
    consistent = not misclassified(dfa, examples)
    printed = pasteable(tree, flavor, anchored, universe, printing)
    return LearnedRegex(
        printed.text,
        consistent,
        node_count(tree),
        not unwanted,
        tree,
        proposal.reasoning,
        hint,
        printed.verdict,
        None if printed.plain is None else printed.plain.text,
    )


#: Most negatives a hint names.
MOST_NAMED = 3


def listing_hint(positives: Sequence[str], negatives: Sequence[str], universe: CharSet) -> str:
    """When an answer only lists its positives: the class-and-count pattern of the prior that
    accepts more than the positives and the fewest negatives
    (:mod:`cegis.symbolic.merging.families.shapes`), the negatives that block it, and what would
    help: dropping those negatives, or more positives of the shapes shown once (named); without
    such a pattern, that the positives share none and which shapes need more positives."""
    from cegis.symbolic.merging.families.shapes import shape_hypotheses

    wanted, unwanted = list(dict.fromkeys(positives)), list(dict.fromkeys(negatives))
    best: tuple[int, str, list[str]] | None = None
    for template in shape_hypotheses(wanted, unwanted, universe):
        if not template.narrowest or not generalizes(template.regex, wanted, universe):
            continue
        pattern = render(template.regex, "python", "fullmatch", universe)
        blocking = [n for n in unwanted if re.fullmatch(pattern, n)]
        if best is None or len(blocking) < best[0]:
            best = (len(blocking), pattern, blocking)
    lone = _shown_once(wanted)
    more = (
        f"more positives like {_named(lone)} (each the only one of its shape)"
        if lone
        else "more positives of each shape"
    )
    if best is None:
        return (
            "no pattern of classes and counts fits the positives but their list; add "
            f"{more}, so one can be read from them"
        )
    if not best[2]:
        return ""
    _, pattern, blocking = best
    return (
        f"the pattern {pattern} fits the positives but accepts the negatives {_named(blocking)}; "
        f"if those should match, drop them from the negatives, else add {more}, so a narrower "
        "pattern can tell them apart"
    )


def _named(strings: Sequence[str]) -> str:
    """Up to :data:`MOST_NAMED` of ``strings``, quoted, with an ellipsis for the rest."""
    return ", ".join(map(repr, strings[:MOST_NAMED])) + (" …" if len(strings) > MOST_NAMED else "")


def _shown_once(positives: Sequence[str]) -> list[str]:
    """The positives alone in their shape (runs of digits, lower and upper case letters between
    the same separators: ``12px`` and ``3rem`` share one)."""
    from cegis.symbolic.merging.families.templates import cut_runs

    shapes: dict[tuple[object, ...], list[str]] = {}
    for p in positives:
        skeleton, before, _, after = cut_runs(p, "class")
        shapes.setdefault((before, skeleton, after), []).append(p)
    return [group[0] for group in shapes.values() if len(group) == 1]


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
    (:mod:`automata.printing.lookahead_print`), unless its automaton has more than
    :data:`STATE_LIMIT` states (the positives of long lines listed)."""
    tree = without_empty_parts(tree)
    try:
        printed = render(tree, flavor, anchored, universe)
    except NotExpressible:
        dfa = minimize(compile_regex(tree, universe, state_limit=STATE_LIMIT))
        printed = render(readable(dfa, size_limit=STATE_LIMIT), flavor, anchored, universe)
    if flavor not in LOOKAROUND_FLAVORS or len(printed) <= LOOKAHEAD_WORTH:
        return printed
    try:
        dfa = minimize(compile_regex(tree, universe, state_limit=STATE_LIMIT))
    except StateLimitExceeded:
        return printed
    longest = len(printed)

    def shorter(candidate: Regex) -> bool:
        try:
            return len(render(candidate, flavor, anchored, universe)) < longest
        except NotExpressible:
            return True  # checked first, as every proposal

    for candidate in lookahead_prints(dfa, tree, shorter):
        text = render(candidate, flavor, anchored, universe)
        if len(text) < len(printed) and _reads_back(candidate, dfa, universe):
            printed = text
    return printed


def pasteable(
    tree: Regex,
    flavor: Flavor,
    anchored: Anchoring | None = None,
    universe: CharSet = UNICODE,
    printing: Printing = "safe",
) -> Printed:
    """What a user pastes into ``flavor``'s engine for ``tree``: :func:`printed_for`, replaced by
    its safe form when that print is not linear and ``printing`` is ``safe``, with its ReDoS
    verdict (:func:`cegis.redos_check.checked`). ``NotExpressible`` as :func:`printed_for`."""
    return checked(
        tree, printed_for(tree, flavor, anchored, universe), flavor, anchored, universe, printing
    )


def without_empty_parts(tree: Regex) -> Regex:
    """``tree`` with the empty strings inside its concatenations dropped: a family that joins an
    empty prefix or field to a template would otherwise print an empty group ``(?:)``."""
    match tree:
        case Concat(parts):
            return concat(*(without_empty_parts(p) for p in parts if p != Epsilon()))
        case Union(options):
            return union(*map(without_empty_parts, options))
        case Intersection(parts):
            return intersection(*map(without_empty_parts, parts))
        case Star(inner) | Plus(inner) | Optional(inner) | Complement(inner) | Repeat(inner):
            return attrs.evolve(tree, inner=without_empty_parts(inner))
    return tree


def _reads_back(candidate: Regex, dfa: DFA, universe: CharSet) -> bool:
    """Whether ``candidate``'s python text, parsed and compiled again, has ``dfa``'s language (the
    tree was checked; this checks its spelling, e.g. that ``.`` leaves out no character in play)."""
    text = render(candidate, "python", "fullmatch", universe)
    return equivalent(
        dfa, compile_regex(parse(text, "python", universe), universe, state_limit=STATE_LIMIT)
    )
