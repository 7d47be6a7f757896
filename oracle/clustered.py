"""Clustered counterexamples: building them from difference automata, and checking them exactly.

A clustered example is a path through the *minimal* difference automaton with one super-character
per step (:mod:`automata.strings.paths` groups the classes that lead from a state to the same successor).
Every string it stands for follows the same state path, so all of them are counterexamples with the
same label. Beyond the loop-free paths of :func:`automata.strings.paths.accepting_paths`, any witness string
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
import itertools
from collections.abc import Iterable, Iterator, Sequence
from typing import Literal

import numpy as np

from automata.core.alphabet import Alphabet
from automata.core.dfa import DFA
from automata.jit.arrays import BoolArray
from automata.strings.paths import Path, Step, steps_from
from oracle import _kernels
from oracle.examples import ClusteredExample, Counterexample, Example
from regexlang.charset import CharSet

#: How a clustered example is read: every string labelled right, or negatives only "not all accepted".
ClusteredReading = Literal["universal", "loose"]


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


def reachable_states(dfa: DFA, example: ClusteredExample) -> tuple[frozenset[int], bool]:
    """The states ``dfa`` reaches on the strings of ``example``, and whether some of them leave
    the universe (those strings are rejected and reach no state)."""
    reached, leaves = _walked(dfa, [example])
    return frozenset(np.flatnonzero(reached[0]).tolist()), bool(leaves[0])


def satisfies(
    dfa: DFA, example: Counterexample, *, reading: ClusteredReading = "universal"
) -> bool:
    """Whether the hypothesis ``dfa`` labels every string of ``example`` as the example does (under
    the ``loose`` reading, a negative only needs some string rejected)."""
    return not _wrong(dfa, [example], reading)[0]


def misclassified(
    dfa: DFA, examples: Iterable[Counterexample], *, reading: ClusteredReading = "universal"
) -> tuple[Counterexample, ...]:
    """The examples ``dfa`` does not satisfy (the repair loop's satisfaction check), in order."""
    examples = list(examples)
    return tuple(itertools.compress(examples, _wrong(dfa, examples, reading).tolist()))


def _wrong(dfa: DFA, examples: Sequence[Counterexample], reading: ClusteredReading) -> BoolArray:
    """Which of ``examples`` ``dfa`` does not satisfy. A positive needs every string accepted: some
    state reached, none of its strings leaving the universe, every reached state accepting. A
    negative needs no reached state accepting (``loose``: only that not every string is accepted)."""
    reached, leaves = _walked(dfa, examples)
    accepting = dfa.accepting
    some = (reached & accepting).any(axis=1)
    every = reached.any(axis=1) & ~(reached & ~accepting).any(axis=1) & ~leaves
    labels = np.fromiter((e.label for e in examples), dtype=np.bool_, count=len(examples))
    wrong: BoolArray = np.where(labels, ~every, every if reading == "loose" else some)
    return wrong


def _walked(dfa: DFA, examples: Sequence[Counterexample]) -> tuple[BoolArray, BoolArray]:
    """:func:`oracle._kernels.walk` on ``examples`` packed for ``dfa``: the states each reaches and
    whether it leaves the universe.

    A position is coded by what it reads: code ``c < n`` (the alphabet's size) is the class ``c``
    alone, as a plain string's characters read; ``n``, nothing, as a character outside the
    universe; the codes after, the distinct character sets of the clustered positions, each read
    once per call (:func:`_read`). Positions are told apart by identity first: a set recurs in many
    examples as one object, and hashing and comparing every position by value cost as much as the
    walk itself.
    """
    alphabet = dfa.alphabet
    n = len(alphabet)
    plain = [isinstance(e, Example) for e in examples]
    clustered = [e for e in examples if isinstance(e, ClusteredExample)]
    positions = list(itertools.chain.from_iterable(e.positions for e in clustered))
    code_by_id: dict[int, int] = {}
    code_by_set: dict[CharSet, int] = {}
    members, member_ends, outside = list(range(n)), [*range(1, n + 1), n], [False] * n + [True]

    for chars in {id(p): p for p in positions}.values():
        code = code_by_set.get(chars)
        if code is None:
            code = code_by_set[chars] = len(outside)
            classes, leaves = _read(alphabet, chars)
            members.extend(classes)
            member_ends.append(len(members))
            outside.append(leaves)
        code_by_id[id(chars)] = code
    encoded = alphabet.encode("".join(e.string for e in examples if isinstance(e, Example)))
    codes = np.concatenate(
        (
            np.fromiter(
                map(code_by_id.__getitem__, map(id, positions)),
                dtype=np.int64,
                count=len(positions),
            ),
            np.where(encoded < 0, n, encoded).astype(np.int64),
        )
    )
    lengths = np.fromiter(
        (len(e.string) if isinstance(e, Example) else len(e.positions) for e in examples),
        dtype=np.int64,
        count=len(examples),
    )
    order = np.argsort(
        np.array(plain, dtype=np.bool_), kind="stable"
    )  # the examples in the order of ``codes``
    ends = np.empty(len(examples), dtype=np.int64)
    ends[order] = np.cumsum(lengths[order])
    return _kernels.walk(
        dfa.transitions,
        int(dfa.start),
        np.array(members, dtype=np.int64),
        np.array(member_ends, dtype=np.int64),
        np.array(outside, dtype=np.bool_),
        codes,
        ends - lengths,
        ends,
    )


@functools.lru_cache(maxsize=4096)
def _read(alphabet: Alphabet, chars: CharSet) -> tuple[Sequence[int], bool]:
    """The classes of ``alphabet`` that ``chars`` meets, and whether some of its characters are
    outside the universe. Remembered across calls: a learner checks one set of examples against
    many candidates, most over a few alphabets, and finding the classes cost more than the walk."""
    return tuple(alphabet.classes_within(chars)), not chars.issubset(alphabet.universe)
