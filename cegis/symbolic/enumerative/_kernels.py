"""Numba kernels of the enumerative search: infix signatures, their composition and deduplication.

A candidate's *signature* says, for every example string ``w`` and every infix ``w[i:j]``, whether
the candidate's language contains that infix. It is stored as one ``uint64`` *row* per distinct
suffix ``u`` of the examples, bit ``j`` set when the prefix ``u[:j]`` matches (every infix is such a
prefix, and examples sharing a suffix share its row), so strings are at most 63 characters long.
Signatures compose exactly (the idea of Valizadeh & Berger, "Search-Based Regular Expression
Inference on a GPU", PLDI 2023): union is a bitwise or, concatenation a boolean matrix product
(split a suffix where the left operand matches, continue on the rest), star its reflexive-
transitive closure, ``x{n}`` ``n - 1`` products. So two candidates with equal signatures are
interchangeable in every context as far as the examples can tell, and the search keeps only the
first (smallest) of them: that is the observational-equivalence pruning, done here with an
open-addressing hash table over the bank.

One kernel call extends the bank by one operator applied to a list of left operands (and, for the
binary operators, a list of right operands): it computes each signature, checks the candidate
against the labels, and either stores it (when its signature is new) or only tests it (``store``
off: the goal-directed pass). It returns at the first consistent
candidate, since every candidate of one call has the same size.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from automata.jit._jit import kernel  # the project's one numba decorator (cached, with a fallback)

U64s = npt.NDArray[np.uint64]
I64s = npt.NDArray[np.int64]

# Node kinds of bank entries (also the operator codes of a kernel call). ``REPEAT + n`` is ``x{n}``.
LEAF, EPSILON, CONCAT, UNION, STAR, PLUS, OPTIONAL, REPEAT = 0, 1, 2, 3, 4, 5, 6, 7

# Status codes of :func:`extend`.
DONE, FOUND, FULL, SPENT = 0, 1, 2, 3

_FNV_OFFSET = np.uint64(0xCBF29CE484222325)
_FNV_PRIME = np.uint64(0x100000001B3)
_ONE = np.uint64(1)
_ZERO = np.uint64(0)


@kernel
def _concat(left: U64s, right: U64s, tail: I64s, out: U64s) -> None:
    """``out = left · right``: for each split point ``k`` of a suffix that ``left`` matches up to,
    what ``right`` matches on the rest of the suffix, shifted by ``k``."""
    for r in range(left.shape[0]):
        m = left[r]
        acc = _ZERO
        k = np.uint64(0)
        t = r
        while m:
            if m & _ONE:
                acc |= right[t] << k
            m >>= _ONE
            if m:
                k += _ONE
                t = tail[t]
        out[r] = acc


@kernel
def _star(inner: U64s, tail: I64s, out: U64s) -> None:
    """``out = inner*``: a suffix matches ε, and every non-empty match of ``inner`` followed by a
    match of ``inner*`` on the rest (rows come shortest first, so the rest is already done)."""
    for r in range(inner.shape[0]):
        acc = _ONE
        m = inner[r] >> _ONE
        k = _ONE
        t = tail[r]
        while m:
            if m & _ONE:
                acc |= out[t] << k
            m >>= _ONE
            if m:
                k += _ONE
                t = tail[t]
        out[r] = acc


@kernel
def _signature(op: int, a: U64s, b: U64s, tail: I64s, out: U64s, tmp: U64s) -> None:
    """The signature of ``op`` applied to ``a`` (and ``b`` for the binary operators), into ``out``."""
    if op == CONCAT:
        _concat(a, b, tail, out)
    elif op == UNION:
        for r in range(a.shape[0]):
            out[r] = a[r] | b[r]
    elif op == STAR:
        _star(a, tail, out)
    elif op == PLUS:
        _star(a, tail, tmp)
        _concat(a, tmp, tail, out)
    elif op == OPTIONAL:
        for r in range(a.shape[0]):
            out[r] = a[r] | _ONE
    else:  # REPEAT + n: n - 1 concatenations, alternating between the two buffers
        for r in range(a.shape[0]):  # loops, not ``out[:] = a``, whose shape check compiles slowly
            out[r] = a[r]
        for _ in range(op - REPEAT - 1):
            for r in range(a.shape[0]):
                tmp[r] = out[r]
            _concat(a, tmp, tail, out)


@kernel
def _hash(sig: U64s) -> np.uint64:
    h = _FNV_OFFSET
    for r in range(sig.shape[0]):
        h = (h ^ sig[r]) * _FNV_PRIME
    h ^= h >> np.uint64(29)
    return h


@kernel
def _consistent(sig: U64s, accept_row: I64s, accept_bit: I64s, want: npt.NDArray[np.bool_]) -> bool:
    for e in range(accept_row.shape[0]):
        if bool((sig[accept_row[e]] >> np.uint64(accept_bit[e])) & _ONE) != want[e]:
            return False
    return True


@kernel
def _lookup(sig: U64s, h: np.uint64, bank: U64s, hashes: U64s, table: I64s) -> int:
    """The table slot holding ``sig``'s entry (>= 0), or ``-slot - 1`` for the free slot to use."""
    mask = np.int64(table.shape[0] - 1)
    slot = np.int64(h & np.uint64(mask))
    while True:
        j = table[slot]
        if j < 0:
            return int(-slot - 1)
        if hashes[j] == h:
            same = True
            for r in range(sig.shape[0]):
                if bank[j, r] != sig[r]:
                    same = False
                    break
            if same:
                return int(slot)
        slot = (slot + np.int64(1)) & mask


@kernel
def insert(sig: U64s, n: int, bank: U64s, hashes: U64s, table: I64s) -> bool:
    """Store ``sig`` as entry ``n`` when it is new; whether it was."""
    h = _hash(sig)
    found = _lookup(sig, h, bank, hashes, table)
    if found >= 0:
        return False
    for r in range(
        sig.shape[0]
    ):  # a loop: ``bank[n, :] = sig`` compiles numba's shape-error message (1 s)
        bank[n, r] = sig[r]
    hashes[n] = h
    table[-found - 1] = n
    return True


@kernel
def _allowed(op: int, a: int, b: int, kind: I64s, epsilon_options: bool) -> bool:
    """Syntactic pruning that never loses a smallest regex: concatenations and unions are built
    right-nested (``a`` not of the same kind), concatenations without ε operands, unions with ε
    only as ``epsilon|x`` where the dialect has no ``x?`` (``epsilon_options``; ε is entry 0, so
    bank order puts it on the left), a union of two non-unions only in bank order, no unary operator
    over ε or ``x*``, and none of ``*``, ``+``, ``?`` over ``x+`` or ``x?`` (``(x?)*`` is ``x*``,
    ``(x+)?`` is ``x*``, …); counted repetitions of ``x+``, ``x?`` and ``x{m}`` stay."""
    ka = kind[a]
    if op == CONCAT or op == UNION:
        kb = kind[b]
        if ka == op or kb == EPSILON or (ka == EPSILON and not (op == UNION and epsilon_options)):
            return False
        return not (op == UNION and kb != UNION and a >= b)
    if op >= REPEAT:
        return bool(ka != EPSILON and ka != STAR)
    return bool(ka != EPSILON and ka != STAR and ka != PLUS and ka != OPTIONAL)


@kernel
def extend(
    op: int,
    lefts: I64s,
    rights: I64s,
    bank: U64s,
    hashes: U64s,
    table: I64s,
    kind: I64s,
    left_of: I64s,
    right_of: I64s,
    n: int,
    store: bool,
    budget: int,
    epsilon_options: bool,
    tail: I64s,
    accept_row: I64s,
    accept_bit: I64s,
    want: npt.NDArray[np.bool_],
) -> tuple[int, int, int, int, int]:
    """Apply ``op`` to every allowed operand pair (or operand, for unary ``op``).

    Returns ``(status, n, computed, a, b)``: the new bank size, how many signatures were computed,
    and on ``FOUND`` the operands of the first consistent candidate (stored as entry ``n - 1``
    when ``store``). ``FULL`` means the bank ran out of rows, ``SPENT`` that ``budget``
    signatures were computed, both with the pairs before it done.
    """
    rows = bank.shape[1]
    out = np.empty(rows, dtype=np.uint64)
    tmp = np.empty(rows, dtype=np.uint64)
    computed = 0
    unary = op == STAR or op == PLUS or op == OPTIONAL or op >= REPEAT
    n_right = 1 if unary else rights.shape[0]
    for ia in range(lefts.shape[0]):
        a = lefts[ia]
        for ib in range(n_right):
            b = a if unary else rights[ib]
            if not _allowed(op, a, b, kind, epsilon_options):
                continue
            if computed >= budget:
                return SPENT, n, computed, -1, -1
            if store and n >= bank.shape[0]:
                return FULL, n, computed, -1, -1
            _signature(op, bank[a], bank[b], tail, out, tmp)
            computed += 1
            if store:
                if not insert(out, n, bank, hashes, table):
                    continue
                kind[n] = op
                left_of[n] = a
                right_of[n] = b
                n += 1
            if _consistent(out, accept_row, accept_bit, want):
                return FOUND, n, computed, a, b
    return DONE, n, computed, -1, -1


@kernel
def approximations(
    bank: U64s,
    lo: int,
    hi: int,
    tail: I64s,
    accept_row: I64s,
    accept_bit: I64s,
    want: npt.NDArray[np.bool_],
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """Per stored entry ``x`` from ``lo`` to ``hi``: whether ``x·Σ*`` and ``Σ*·x`` accept every
    positive string, and whether ``x`` rejects every negative one (each check stops at the first
    string that fails)."""
    prefix = np.ones(hi - lo, dtype=np.bool_)
    suffix = np.ones(hi - lo, dtype=np.bool_)
    clean = np.ones(hi - lo, dtype=np.bool_)
    for i in range(hi - lo):
        j = lo + i
        for e in range(accept_row.shape[0]):
            row = accept_row[e]
            if not want[e]:
                if clean[i] and (bank[j, row] >> np.uint64(accept_bit[e])) & _ONE:
                    clean[i] = False
                continue
            if prefix[i] and bank[j, row] == _ZERO:
                prefix[i] = False
            if suffix[i]:
                rest = accept_bit[e]  # the suffix of this row is the string's last ``rest`` atoms
                while row >= 0 and not (bank[j, row] >> np.uint64(rest)) & _ONE:
                    row = tail[row]
                    rest -= 1
                suffix[i] = row >= 0
    return prefix, suffix, clean
