"""Thompson NFAs: the first automaton a regex becomes.

An NFA here is a small *program* (as in rust-lang/regex's ``nfa::thompson``): a table of states,
each one of

* ``CHAR (out, set)``: consume one character whose class is in class set ``set``, go to ``out``;
* ``SPLIT (out1, out2)``: an ε-fork (``out2 == -1`` is a plain ε-edge);
* ``ASSERT (out, code)``: an ε-edge guarded by a zero-width assertion (:mod:`automata.building.assertions`);
* ``MATCH``: accept; ``FAIL``: a thread that dies.

Thompson's construction gives a program whose size is linear in the regex (counted repetitions are
expanded, which is why it is capped by ``state_limit``), with no ε-edge bookkeeping beyond forks.
It is built back to front: compiling a node receives the state that follows it, so concatenation
is a fold from the right and no dangling edges need patching except the back edges of loops.

Intersection and complement have no Thompson fragment. The builder asks the caller to turn such a
node into a DFA (through products, :mod:`automata.algebra.ops`) and splices that DFA in as CHAR states,
dropping its dead state so the splice stays small.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import attrs
import numpy as np

from automata.building.assertions import CODE
from automata.core.alphabet import Alphabet
from automata.core.dfa import DFA, classes_by_target, coreachable_states
from automata.errors import StateLimitExceeded, UnsupportedRegex
from automata.jit.arrays import BoolArray, IntArray
from regexlang.ast import (
    Assertion,
    AssertKind,
    Chars,
    Complement,
    Concat,
    EmptySet,
    Epsilon,
    Intersection,
    Lookaround,
    Optional,
    Plus,
    Regex,
    Repeat,
    Star,
    Union,
)
from regexlang.charset import CharSet

CHAR, SPLIT, ASSERT, MATCH, FAIL = 0, 1, 2, 3, 4


@attrs.frozen(eq=False)
class NFA:
    """A Thompson NFA over the classes of ``alphabet``.

    ``program[s] = (kind, a, b)`` as described in the module docstring; ``set_mask[set, cls]`` says
    whether class set ``set`` holds class ``cls``; ``assertions`` are the assertion kinds used.
    """

    program: IntArray
    start: int
    set_mask: BoolArray
    assertions: frozenset[AssertKind]
    alphabet: Alphabet


def thompson(
    regex: Regex,
    alphabet: Alphabet,
    members: Mapping[CharSet, tuple[int, ...]],
    nested: Callable[[Intersection | Complement], DFA],
    *,
    state_limit: int,
) -> NFA:
    """Thompson's construction of ``regex``.

    ``members`` maps every character set of the regex to the classes it contains (see
    :func:`automata.core.alphabet.partition_with_members`); ``nested`` compiles intersection and
    complement nodes to DFAs over ``alphabet``.
    """
    builder = _Builder(members, nested, state_limit)
    start = builder.build(regex, builder.add(MATCH, -1, -1))
    program = np.array(builder.code, dtype=np.int32).reshape(-1, 3)
    n_classes = len(alphabet)
    set_mask = np.zeros((len(builder.set_ids), n_classes), dtype=np.bool_)
    set_mask.ravel()[
        [i * n_classes + c for classes, i in builder.set_ids.items() for c in classes]
    ] = True
    return NFA(program, start, set_mask, frozenset(builder.assertions), alphabet)


class _Builder:
    def __init__(
        self,
        members: Mapping[CharSet, tuple[int, ...]],
        nested: Callable[[Intersection | Complement], DFA],
        state_limit: int,
    ) -> None:
        self.members = members
        self.nested = nested
        self.limit = state_limit
        self.code: list[int] = []
        self.n_states = 0
        self.set_ids: dict[tuple[int, ...], int] = {}
        self.char_set_ids: dict[CharSet, int] = {}
        self.assertions: set[AssertKind] = set()
        self.fail_state = -1

    def add(self, kind: int, a: int, b: int) -> int:
        state = self.n_states
        if state >= self.limit:
            raise StateLimitExceeded("the Thompson NFA of this regex", self.limit)
        self.code += (kind, a, b)
        self.n_states = state + 1
        return state

    def fail(self) -> int:
        if self.fail_state < 0:
            self.fail_state = self.add(FAIL, -1, -1)
        return self.fail_state

    def on_classes(self, classes: tuple[int, ...], out: int) -> int:
        """A CHAR state reading any class of ``classes``."""
        if not classes:
            return self.fail()
        set_id = self.set_ids.setdefault(classes, len(self.set_ids))
        return self.add(CHAR, out, set_id)

    def fork(self, entries: list[int]) -> int:
        """A state that continues at every one of ``entries``."""
        options = list(dict.fromkeys(e for e in entries if e != self.fail_state))
        if not options:
            return self.fail()
        entry = options[-1]
        for option in reversed(options[:-1]):
            entry = self.add(SPLIT, option, entry)
        return entry

    def loop(self, inner: Regex, out: int) -> int:
        """``inner*`` followed by ``out``: a fork whose first branch is patched to the body."""
        fork = self.add(SPLIT, -1, out)
        self.code[3 * fork + 1] = self.build(inner, fork)
        return fork

    def on_chars(self, chars: CharSet, out: int) -> int:
        """A CHAR state reading any character of ``chars`` (memoised per set: hashing is not free)."""
        set_id = self.char_set_ids.get(chars)
        if set_id is None:
            classes = self.members[chars]
            if not classes:
                return self.fail()
            set_id = self.char_set_ids[chars] = self.set_ids.setdefault(classes, len(self.set_ids))
        return self.add(CHAR, out, set_id)

    def build(self, node: Regex, out: int) -> int:
        """The entry state of ``node`` followed by state ``out``."""
        if isinstance(node, Chars):
            return self.on_chars(node.chars, out)
        if isinstance(node, Concat):
            for part in reversed(node.parts):
                out = self.build(part, out)
            return out
        if isinstance(node, Union):
            return self.fork([self.build(option, out) for option in node.options])
        if isinstance(node, Star):
            return self.loop(node.inner, out)
        if isinstance(node, Plus):
            fork = self.add(SPLIT, -1, out)
            entry = self.build(node.inner, fork)
            self.code[3 * fork + 1] = entry
            return entry
        if isinstance(node, Optional):
            return self.fork([self.build(node.inner, out), out])
        if isinstance(node, Repeat):
            return self.repeat(node, out)
        if isinstance(node, Epsilon):
            return out
        if isinstance(node, EmptySet):
            return self.fail()
        if isinstance(node, Assertion):
            self.assertions.add(node.kind)
            return self.add(ASSERT, out, CODE[node.kind])
        if isinstance(node, Lookaround):
            raise UnsupportedRegex(
                "lookarounds are compiled by automata.building.lookaround, not into a Thompson NFA"
            )
        return self.splice(self.nested(node), out)

    def repeat(self, node: Repeat, out: int) -> int:
        # x{2,4} = x x (x (x)?)?: the optional tail nests so every exit jumps straight to ``out``.
        if node.max is None:
            entry = self.loop(node.inner, out)
        else:
            entry = out
            for _ in range(node.max - node.min):
                entry = self.fork([self.build(node.inner, entry), out])
        for _ in range(node.min):
            entry = self.build(node.inner, entry)
        return entry

    def splice(self, dfa: DFA, out: int) -> int:
        """CHAR states simulating ``dfa``, continuing at ``out`` wherever it accepts."""
        transitions = dfa.transitions.tolist()
        live = coreachable_states(transitions, dfa.accepting.tolist())
        entry: dict[int, int] = {}
        pending: list[tuple[int, int]] = []
        for state in (s for s in range(dfa.n_states) if live[s]):
            options = []
            for target, classes in classes_by_target(transitions[state], live).items():
                char = self.on_classes(tuple(classes), -1)
                pending.append((char, target))
                options.append(char)
            if dfa.accepting[state]:
                options.append(out)
            entry[state] = self.fork(options)
        for char, target in pending:
            self.code[3 * char + 1] = entry[target]
        return entry[dfa.start] if live[dfa.start] else self.fail()
