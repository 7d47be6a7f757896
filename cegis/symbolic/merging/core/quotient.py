"""The prefix-tree acceptor and its quotients: state merging with determinization and undo.

One union-find over tree nodes for every state-merging learner, with an undo log so a merge can be
tried, scored and taken back (what EDSM does for every red/blue pair). A clustered example ties the
classes of each position to one child, so every quotient labels all its strings alike. This is the
package's one mutable object; it lives inside one learner call and never escapes."""

from __future__ import annotations

import array
import hashlib
import itertools
import operator
from collections.abc import Callable, Sequence
from collections.abc import Set as AbstractSet

import numpy as np

from cegis.errors import LabelConflict as LabelConflict
from cegis.symbolic.merging.core import _kernels
from cegis.symbolic.merging.core._kernels import ACCEPT, REJECT, UNKNOWN
from cegis.symbolic.merging.core.run_cache import RunCache
from cegis.symbolic.merging.core.symbols import SymbolicWord, several
from cegis.symbolic.merging.core.words import PackedWords

__all__ = ["ACCEPT", "REJECT", "UNKNOWN", "LabelConflict", "Quotient"]

#: Most tree nodes a prefix tree may have (its arrays are sized up front).
MAX_NODES = 500_000

#: What the tree reads of each word, fetched in C (``map``): trees of thousands of words are built
#: again in every round.
_POSITIONS, _COMBINATIONS, _LARGEST, _LABEL, _SPELLING = map(
    operator.attrgetter, ("positions", "combinations", "largest", "label", "spelling")
)

#: The arrays with a row per tree node.
_PER_NODE = ("succ", "parent", "label", "depth", "labeled_by", "degree")


class Quotient:
    """A quotient of the prefix tree: states are union-find representatives of tree nodes.

    The arrays (see :mod:`cegis.symbolic.merging.core._kernels`) are sized once for ``capacity`` tree nodes over
    ``symbols`` classes; merging and undo run compiled."""

    def __init__(self, capacity: int, symbols: int) -> None:
        self.succ = np.full((capacity, symbols), -1, dtype=np.int32)
        self.parent = np.arange(capacity, dtype=np.int32)
        self.label = np.full(capacity, UNKNOWN, dtype=np.int8)
        self.depth = np.zeros(capacity, dtype=np.int32)
        self.labeled_by = np.full(
            capacity, -1, dtype=np.int32
        )  # tree node -> example that labeled it
        self.log = np.empty(
            (capacity * (symbols + 3) + 1, 3), dtype=np.int32
        )  # changes to undo (written before read)
        self.meta = np.array([1, 0, 0, 0], dtype=np.int64)  # nodes, log length, conflicting states
        self.stack = np.empty(
            (capacity * symbols + 1, 2), dtype=np.int32
        )  # merge's pairs (written before read)
        self.degree = np.zeros(capacity, dtype=np.int32)  # children in each row
        self.arrays: _kernels.Arrays = (
            self.succ,
            self.parent,
            self.label,
            self.depth,
            self.labeled_by,
            self.log,
            self.meta,
            self.stack,
            self.degree,
        )
        self.bound = (
            capacity  # the nodes the words in the tree could need (checked against MAX_NODES)
        )

    @classmethod
    def prefix_tree(
        cls,
        words: Sequence[SymbolicWord],
        spelled: AbstractSet[int] = frozenset(),
        spell_limit: int = 256,
        cache: RunCache | None = None,
    ) -> tuple[Quotient, tuple[int, ...]]:
        """The prefix-tree acceptor of ``words`` and the indices of the words left out of it.

        Words of one class per position go in first, and those in ``spelled`` as one such word per
        combination of their classes. The others are tied; a tie that would make two differently
        labeled states meet is taken back and the word spelled out instead, or left out when that
        takes more than ``spell_limit`` words. Raises :class:`LabelConflict` when a spelled word
        meets a differently labeled one (``inserting`` is then that word), and ``ValueError`` when
        the tree would pass :data:`MAX_NODES` nodes. A run's ``cache`` remembers the words spelled
        out (a word spelled out is spelled again at every retry and round)."""
        run = cache or RunCache()

        def spell(word: SymbolicWord) -> bytes:
            return run(_spelled_out, word, limit=1 << 12)

        tied_or_spelled = several(words)
        tied = [index for index in tied_or_spelled if index not in spelled]
        capacity = (
            1
            + sum(map(len, map(_POSITIONS, words)))
            + sum(
                len(words[index].positions) * (words[index].combinations - 1)
                for index in tied_or_spelled
                if index in spelled or words[index].combinations <= spell_limit
            )
        )
        if capacity > MAX_NODES:
            raise ValueError(
                f"the prefix tree would have up to {capacity} nodes (limit {MAX_NODES})"
            )
        tree = cls(capacity, 1 + max(0, max(map(_LARGEST, words), default=0)))
        if tied:
            ties = set(tied)
            literal = [index for index in range(len(words)) if index not in ties]
            tree._spell([words[index] for index in literal], literal, spell)
        else:
            tree._spell(words, range(len(words)), spell)
        left_out: list[int] = []
        packed = PackedWords.pack([words[index] for index in tied])
        owners = np.array(tied, dtype=np.int32)
        start = 0
        arrays = packed.symbols, packed.position_ends, packed.word_ends, packed.labels
        while (clashed := int(_kernels.insert_tied(tree.arrays, *arrays, owners, start))) >= 0:
            index = tied[
                clashed
            ]  # after the literal words, so a conflict a tie makes is its own word's
            if words[index].combinations > spell_limit:
                left_out.append(index)
            else:
                try:
                    tree._spell([words[index]], [index], spell)
                except LabelConflict as conflict:  # spelled too late: an earlier tie is in the way
                    raise LabelConflict(conflict.first, conflict.second, index) from None
            start = clashed + 1
        tree.commit()
        return tree, tuple(left_out)

    def extend(self, words: Sequence[SymbolicWord], first: int) -> None:
        """Add ``words`` of one class per position (example numbers ``first`` on) after the words
        in the tree, as :meth:`prefix_tree` would have added them last, growing the arrays as
        needed; raises ``ValueError`` past :data:`MAX_NODES` as it does, and
        :class:`LabelConflict` when a word meets a differently labeled state (the tree is then
        part-extended: build it again)."""
        if any(word.combinations != 1 or word.largest >= self.succ.shape[1] for word in words):
            raise ValueError("only words of one known class per position extend a tree")
        self.bound += sum(len(word.positions) for word in words)
        if self.bound > MAX_NODES:
            raise ValueError(
                f"the prefix tree would have up to {self.bound} nodes (limit {MAX_NODES})"
            )
        if self.bound > len(self.parent):
            self._grow(max(self.bound, 2 * len(self.parent)))
        self._spell(words, range(first, first + len(words)))
        self.commit()

    def _grow(self, capacity: int) -> None:
        """The same tree in arrays sized for ``capacity`` nodes (the undo log must be empty)."""
        assert self.meta[_kernels.LOG] == 0, "growing a tree with changes to undo"
        nodes, bound = self.nodes, self.bound
        grown = Quotient(capacity, self.succ.shape[1])
        for name in _PER_NODE:
            getattr(grown, name)[:nodes] = getattr(self, name)[:nodes]
        grown.meta[:] = self.meta
        self.__dict__.update(grown.__dict__)
        self.bound = bound

    def _spell(
        self,
        words: Sequence[SymbolicWord],
        indices: Sequence[int],
        spelled_out: Callable[[SymbolicWord], bytes] | None = None,
    ) -> None:
        """Add ``words`` (example numbers ``indices``) in order, each as one word of one class per
        position for every combination of its classes, compiled; raises :class:`LabelConflict` at
        the first that meets a differently labeled state. Thousands of words a round: their
        spellings are joined as bytes, and the rest read in C. ``spelled_out`` gives each
        combination of a word's classes (:func:`_spelled_out`, or the run's remembered one)."""
        spelled_out = spelled_out or _spelled_out
        count = len(words)
        combinations = np.fromiter(map(_COMBINATIONS, words), dtype=np.int64, count=count)
        literal = not count or combinations.max() == 1  # the common case: every word read in C
        spellings = (
            map(_SPELLING, words)
            if literal
            else (w.spelling if w.combinations == 1 else spelled_out(w) for w in words)
        )
        symbols = np.frombuffer(bytearray(b"".join(spellings)), dtype=np.intc)
        lengths = np.fromiter(map(len, map(_POSITIONS, words)), dtype=np.int64, count=count)
        ends = np.cumsum(np.repeat(lengths, combinations))
        labels = np.repeat(
            np.fromiter(map(_LABEL, words), dtype=np.bool_, count=count), combinations
        )
        owners = np.repeat(np.fromiter(indices, dtype=np.int32, count=count), combinations)
        failed, state = _kernels.insert_literals(self.arrays, symbols, ends, labels, owners)
        if failed >= 0:
            raise LabelConflict(self._labeler(int(state)), int(owners[failed]), int(owners[failed]))

    def _labeler(self, state: int) -> int:
        """The first example that labeled a node of ``state``."""
        nodes = self.nodes
        roots = self.parent[:nodes]
        while not np.array_equal(
            up := roots[roots], roots
        ):  # pointer jumping: every node's representative
            roots = up
        labelers = self.labeled_by[:nodes]
        return int(labelers[(roots == self.find(state)) & (labelers >= 0)].min())

    @property
    def nodes(self) -> int:
        """Tree nodes so far."""
        return int(self.meta[_kernels.NODES])

    def find(self, node: int) -> int:
        """The state (representative) holding ``node``."""
        parent = self.parent  # a Python loop: chains are short, a kernel call costs more
        while (up := int(parent[node])) != node:
            node = up
        return node

    def edges(self, state: int) -> dict[int, int]:
        """The symbols ``state`` reads, with the tree node each leads to."""
        row = self.succ[state]
        return {int(symbol): int(row[symbol]) for symbol in np.flatnonzero(row >= 0)}

    def target(self, state: int, symbol: int) -> int | None:
        """The state reached from ``state`` on ``symbol``, or ``None`` when no example goes there."""
        child = int(self.succ[state, symbol]) if symbol < self.succ.shape[1] else -1
        return None if child < 0 else self.find(child)

    def merge(self, keep: int, absorb: int) -> int | None:
        """Merge state ``absorb`` into ``keep`` and close under determinization. Returns the
        evidence score (pairs of equally labeled states merged) or ``None`` on a label conflict,
        in which case the caller must :meth:`undo` (the partial merge stays in the log)."""
        score = int(_kernels.merge(self.arrays, keep, absorb, None))
        return None if score < 0 else score

    def signature(self) -> bytes:
        """A digest of the quotient as it stands (every node's row): equal for quotients built
        alike, so the work done on one need not be done again on the other."""
        digest = hashlib.blake2b(digest_size=32)
        nodes = self.nodes
        for name in _PER_NODE:
            digest.update(getattr(self, name)[:nodes].tobytes())
        return digest.digest()

    def checkpoint(self) -> int:
        """A mark of the undo log to return to with :meth:`undo`."""
        return int(self.meta[_kernels.LOG])

    def undo(self, mark: int = 0) -> None:
        """Take back every change since ``mark``."""
        _kernels.undo(self.arrays, mark)

    def commit(self) -> None:
        """Forget the undo log: the changes so far are final."""
        self.meta[_kernels.LOG] = 0


def _spelled_out(word: SymbolicWord) -> bytes:
    """Every combination of ``word``'s classes, one after another, as C ints."""
    return array.array(
        "i", itertools.chain.from_iterable(itertools.product(*word.positions))
    ).tobytes()
