"""Subset construction: Thompson NFA → complete DFA, with assertions resolved exactly.

A DFA state is a pair (context, item set). The item set holds the NFA states a thread can be in
*before* the next character is known: CHAR, MATCH and unresolved ASSERT states, i.e. the ε-closure
stopped at assertions, because an assertion can only be decided once the next symbol is known
(:mod:`automata.building.assertions`). The context remembers just enough about the previous character for
the assertions that occur (nothing at all for the simple and extended dialects, so their
construction is the textbook one). An item is ``nfa_state * 2 + must_end``; ``must_end`` marks a
thread that crossed ``$`` before a final ``"\\n"`` and may only accept at the end.

To take the transition on class ``c`` the kernel first resolves assertions against the lookahead
bits of ``c`` (at most four distinct lookaheads, so this is cached per DFA state), then moves every
CHAR item whose set holds ``c`` and closes the result under ε. A state accepts when MATCH is
reachable with the end of text as lookahead. The empty item set is the dead state, so the result
is complete by construction.

Item sets are numbered through the shared interning table of :mod:`automata.jit._intern`, keyed by a
hash of (context, sorted items) and compared item by item on a hash match, and kept in one flat
array, so the kernel allocates nothing per state. It stops with a status code as soon
as the state count passes ``state_limit`` or the stored items pass a memory budget; the wrapper
turns that into :class:`StateLimitExceeded` long before memory runs out.
"""

from __future__ import annotations

import functools

import numpy as np

from automata.building import assertions
from automata.building.nfa import ASSERT, CHAR, MATCH, NFA, SPLIT
from automata.core.dfa import DFA
from automata.errors import DEFAULT_STATE_LIMIT, StateLimitExceeded
from automata.jit._intern import grown, grown_rows, home, mix, new_table, probe, rehashed
from automata.jit._jit import kernel
from automata.jit.arrays import BoolArray, Int8Array, Int64Array, IntArray

#: Stored NFA-state entries allowed per permitted DFA state (bounds memory: 4 bytes each).
ITEMS_PER_STATE = 256

_OK, _TOO_MANY_STATES, _TOO_MANY_ITEMS = 0, 1, 2
_AT_START = assertions.AT_START
_END = assertions.END
_PASS = assertions.PASS
_PASS_IF_FINAL_NEWLINE = assertions.PASS_IF_FINAL_NEWLINE


def determinize(nfa: NFA, *, state_limit: int = DEFAULT_STATE_LIMIT) -> DFA:
    """The subset-construction DFA of ``nfa`` (complete, start state 0, not minimal)."""
    kinds = nfa.assertions
    transitions, accepting, status = _subset(
        nfa.program,
        nfa.start,
        nfa.set_mask,
        assertions.lookahead_codes(nfa.alphabet, kinds),
        _verdicts(),
        assertions.context_mask(kinds),
        state_limit,
        state_limit * ITEMS_PER_STATE,
    )
    if status == _TOO_MANY_STATES:
        raise StateLimitExceeded("determinizing this regex (subset construction)", state_limit)
    if status == _TOO_MANY_ITEMS:
        raise StateLimitExceeded(
            "determinizing this regex (subset construction)",
            state_limit * ITEMS_PER_STATE,
            "stored NFA states",
        )
    return DFA(transitions, accepting, 0, nfa.alphabet)


@functools.cache
def _verdicts() -> Int8Array:
    return assertions.verdict_table()


@kernel
def _hash(context: int, items: IntArray, count: int) -> int:
    h = np.int64(context) * np.int64(-7046029254386353131)
    for i in range(count):
        h = (h ^ np.int64(items[i])) * np.int64(1099511628211)
    return mix(int(h ^ (h >> 29)))  # probes start from high bits: mix the low ones up into them


@kernel
def _closure(
    program: IntArray,
    seeds: IntArray,
    n_seeds: int,
    mark: Int64Array,
    gen: int,
    stack: IntArray,
    out: IntArray,
) -> int:
    """ε-closure of the seed items, stopped at CHAR/ASSERT/MATCH; sorted, deduplicated into ``out``."""
    top = 0
    for i in range(n_seeds):
        item = seeds[i]
        if mark[item] != gen:
            mark[item] = gen
            stack[top] = item
            top += 1
    count = 0
    while top > 0:
        top -= 1
        item = stack[top]
        state = item >> 1
        kind = program[state, 0]
        if kind == SPLIT:
            for field in range(1, 3):
                nxt = program[state, field]
                if nxt >= 0:
                    child = nxt * 2 + (item & 1)
                    if mark[child] != gen:
                        mark[child] = gen
                        stack[top] = child
                        top += 1
        elif kind == ASSERT or kind == MATCH or (kind == CHAR and item & 1 == 0):
            # A CHAR item marked must-end can never fire, so it is dropped here.
            out[count] = item
            count += 1
    gap = 1
    while 3 * gap + 1 < count:
        gap = 3 * gap + 1
    while (
        gap > 0
    ):  # Shell sort (insertion sort for tiny sets, the usual case): ``.sort()`` is slow to compile
        for i in range(gap, count):
            item = out[i]
            j = i
            while j >= gap and out[j - gap] > item:
                out[j] = out[j - gap]
                j -= gap
            out[j] = item
        gap //= 3
    # A free thread in a state subsumes a must-end thread in the same state.
    kept = 0
    for i in range(count):
        item = out[i]
        if item & 1 and kept > 0 and out[kept - 1] == item - 1:
            continue
        out[kept] = item
        kept += 1
    return kept


@kernel
def _resolve(
    program: IntArray,
    items: IntArray,
    lo: int,
    hi: int,
    context: int,
    lookahead: int,
    verdicts: Int8Array,
    mark: Int64Array,
    gen: int,
    stack: IntArray,
    out: IntArray,
) -> int:
    """CHAR items reachable from the free items once assertions meet ``lookahead``; an item's low
    bit says it crossed ``$`` before the final newline."""
    top = 0
    for i in range(lo, hi):
        item = items[i]
        if item & 1 == 0 and mark[item] != gen:
            mark[item] = gen
            stack[top] = item
            top += 1
    count = 0
    while top > 0:
        top -= 1
        item = stack[top]
        state = item >> 1
        kind = program[state, 0]
        nxt = -1
        if kind == CHAR:
            out[count] = item
            count += 1
        elif kind == SPLIT:
            for field in range(1, 3):
                target = program[state, field]
                if target >= 0:
                    child = target * 2 + (item & 1)
                    if mark[child] != gen:
                        mark[child] = gen
                        stack[top] = child
                        top += 1
        elif kind == ASSERT:
            verdict = verdicts[program[state, 2], context, lookahead]
            if verdict == _PASS:
                nxt = program[state, 1] * 2 + (item & 1)
            elif verdict == _PASS_IF_FINAL_NEWLINE:
                nxt = program[state, 1] * 2 + 1
        if nxt >= 0 and mark[nxt] != gen:
            mark[nxt] = gen
            stack[top] = nxt
            top += 1
    return count


@kernel
def _accepts_at_end(
    program: IntArray,
    items: IntArray,
    lo: int,
    hi: int,
    context: int,
    verdicts: Int8Array,
    mark: Int64Array,
    gen: int,
    stack: IntArray,
) -> bool:
    """Whether MATCH is reachable from the items with the end of text as lookahead (must-end
    marks no longer matter there)."""
    top = 0
    for i in range(lo, hi):
        state = items[i] >> 1
        if mark[2 * state] != gen:
            mark[2 * state] = gen
            stack[top] = 2 * state
            top += 1
    while top > 0:
        top -= 1
        state = stack[top] >> 1
        kind = program[state, 0]
        if kind == MATCH:
            return True
        if kind == SPLIT:
            n_targets = 2
        elif kind == ASSERT and verdicts[program[state, 2], context, _END] == _PASS:
            n_targets = 1
        else:
            continue
        for field in range(1, 1 + n_targets):
            target = program[state, field]
            if target >= 0 and mark[2 * target] != gen:
                mark[2 * target] = gen
                stack[top] = 2 * target
                top += 1
    return False


@kernel(limit="state_limit", refused=lambda result: result[2] == _TOO_MANY_STATES)
def _subset(
    program: IntArray,
    start: int,
    set_mask: BoolArray,
    lookahead: Int8Array,
    verdicts: Int8Array,
    context_mask: int,
    state_limit: int,
    item_limit: int,
) -> tuple[IntArray, BoolArray, int]:
    n_nfa = program.shape[0]
    n_classes = set_mask.shape[1]
    mark = np.zeros(2 * n_nfa, dtype=np.int64)
    gen = 0
    stack = np.empty(2 * n_nfa, dtype=np.int32)
    seeds = np.empty(2 * n_nfa, dtype=np.int32)
    fresh = np.empty(2 * n_nfa, dtype=np.int32)
    resolved = np.empty((4, 2 * n_nfa), dtype=np.int32)
    n_resolved = np.empty(4, dtype=np.int64)

    items = np.empty(1024, dtype=np.int32)
    bounds = np.zeros(65, dtype=np.int64)
    contexts = np.empty(64, dtype=np.int64)
    hashes = np.empty(64, dtype=np.int64)
    transitions = np.empty((64, n_classes), dtype=np.int32)
    table = new_table(64)
    n_states = 0

    # Source -1 is a virtual predecessor whose single transition leads to the start state.
    source = -1
    while source < n_states:
        for r in range(4):
            n_resolved[r] = -1
        for cls in range(n_classes if source >= 0 else 1):
            if source < 0:
                seeds[0] = 2 * start
                n_seeds = 1
                context = _AT_START & context_mask
            else:
                lo, hi = bounds[source], bounds[source + 1]
                code = lookahead[cls]
                if n_resolved[code] < 0:
                    gen += 1
                    n_resolved[code] = _resolve(
                        program,
                        items,
                        lo,
                        hi,
                        contexts[source],
                        code,
                        verdicts,
                        mark,
                        gen,
                        stack,
                        resolved[code],
                    )
                n_seeds = 0
                for i in range(n_resolved[code]):
                    item = resolved[code, i]
                    state = item >> 1
                    if set_mask[program[state, 2], cls]:
                        seeds[n_seeds] = program[state, 1] * 2 + (item & 1)
                        n_seeds += 1
                context = (code << 1) & context_mask
            gen += 1
            count = _closure(program, seeds, n_seeds, mark, gen, stack, fresh)

            h = _hash(context, fresh, count)
            slot, target = _find(table, h, context, fresh, count, hashes, contexts, bounds, items)
            if target < 0:
                if n_states >= state_limit:
                    return transitions[:0], np.zeros(0, dtype=np.bool_), _TOO_MANY_STATES
                if bounds[n_states] + count > item_limit:
                    return transitions[:0], np.zeros(0, dtype=np.bool_), _TOO_MANY_ITEMS
                target = n_states
                n_states += 1
                if n_states == contexts.shape[0]:
                    contexts = grown(contexts, 2 * n_states)
                    hashes = grown(hashes, 2 * n_states)
                    bounds = grown(bounds, 2 * n_states + 1)
                    transitions = grown_rows(transitions, 2 * n_states)
                base = bounds[target]
                if base + count > items.shape[0]:
                    items = grown(items, max(2 * items.shape[0], base + count))
                for i in range(
                    count
                ):  # a loop: ``a[i:j] = b[:n]`` brings a shape check slow to compile
                    items[base + i] = fresh[i]
                bounds[target + 1] = base + count
                contexts[target] = context
                hashes[target] = h
                table[slot] = target
                table = rehashed(table, hashes, n_states)
            if source >= 0:
                transitions[source, cls] = target
        source += 1

    accepting = np.empty(n_states, dtype=np.bool_)
    for state in range(n_states):
        gen += 1
        accepting[state] = _accepts_at_end(
            program,
            items,
            bounds[state],
            bounds[state + 1],
            contexts[state],
            verdicts,
            mark,
            gen,
            stack,
        )
    return transitions[:n_states].copy(), accepting, _OK


@kernel
def _find(
    table: IntArray,
    h: int,
    context: int,
    fresh: IntArray,
    count: int,
    hashes: Int64Array,
    contexts: Int64Array,
    bounds: Int64Array,
    items: IntArray,
) -> tuple[int, int]:
    """The slot of (context, fresh[:count]) in the table and its state, or a free slot and -1."""
    mask = table.shape[0] - 1
    slot = probe(table, hashes, h, home(table, h))
    while table[slot] >= 0:
        other = table[slot]
        if contexts[other] == context and bounds[other + 1] - bounds[other] == count:
            base = bounds[other]
            same = True
            for i in range(count):
                if items[base + i] != fresh[i]:
                    same = False
                    break
            if same:
                return slot, other
        slot = probe(table, hashes, h, (slot + 1) & mask)
    return slot, -1
