"""A regex syntax as a token automaton, unrolled into a grammar whose sentences fit a byte budget.

A server that constrains decoding to a grammar still stops at the completion budget: a grammar
that admits long regexes lets a small model write ``a****…`` or copy its data until the budget
cuts the reply mid-regex, and a cut reply is no answer at all. GBNF cannot say "at most *n*
characters" of a context-free language, but a regex nested at most :data:`MAX_DEPTH` deep is a
regular language, so its syntax is a finite automaton over tokens (a symbol, ``(``, ``*``, ``{2,3}``
...) with a nesting counter. Unrolling that automaton over the bytes left gives a right-linear
grammar (one rule per local state, depth and bytes left) whose every sentence fits the budget,
and whose every rule can still be completed in the bytes it has left: a token is offered only if
a shortest way to close the open groups and end the regex fits after it. So decoding can never
reach a point where the answer cannot be finished before the budget, and the server keeps one
parse state per token, as the grammar is deterministic up to a token's optional trailing space.

Token lengths are counted in UTF-8 bytes: a byte-level tokenizer never spends more tokens on a
text than it has bytes, so a reply of *n* bytes fits a budget of *n* tokens.
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from cegis.llm.grammar import Alt, Chars, Expr, Lit, Ref, Seq
from regexlang.charset import CharSet

#: The deepest nesting of groups (and classes) a bounded regex may have.
MAX_DEPTH = 3


@attrs.frozen
class Step:
    """From a local state, write ``token`` (``size`` bytes) and go to local state ``to``;
    ``nest`` is +1 for a token that opens a group, -1 for one that closes it."""

    token: Expr
    size: int
    to: str
    nest: int = 0


def _steps(steps: Mapping[str, tuple[Step, ...]]) -> dict[str, tuple[Step, ...]]:
    return dict(steps)


@attrs.frozen
class TokenAutomaton:
    """A regex syntax: the steps of each local state (lowercase letters, as they name rules), the
    state a regex starts in, and the states it may end in when no group is open."""

    steps: Mapping[str, tuple[Step, ...]] = attrs.field(converter=_steps)
    start: str
    finals: frozenset[str]

    def __attrs_post_init__(self) -> None:
        for name, steps in self.steps.items():
            if not name.isalpha() or not name.islower():
                raise ValueError(f"a local state is named with lowercase letters: {name!r}")
            unknown = [step.to for step in steps if step.to not in self.steps]
            if unknown:
                raise ValueError(f"state {name!r} steps to unknown state {unknown[0]!r}")


def shortest_ends(automaton: TokenAutomaton, depth: int = MAX_DEPTH) -> dict[tuple[str, int], int]:
    """For each (local state, open groups) from which the regex can end: the fewest bytes that end
    it (Bellman-Ford over a graph of at most a few hundred nodes)."""
    need = {(final, 0): 0 for final in automaton.finals}
    changed = True
    while changed:
        changed = False
        for state, steps in automaton.steps.items():
            for level in range(depth + 1):
                for step in steps:
                    after = need.get((step.to, level + step.nest))
                    if after is None or not 0 <= level + step.nest <= depth:
                        continue
                    if after + step.size < need.get((state, level), after + step.size + 1):
                        need[(state, level)] = after + step.size
                        changed = True
    return need


def unrolled(automaton: TokenAutomaton, budget: int, entry: str) -> dict[str, Expr]:
    """The rules of every regex of ``automaton`` of at most ``budget`` bytes nested at most
    :data:`MAX_DEPTH` deep: the rule ``entry`` matches one such regex, and the others are named by
    local state, depth, ``-`` and bytes left (``e0-35``). Raises ``ValueError`` when none fits."""
    need = shortest_ends(automaton)
    start = (automaton.start, 0, budget)
    if need.get(start[:2], budget + 1) > budget:
        raise ValueError(f"no regex fits in {budget} bytes")

    def name(state: str, level: int, left: int) -> str:
        return f"{state}{level}-{left}"

    rules: dict[str, Expr] = {entry: Ref(name(*start))}
    merged_steps = {state: merged(steps) for state, steps in automaton.steps.items()}
    named: dict[Expr, Ref] = {}  # a token longer to write than a name is a rule, written once

    def written(token: Expr) -> Expr:
        if isinstance(token, Lit) or isinstance(token, Chars) and len(token.chars.intervals) < 3:
            return token
        if token not in named:
            named[token] = Ref(f"t{len(named) + 1}")
            rules[named[token].name] = token
        return named[token]

    pending = [start]
    while pending:
        state, level, left = pending.pop()
        if name(state, level, left) in rules:
            continue
        options: list[Expr] = []
        for step in merged_steps[state]:
            after = (step.to, level + step.nest, left - step.size)
            if need.get(after[:2], left + 1) <= after[2]:
                options.append(Seq((written(step.token), Ref(name(*after)))))
                pending.append(after)
        if level == 0 and state in automaton.finals:
            options.append(Seq(()))
        rules[name(state, level, left)] = Alt(tuple(options))
    return rules


def merged(steps: tuple[Step, ...]) -> tuple[Step, ...]:
    """One step per (size, next state, nesting): the tokens of the steps it stands for as one
    expression, the single characters among them as one character set."""
    groups: dict[tuple[int, str, int], list[Expr]] = {}
    for step in steps:
        groups.setdefault((step.size, step.to, step.nest), []).append(step.token)
    merged = []
    for (size, to, nest), tokens in groups.items():
        singles, rest = CharSet.of(""), []
        for token in tokens:
            if isinstance(token, Chars):
                singles = singles | token.chars
            elif isinstance(token, Lit) and len(token.text) == 1:
                singles = singles | CharSet.of(token.text)
            else:
                rest.append(token)
        parts: list[Expr] = ([] if singles.is_empty() else [Chars(singles)]) + rest
        merged.append(Step(parts[0] if len(parts) == 1 else Alt(tuple(parts)), size, to, nest))
    return tuple(merged)


def spaced(step: Step) -> tuple[Step, Step]:
    """``step``, and the same step followed by one space."""
    return step, attrs.evolve(step, token=Seq((step.token, Lit(" "))), size=step.size + 1)


def by_width(chars: CharSet, to: str) -> tuple[Step, ...]:
    """Steps writing one character of ``chars``, one per UTF-8 width (1 to 4 bytes)."""
    widths = ((0, 0x7F), (0x80, 0x7FF), (0x800, 0xFFFF), (0x10000, 0x10FFFF))
    parts = (
        (size, chars & CharSet.range(chr(low), chr(high)))
        for size, (low, high) in enumerate(widths, start=1)
    )
    return tuple(Step(Chars(part), size, to) for size, part in parts if not part.is_empty())
