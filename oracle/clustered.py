"""Clustered counterexamples: building them from difference automata, and checking them exactly.

A clustered example is a path through the *minimal* difference automaton with one super-character
per step (:mod:`automata.paths` groups the classes that lead from a state to the same successor).
Every string it stands for follows the same state path, so all of them are counterexamples with the
same label. Beyond the loop-free paths of :func:`automata.paths.accepting_paths`, any witness string
can be *lifted* to the super-character path it follows (:func:`lift`), which is how the shortest
and uniform sampling modes produce clustered examples too.

The learner must read a clustered example universally: a hypothesis satisfies it iff it labels
*every* represented string correctly. :func:`satisfies` decides that exactly without expanding
the product of positions (``[^0-9]`` over Unicode has a million members): it walks the hypothesis
DFA with the *set* of states reachable through each position's classes, then checks that all of
the reached states accept (label 1) or none does (label 0). Characters outside the hypothesis's
universe lead nowhere, so they count as rejected strings.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Literal

from automata.dfa import DFA
from automata.paths import Path, Step, steps_from
from oracle.examples import ClusteredExample, Counterexample, Example
from regexlang.charset import CharSet

#: How a clustered example is read: every string labelled right, or negatives only "not all accepted".
Reading = Literal["universal", "loose"]


def from_path(path: Path, label: bool, dfa: DFA) -> ClusteredExample:
    """The clustered example spelled by an accepting path of ``dfa``."""
    return ClusteredExample(tuple(step.chars for step in path.steps), label, dfa.alphabet.universe)


def lift(dfa: DFA, string: str, label: bool) -> ClusteredExample:
    """The super-character path that ``string`` follows through ``dfa`` (which must accept it)."""
    return next(lift_many(dfa, [string], label))


def lift_many(dfa: DFA, strings: Sequence[str], label: bool) -> Iterator[ClusteredExample]:
    """The distinct super-character paths that ``strings`` follow through ``dfa``, in first-seen
    order. A path is fixed by its state sequence, so duplicates are skipped before being built."""
    steps: dict[int, dict[int, Step]] = {}  # state -> class -> the step holding it
    seen: set[tuple[int, ...]] = set()
    classes = dfa.alphabet.encode("".join(strings)).tolist()  # one lookup pass for all strings
    end = 0
    for string in strings:
        start, end = end, end + len(string)
        state, path = dfa.start, []
        for cls in classes[start:end]:
            if cls < 0:
                raise ValueError(f"{string!r} leaves the universe of the automaton")
            if state not in steps:
                steps[state] = {k: step for step in steps_from(dfa, state) for k in step.classes}
            step = steps[state][cls]
            path.append(step)
            state = step.target
        key = tuple(step.target for step in path)
        if key not in seen:
            seen.add(key)
            yield ClusteredExample(tuple(step.chars for step in path), label, dfa.alphabet.universe)


def reachable_states(
    dfa: DFA, example: ClusteredExample, within: Callable[[CharSet], list[int]] | None = None
) -> tuple[frozenset[int], bool]:
    """The states ``dfa`` reaches on the strings of ``example``, and whether some of them leave
    the universe (those strings are rejected and reach no state). ``within`` is
    ``dfa.alphabet.classes_within``, or a cache of it shared by many examples."""
    return _Walk(dfa, within).reached(example)


def satisfies(
    dfa: DFA,
    example: Counterexample,
    *,
    reading: Reading = "universal",
    within: Callable[[CharSet], list[int]] | None = None,
) -> bool:
    """Whether the hypothesis ``dfa`` labels every string of ``example`` as the example does (under
    the ``loose`` reading, a negative only needs some string rejected). ``within``: as in
    :func:`reachable_states`."""
    return _Walk(dfa, within).satisfied(example, reading)


def misclassified(
    dfa: DFA, examples: Iterable[Counterexample], *, reading: Reading = "universal"
) -> tuple[Counterexample, ...]:
    """The examples ``dfa`` does not satisfy (the repair loop's satisfaction check)."""
    walk = _Walk(dfa, functools.cache(dfa.alphabet.classes_within))  # clustered positions repeat a lot
    return tuple(e for e in examples if not walk.satisfied(e, reading))


class _Walk:
    """``dfa`` read example after example: its table as Python lists (indexing numpy arrays per
    position cost most of a check), and what each position's characters read, remembered."""

    def __init__(self, dfa: DFA, within: Callable[[CharSet], list[int]] | None) -> None:
        self.dfa = dfa
        self.rows: list[list[int]] | None = None  # built at the first clustered example
        self.accepting: list[bool] = []
        classes_within, universe = within or dfa.alphabet.classes_within, dfa.alphabet.universe
        self.read: Callable[[CharSet], tuple[list[int], bool]] = functools.cache(
            lambda chars: (classes_within(chars), chars.issubset(universe))
        )

    def reached(self, example: ClusteredExample) -> tuple[frozenset[int], bool]:
        """As :func:`reachable_states`."""
        if self.rows is None:
            self.rows, self.accepting = self.dfa.transitions.tolist(), self.dfa.accepting.tolist()
        rows = self.rows
        states = {self.dfa.start}
        leaves = False
        for chars in example.positions:
            classes, inside = self.read(chars)
            leaves = leaves or not inside
            if not classes or not states:
                return frozenset(), True
            states = {row[k] for row in map(rows.__getitem__, states) for k in classes}
        return frozenset(states), leaves

    def satisfied(self, example: Counterexample, reading: Reading) -> bool:
        """As :func:`satisfies`."""
        if isinstance(example, Example):
            return self.dfa.accepts(example.string) == example.label
        states, leaves = self.reached(example)
        accepting = [self.accepting[s] for s in states]
        all_accepted = bool(states) and not leaves and all(accepting)
        if example.label:
            return all_accepted
        return not all_accepted if reading == "loose" else not any(accepting)
