"""The prefix-tree acceptor and its quotients: state merging with determinization and undo.

Every state-merging learner (RPNI, EDSM, the symbolic learner) starts from the prefix-tree acceptor
of the positive and negative examples and merges states while no accepting and rejecting example
end in one state. This module holds that machinery once, parameterized over the alphabet (classes
of an :class:`automata.alphabet.Alphabet`): a union-find over tree nodes where merging two states
also merges their successors on every shared symbol (the determinization closure), and an undo log
so a merge can be tried, scored and taken back, which is what evidence-driven merging does for
every red/blue pair at every step.

A clustered example reads one *set* of classes per position, and every string it stands for must
get its label. The tree ties those classes together: from a node, all classes of one position lead
to one child (merging children that earlier examples had put apart). Every string of the example
then follows one path, so any quotient of the tree labels all of them alike, and universality is
kept by construction rather than checked string by string.

This is the one mutable object of the package; it lives inside one learner call and never escapes.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from collections.abc import Set as AbstractSet

from cegis.merging.symbols import SymbolicWord

UNKNOWN, REJECT, ACCEPT = -1, 0, 1


class LabelConflict(Exception):
    """Two examples (by index) with different labels end in one state of the prefix tree when
    example ``inserting`` is added (it is one of the two, or its tied classes made them meet)."""

    def __init__(self, first: int, second: int, inserting: int) -> None:
        super().__init__(f"examples {first} and {second} end in one state with different labels")
        self.first, self.second, self.inserting = first, second, inserting


class Quotient:
    """A quotient of the prefix tree: states are union-find representatives of tree nodes."""

    def __init__(self) -> None:
        self.parent: list[int] = [0]
        self.successors: list[dict[int, int]] = [{}]
        self.label: list[int] = [UNKNOWN]
        self.depth: list[int] = [0]
        self.labeled_by: dict[int, int] = {}  # tree node -> index of the example that labeled it
        self.conflict = (0, 0)  # the two states whose labels stopped the last failed merge
        self._log: list[tuple[int, int, int]] = []  # (kind, node, value) to undo, newest last

    @classmethod
    def prefix_tree(
        cls, words: Sequence[SymbolicWord], spelled: AbstractSet[int] = frozenset(), spell_limit: int = 256
    ) -> tuple[Quotient, tuple[int, ...]]:
        """The prefix-tree acceptor of ``words`` and the indices of the words left out of it.

        Words of one class per position go in first, and those in ``spelled`` as one such word per
        combination of their classes. The others are tied; a tie that would make two differently
        labeled states meet is taken back and the word spelled out instead, or left out when that
        takes more than ``spell_limit`` words. Raises :class:`LabelConflict` when a spelled word
        meets a differently labeled one (``inserting`` is then that word)."""
        tree = cls()
        tied, left_out = [], []
        for index, word in enumerate(words):
            if index in spelled or all(len(p) == 1 for p in word.positions):
                tree._spell(word, index)
            else:
                tied.append(index)
        for index in tied:  # after the literal words, so a conflict a tie makes is its own word's
            mark = tree.checkpoint()
            try:
                tree._insert(words[index], index)
            except LabelConflict:
                tree.undo(mark)
                if math.prod(map(len, words[index].positions)) > spell_limit:
                    left_out.append(index)
                else:
                    try:
                        tree._spell(words[index], index)
                    except LabelConflict as conflict:  # spelled too late: an earlier tie is in the way
                        raise LabelConflict(conflict.first, conflict.second, index) from None
        tree.commit()
        return tree, tuple(left_out)

    def _spell(self, word: SymbolicWord, index: int) -> None:
        for combination in itertools.product(*word.positions):
            self._insert(SymbolicWord(tuple((c,) for c in combination), word.label), index)

    def _insert(self, word: SymbolicWord, index: int) -> None:
        """Add ``word`` (example number ``index``), tying the classes of each of its positions."""
        node = 0
        for position in word.positions:
            node = self.find(node)
            edges = self.successors[node]
            known = {self.find(edges[c]) for c in position if c in edges}
            if known:
                child = min(known)
                for other in known - {child}:
                    if self.merge(child, other) is None:
                        first, second = self.conflict
                        raise LabelConflict(self._labeler(first), self._labeler(second), index)
                child = self.find(child)
                edges = self.successors[self.find(node)]
            else:
                child = self._new(self.depth[node] + 1)
                self._log.append((3, child, 0))
            for c in position:
                if c not in edges:
                    edges[c] = child
                    self._log.append((2, node, c))
            node = child
        state = self.find(node)
        label = ACCEPT if word.label else REJECT
        if self.label[state] == UNKNOWN:
            self._log.append((1, state, UNKNOWN))
            self.label[state] = label
            self.labeled_by[state] = index
        elif self.label[state] != label:
            raise LabelConflict(self._labeler(state), index, index)

    def _labeler(self, state: int) -> int:
        """The first example that labeled a node of ``state``."""
        return min(i for node, i in self.labeled_by.items() if self.find(node) == self.find(state))

    def _new(self, depth: int) -> int:
        self.parent.append(len(self.parent))
        self.successors.append({})
        self.label.append(UNKNOWN)
        self.depth.append(depth)
        return len(self.parent) - 1

    def find(self, node: int) -> int:
        """The state (representative) holding ``node``."""
        parent = self.parent
        while parent[node] != node:
            node = parent[node]
        return node

    def target(self, state: int, symbol: int) -> int | None:
        """The state reached from ``state`` on ``symbol``, or ``None`` when no example goes there."""
        child = self.successors[state].get(symbol)
        return None if child is None else self.find(child)

    def merge(self, keep: int, absorb: int) -> int | None:
        """Merge state ``absorb`` into ``keep`` and close under determinization. Returns the
        evidence score (pairs of equally labeled states merged) or ``None`` on a label conflict,
        in which case the caller must :meth:`undo` (the partial merge stays in the log)."""
        score = 0
        pending = [(keep, absorb)]
        find, parent, label, successors, log = self.find, self.parent, self.label, self.successors, self._log
        while pending:
            a, b = pending.pop()
            a, b = find(a), find(b)
            if a == b:
                continue
            if label[b] != UNKNOWN:
                if label[a] == UNKNOWN:
                    log.append((1, a, UNKNOWN))
                    label[a] = label[b]
                elif label[a] != label[b]:
                    self.conflict = (a, b)
                    return None
                else:
                    score += 1
            parent[b] = a
            log.append((0, b, b))
            mine = successors[a]
            for symbol, child in successors[b].items():
                here = mine.get(symbol)
                if here is None:
                    mine[symbol] = child
                    log.append((2, a, symbol))
                else:
                    pending.append((here, child))
        return score

    def checkpoint(self) -> int:
        """A mark of the undo log to return to with :meth:`undo`."""
        return len(self._log)

    def undo(self, mark: int = 0) -> None:
        """Take back every change since ``mark``."""
        log = self._log
        while len(log) > mark:
            kind, node, value = log.pop()
            if kind == 0:
                self.parent[node] = value
            elif kind == 1:
                self.label[node] = value
                self.labeled_by.pop(node, None)
            elif kind == 2:
                del self.successors[node][value]
            else:  # a node created by an insertion that is taken back: it is the last one
                self.parent.pop(), self.successors.pop(), self.label.pop(), self.depth.pop()

    def commit(self) -> None:
        """Forget the undo log: the changes so far are final."""
        self._log.clear()

    def reachable(self, state: int) -> set[int]:
        """The states reachable from ``state`` (itself included)."""
        seen = {state}
        stack = [state]
        while stack:
            for child in self.successors[stack.pop()].values():
                rep = self.find(child)
                if rep not in seen:
                    seen.add(rep)
                    stack.append(rep)
        return seen
