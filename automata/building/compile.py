"""Regex AST → minimal DFA: the entry points of the automata layer.

The pipeline is the one of rust-lang/regex, one layer per module: choose the alphabet (the
character classes every set of the regexes induces, :mod:`automata.core.alphabet`), build a Thompson
NFA (:mod:`automata.building.nfa`), determinize it (:mod:`automata.building.determinize`) and minimize it
(:mod:`automata.core.minimize`). The result is canonical, so equal languages compiled over the same
alphabet give identical arrays.

Small regexes, the common case, take a shortcut with the same result (:mod:`automata.building.positions`):
a position automaton whose sets also give the alphabet, so the tree is walked once, then one small
kernel for subset construction and minimization. Anything it does not cover (assertions, more
positions than a bitset holds, large DFAs, a Thompson NFA that could pass ``state_limit``) falls
back to the pipeline above.

Regexes with lookarounds take their own path, derivatives over residuals and a context
(:mod:`automata.building.lookaround`). Intersection and complement nodes are compiled by recursion
into products and complements of the minimal DFAs of their parts (:mod:`automata.algebra.ops`) and
spliced back into the NFA. Complement is relative to the universe of the dialect. Assertions below
such a node would need the context the splice does not carry; no dialect can write that, so it is
rejected.

Regexes compared with each other should be compiled together (:func:`compile_many`) so their DFAs
share one alphabet; DFAs compiled apart are still combinable through :func:`automata.algebra.ops.align`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from automata.algebra import ops
from automata.building import assertions, listed, lookaround, positions
from automata.building.deadline import Deadline
from automata.building.determinize import determinize
from automata.building.nfa import thompson
from automata.core.alphabet import Alphabet, classes_of, partition_with_members
from automata.core.dfa import DFA
from automata.core.minimize import minimize
from automata.errors import DEFAULT_STATE_LIMIT, UnsupportedRegex
from regexlang.ast import (
    UNARY_TYPES,
    Assertion,
    AssertKind,
    Chars,
    Complement,
    Concat,
    Intersection,
    Regex,
    Union,
)
from regexlang.charset import CharSet
from regexlang.dialects import Dialect, parse, universe


def compile_regex(
    regex: Regex,
    universe: CharSet,
    *,
    extra_sets: Iterable[CharSet] = (),
    state_limit: int = DEFAULT_STATE_LIMIT,
    seconds: float | None = None,
) -> DFA:
    """The minimal complete DFA of ``regex`` over ``universe``.

    ``extra_sets`` are character sets the alphabet must keep apart (e.g. the sets of a regex this
    one will be compared with). Raises ``StateLimitExceeded`` past ``state_limit`` states, and
    ``TimeLimitExceeded`` when a lookaround construction runs past ``seconds`` (none by default).
    """
    return compile_many(
        [regex], universe, extra_sets=extra_sets, state_limit=state_limit, seconds=seconds
    )[0]


def compile_many(
    regexes: Sequence[Regex],
    universe: CharSet,
    *,
    extra_sets: Iterable[CharSet] = (),
    state_limit: int = DEFAULT_STATE_LIMIT,
    seconds: float | None = None,
) -> list[DFA]:
    """Minimal DFAs of ``regexes``, all over one shared alphabet, within ``state_limit`` states
    each and (for lookarounds, whose derivatives can grow at every state) ``seconds`` in all."""
    deadline = None if seconds is None else Deadline.after(seconds)
    given = tuple(extra_sets)
    extra = list(given)  # plus the sets no position reads (under a {0} repetition)
    built = []
    sets: list[CharSet] = []  # only character sets: nothing is spliced before the alphabet is known
    try:  # the small-regex path reads the alphabet's sets off the position automata
        for regex in regexes:
            automaton = positions.glushkov(regex, state_limit)
            built.append(automaton)
            sets.extend(
                what for what in automaton.reads.values() if isinstance(what, CharSet)
            )  # no splices yet
            extra.extend(automaton.unread)
    except positions.Fallback:
        alphabet, members = _alphabet(regexes, universe, given)
        return [_compile(regex, alphabet, members, state_limit, deadline) for regex in regexes]
    alphabet, classes = classes_of(universe, sets + extra if extra else sets)
    dfas = []
    start = 0
    for regex, automaton in zip(regexes, built):
        groups = len(automaton.reads)
        try:
            dfas.append(
                positions.minimal_dfa(
                    automaton, alphabet, classes[start : start + groups], state_limit
                )
            )
        except positions.Fallback:  # too many DFA states for the small kernel
            dfas.append(_compile(regex, alphabet, dict(zip(sets, classes)), state_limit, deadline))
        start += groups
    return dfas


def from_text(
    text: str,
    dialect: Dialect,
    *,
    alphabet: CharSet | None = None,
    extra_sets: Iterable[CharSet] = (),
    state_limit: int = DEFAULT_STATE_LIMIT,
    seconds: float | None = None,
) -> DFA:
    """Parse ``text`` in ``dialect`` and compile it over the dialect's universe (or ``alphabet``)."""
    sigma = universe(dialect) if alphabet is None else alphabet
    return compile_regex(
        parse(text, dialect, sigma),
        sigma,
        extra_sets=extra_sets,
        state_limit=state_limit,
        seconds=seconds,
    )


def alphabet_of(
    regexes: Iterable[Regex], universe: CharSet, *, extra_sets: Iterable[CharSet] = ()
) -> Alphabet:
    """The alphabet :func:`compile_many` would use for ``regexes``."""
    return _alphabet(regexes, universe, extra_sets)[0]


def _alphabet(
    regexes: Iterable[Regex], universe: CharSet, extra_sets: Iterable[CharSet]
) -> tuple[Alphabet, Mapping[CharSet, tuple[int, ...]]]:
    sets: set[CharSet] = set(extra_sets)
    kinds: set[AssertKind] = set()
    for regex in regexes:
        _collect(regex, sets, kinds)
    sets.update(assertions.required_sets(kinds))
    return partition_with_members(universe, sets)


def _collect(regex: Regex, sets: set[CharSet], kinds: set[AssertKind]) -> None:
    # Exact type tests instead of ``children()``: this walk runs on every compile.
    stack = [regex]
    while stack:
        node = stack.pop()
        if type(node) is Chars:
            sets.add(node.chars)
        elif type(node) is Concat or type(node) is Intersection:
            stack.extend(node.parts)
        elif type(node) is Union:
            stack.extend(node.options)
        elif type(node) is Assertion:
            kinds.add(node.kind)
        elif isinstance(node, UNARY_TYPES):
            stack.append(node.inner)


def _compile(
    regex: Regex,
    alphabet: Alphabet,
    members: Mapping[CharSet, tuple[int, ...]],
    state_limit: int,
    deadline: Deadline | None,
) -> DFA:
    def nested(node: Intersection | Complement) -> DFA:
        parts = node.parts if isinstance(node, Intersection) else (node.inner,)
        dfas = []
        for part in parts:
            found: set[AssertKind] = set()
            _collect(part, set(), found)
            if found:
                raise UnsupportedRegex(
                    "zero-width assertions inside intersection or complement are not supported"
                )
            dfas.append(_compile(part, alphabet, members, state_limit, deadline))
        if isinstance(node, Complement):
            return ops.complement(dfas[0])
        result = dfas[0]
        for dfa in dfas[1:]:
            result = ops.intersection(result, dfa, state_limit=state_limit)
        return result

    if lookaround.has_lookaround(regex):
        return lookaround.compile_lookarounds(regex, alphabet, members, state_limit, deadline)
    if isinstance(regex, (Intersection, Complement)):
        return nested(regex)
    try:
        built = positions.glushkov(regex, state_limit, nested)
        return positions.minimal_dfa(
            built, alphabet, positions.classes_read(built, members), state_limit
        )
    except positions.Fallback:
        strings = listed.literals(regex)  # the positives listed: their trie is the DFA
        if strings is not None and listed.fits(strings, state_limit):
            return listed.trie(strings, alphabet)
        nfa = thompson(regex, alphabet, members, nested, state_limit=state_limit)
        return minimize(determinize(nfa, state_limit=state_limit))
