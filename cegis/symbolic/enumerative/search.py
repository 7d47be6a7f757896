"""Bottom-up enumeration by size: the smallest regex whose signature matches every label.

The bank holds one entry per distinct signature, in order of size (a leaf is 1, an operator adds 1
to its operands), so the first entry with a given signature is a smallest regex with it. Size
``s`` is built from sizes below it: the unary operators over size ``s - 1`` and the binary ones
over every split ``s1 + s2 = s - 1``. The first candidate whose signature agrees with every label
is a smallest consistent regex, since signatures decide consistency and every signature of a
smaller size was already seen (:mod:`cegis.symbolic.enumerative._kernels` says why deduplicating on them
loses nothing).

Each size first gets a *goal-directed* pass that only tests, never stores, the candidates whose
operands survive the over- and under-approximations of the partial regex: ``x·□`` with the hole
read as Σ* must still accept every positive (so ``x`` must match a prefix of each), ``□·x``
likewise for suffixes, ``x|□`` with the hole read as ∅ must reject every negative (so ``x`` must),
and ``□*``, ``□?`` are out when ε is a negative. Every consistent candidate passes them, so the
pass finds the same first answer the full build would, at a fraction of the pairs; the size is
built in full (for the sizes above) only when it finds none. Once the bank's memory or a share of
the node budget is spent the bank stops growing and the passes go on alone, reaching up to twice
the stored size, though an answer found that way is no longer guaranteed smallest. Budgets
(signatures computed, seconds) end the search with a typed failure.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterator

import attrs
import numpy as np

from automata.jit._jit import forced
from cegis.learner import FailureKind
from cegis.symbolic.enumerative import _kernels as k
from cegis.symbolic.enumerative.space import Rows, Space
from regexlang.ast import Chars, Epsilon, Optional, Plus, Regex, Repeat, Star, concat, union
from regexlang.charset import CharSet

#: Signature rows computed per kernel call (at most), so the clock is read every few milliseconds.
_ROWS_PER_CALL = 1 << 21


@attrs.frozen
class Limits:
    """Budgets of one search."""

    max_candidates: int
    seconds: float
    max_size: int
    bank_bytes: int
    #: Candidates computed after which the bank stops growing and the search turns goal-directed.
    goal_after: int


@attrs.frozen
class Stats:
    """What one search did: signatures computed, distinct ones stored, the size it reached."""

    computed: int = 0
    stored: int = 0
    size: int = 0
    seconds: float = 0.0
    bank_stopped: bool = False  # it stopped growing: the answer may not be smallest


@attrs.frozen
class Found:
    """A smallest consistent regex (only a small one once the bank stopped growing)."""

    regex: Regex
    size: int
    stats: Stats


@attrs.frozen
class NotFound:
    """Why the search stopped without a consistent regex."""

    kind: FailureKind
    detail: str
    stats: Stats


@attrs.define
class _Bank:
    """The mutable arrays of one search (local to :func:`search`, never shared)."""

    sigs: np.ndarray
    hashes: np.ndarray
    table: np.ndarray
    kind: np.ndarray
    left_of: np.ndarray
    right_of: np.ndarray
    n: int = 0

    @classmethod
    def empty(cls, capacity: int, n_rows: int) -> _Bank:
        slots = 1 << max(4, (2 * capacity - 1).bit_length())
        return cls(
            np.zeros((capacity, n_rows), dtype=np.uint64),
            np.zeros(capacity, dtype=np.uint64),
            np.full(slots, -1, dtype=np.int64),
            np.zeros(capacity, dtype=np.int64),
            np.zeros(capacity, dtype=np.int64),
            np.zeros(capacity, dtype=np.int64),
        )


@functools.cache
def warm_up() -> None:
    """Compile (or load from numba's cache) every kernel, so no time budget pays for it (and none
    runs as plain Python: the search's time limits assume compiled speed)."""
    rows = Rows.of([(0,), (0, 0)], [True, False])
    leaf = np.asarray([[0, 2, 2]], dtype=np.uint64)  # the atom-0 leaf over rows (), (0,), (0, 0)
    space = Space(
        (Chars(CharSet.of("a")),),
        leaf,
        (k.STAR, k.PLUS, k.OPTIONAL, k.REPEAT + 2, k.CONCAT, k.UNION),
        rows,
    )
    with forced("compiled"):
        search(space, Limits(10_000, 60.0, 6, 1 << 20, 10_000))


def search(
    space: Space, limits: Limits, clock: Callable[[], float] = time.perf_counter
) -> Found | NotFound:
    """The smallest regex of ``space`` consistent with its rows, or why none was found."""
    run = _Run.start(space, limits, clock)
    for i, signature in enumerate(space.leaf_signatures):
        if k.insert(signature, run.bank.n, run.bank.sigs, run.bank.hashes, run.bank.table):
            run.bank.kind[run.bank.n] = (
                k.EPSILON if isinstance(space.leaves[i], Epsilon) else k.LEAF
            )
            run.bank.left_of[run.bank.n] = i
            run.bank.n += 1
            if _agrees(signature, space.rows):
                return Found(space.leaves[i], 1, run.stats(1))
    levels = [(0, 0), (0, run.bank.n)]  # bank index range of each size
    pruning = _Pruning.of(run.bank, space.rows, 0, run.bank.n)
    for size in range(2, limits.max_size + 1):
        # Any consistent candidate of this size passes the approximations: look among those first,
        # and build the whole size (for the sizes above) only when there is none.
        outcome = run.sweep(size, levels, pruning)
        if outcome is not None:
            return outcome
        start = run.bank.n
        if run.growing:
            outcome = run.sweep(size, levels, None)
            if outcome is not None:
                return outcome
        levels.append((start, run.bank.n))
        pruning = pruning.extended(run.bank, space.rows, start, run.bank.n)
        if not run.growing and size > 2 * _largest_stored(levels) + 1:
            return NotFound(
                "budget", f"the bank stopped growing at {run.bank.n} signatures", run.stats(size)
            )
    return NotFound(
        "search_exhausted",
        f"no consistent regex up to size {limits.max_size}",
        run.stats(limits.max_size),
    )


@attrs.define
class _Run:
    """The mutable state of one :func:`search` (local to it, never shared)."""

    space: Space
    limits: Limits
    clock: Callable[[], float]
    started: float
    bank: _Bank
    computed: int = 0
    growing: bool = True  # still storing new signatures

    @classmethod
    def start(cls, space: Space, limits: Limits, clock: Callable[[], float]) -> _Run:
        rows = space.rows
        stored_at_most = min(limits.goal_after, limits.max_candidates) + len(space.leaves)
        capacity = max(
            len(space.leaves), min(stored_at_most, limits.bank_bytes // (8 * rows.n_rows + 64))
        )
        return cls(
            space, limits, clock, clock(), _Bank.empty(capacity, rows.n_rows), len(space.leaves)
        )

    def stats(self, size: int) -> Stats:
        return Stats(
            self.computed, self.bank.n, size, self.clock() - self.started, not self.growing
        )

    def sweep(
        self, size: int, levels: list[tuple[int, int]], pruning: _Pruning | None
    ) -> Found | NotFound | None:
        """Every operator over the operands of ``size``: only tested when ``pruning`` (the goal-
        directed pass), else stored. The outcome when the search ends here, else None."""
        rows, bank, store = self.space.rows, self.bank, pruning is None
        epsilon_options = k.OPTIONAL not in self.space.operators
        for op in self.space.operators:
            for lefts, rights in _operands(op, size, levels, pruning):
                for chunk in _chunks(lefts, rights, rows.n_rows):
                    status, bank.n, spent, a, b = k.extend(
                        op,
                        chunk,
                        rights,
                        bank.sigs,
                        bank.hashes,
                        bank.table,
                        bank.kind,
                        bank.left_of,
                        bank.right_of,
                        bank.n,
                        store,
                        self.limits.max_candidates - self.computed,
                        epsilon_options,
                        rows.tail,
                        rows.accept_row,
                        rows.accept_bit,
                        rows.want,
                    )
                    self.computed += spent
                    if status == k.FOUND:
                        return Found(_node(self.space, bank, op, a, b), size, self.stats(size))
                    if status == k.SPENT:
                        return NotFound(
                            "budget",
                            f"{self.computed} candidates computed up to size {size}",
                            self.stats(size),
                        )
                    if self.clock() - self.started > self.limits.seconds:
                        return NotFound(
                            "timeout",
                            f"{self.limits.seconds:g} s spent at size {size}",
                            self.stats(size),
                        )
                    if store and (status == k.FULL or self.computed >= self.limits.goal_after):
                        self.growing = False
                        return None
        return None


@attrs.frozen(eq=False)
class _Pruning:
    """Which stored entries can be an operand of a consistent top-level candidate (by index)."""

    prefix: np.ndarray  # x·Σ* accepts every positive
    suffix: np.ndarray  # Σ*·x accepts every positive
    clean: np.ndarray  # x rejects every negative
    empty_is_negative: bool  # then no x*, x? can be consistent

    @classmethod
    def of(cls, bank: _Bank, rows: Rows, lo: int, hi: int) -> _Pruning:
        prefix, suffix, clean = k.approximations(
            bank.sigs, lo, hi, rows.tail, rows.accept_row, rows.accept_bit, rows.want
        )
        empty_is_negative = any(not label and not s for s, label in zip(rows.strings, rows.labels))
        return cls(prefix, suffix, clean, empty_is_negative)

    def extended(self, bank: _Bank, rows: Rows, lo: int, hi: int) -> _Pruning:
        """These filters plus those of the entries from ``lo`` to ``hi``."""
        more = _Pruning.of(bank, rows, lo, hi)
        return _Pruning(
            np.concatenate((self.prefix, more.prefix)),
            np.concatenate((self.suffix, more.suffix)),
            np.concatenate((self.clean, more.clean)),
            self.empty_is_negative,
        )


def _agrees(signature: np.ndarray, rows: Rows) -> bool:
    """Whether a signature accepts exactly the positive strings."""
    bits = (signature[rows.accept_row] >> rows.accept_bit.astype(np.uint64)) & np.uint64(1)
    return bool(np.array_equal(bits.astype(np.bool_), rows.want))


def _largest_stored(levels: list[tuple[int, int]]) -> int:
    return max(size for size, (lo, hi) in enumerate(levels) if hi > lo)


_NONE = np.empty(0, dtype=np.int64)


def _operands(
    op: int, size: int, levels: list[tuple[int, int]], pruning: _Pruning | None
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Left and right operand lists of ``op`` for candidates of ``size``, pruned once goal-directed."""
    if op in (k.STAR, k.PLUS, k.OPTIONAL) or op >= k.REPEAT:
        if pruning is not None and op != k.PLUS and pruning.empty_is_negative:
            return
        yield np.arange(*levels[size - 1], dtype=np.int64), _NONE
        return
    for left_size in range(1, size - 1):
        lefts = np.arange(*levels[left_size], dtype=np.int64)
        rights = np.arange(*levels[size - 1 - left_size], dtype=np.int64)
        if pruning is not None:
            left_ok, right_ok = (
                (pruning.prefix, pruning.suffix)
                if op == k.CONCAT
                else (pruning.clean, pruning.clean)
            )
            lefts, rights = lefts[left_ok[lefts]], rights[right_ok[rights]]
        if lefts.size and rights.size:
            yield lefts, rights


def _chunks(lefts: np.ndarray, rights: np.ndarray, n_rows: int) -> Iterator[np.ndarray]:
    step = max(1, _ROWS_PER_CALL // (max(1, rights.size) * max(1, n_rows)))
    for i in range(0, lefts.size, step):
        yield lefts[i : i + step]


def _tree(space: Space, bank: _Bank, entry: int) -> Regex:
    """The regex of a stored entry."""
    kind = int(bank.kind[entry])
    if kind in (k.LEAF, k.EPSILON):
        return space.leaves[int(bank.left_of[entry])]
    return _node(space, bank, kind, int(bank.left_of[entry]), int(bank.right_of[entry]))


def _node(space: Space, bank: _Bank, op: int, left: int, right: int) -> Regex:
    """The regex of ``op`` over the stored entries ``left`` (and ``right`` when binary)."""
    if op == k.CONCAT:
        return concat(_tree(space, bank, left), _tree(space, bank, right))
    if op == k.UNION:
        return union(_tree(space, bank, left), _tree(space, bank, right))
    inner = _tree(space, bank, left)
    if op >= k.REPEAT:
        return Repeat(inner, op - k.REPEAT, op - k.REPEAT)
    if op == k.STAR:
        return Star(inner)
    return Plus(inner) if op == k.PLUS else Optional(inner)
