"""The numba kernel behind :func:`automata.strings.sampling.shortest`: the first strings of a DFA in shortlex order.

Why a kernel: a teacher or a benchmark lists a few hundred strings, and in Python each one costs a
microsecond of set lookups and joins; compiled, the whole listing costs about as much as building
the Python strings from the code points it returns.

How (the same answer as the set-based Python listing it replaced): walk forward length by length,
keeping the *live* states each length reaches (stored flat, one layer after another, so memory is
the (length, state) pairs kept, never a dense table per length). At a length ``n`` where some
state of the last layer accepts, count backward the strings of exactly the remaining length each
state of each layer accepts (capped at the ``need`` strings still wanted, so the counts stay
small), then extend prefixes breadth first, edges in code point order, keeping at each level only
the prefixes of the first ``need`` strings: a prefix's completions come before those of every later
prefix, so the counts say where to stop. The cost is the output's prefixes, however many strings
of that length there are.

The loops live in small kernels that take their arrays as arguments: in one large function that
also reassigns the arrays it grows, numba's code for them ran five times slower.
"""

from __future__ import annotations

import numpy as np

from automata.jit._jit import kernel
from automata.jit.arrays import BoolArray, Int64Array, IntArray

OK = 0
TOO_MANY_CELLS = 1


@kernel
def _grown(array: Int64Array, needed: int) -> Int64Array:
    """``array``, or a copy twice as long when ``needed`` elements do not fit."""
    if needed <= array.size:
        return array
    bigger = np.empty(max(needed, 2 * array.size), dtype=np.int64)
    for i in range(array.size):
        bigger[i] = array[i]
    return bigger


@kernel
def live_states(transitions: IntArray, accepting: BoolArray) -> BoolArray:
    """The states from which an accepting state can be reached: a reverse search from those, over
    predecessor lists sorted into one array by target (a counting sort)."""
    n_states, n_classes = transitions.shape
    first = np.zeros(n_states + 1, dtype=np.int64)
    for s in range(n_states):
        for c in range(n_classes):
            first[transitions[s, c] + 1] += 1
    for s in range(n_states):
        first[s + 1] += first[s]
    fill = np.empty(n_states, dtype=np.int64)
    for s in range(n_states):
        fill[s] = first[s]
    predecessors = np.empty(n_states * n_classes, dtype=np.int64)
    for s in range(n_states):
        for c in range(n_classes):
            t = transitions[s, c]
            predecessors[fill[t]] = s
            fill[t] += 1
    live = np.zeros(n_states, dtype=np.bool_)
    frontier = np.empty(n_states, dtype=np.int64)
    top = 0
    for s in range(n_states):
        if accepting[s]:
            live[s] = True
            frontier[top] = s
            top += 1
    while top > 0:
        top -= 1
        t = frontier[top]
        for i in range(first[t], first[t + 1]):
            s = predecessors[i]
            if not live[s]:
                live[s] = True
                frontier[top] = s
                top += 1
    return live


@kernel
def _next_layer(
    transitions: IntArray,
    live: BoolArray,
    cells: Int64Array,
    begin: int,
    end: int,
    mark: Int64Array,
    tick: int,
) -> int:
    """Append to ``cells`` (room for ``n_states`` more after ``end``) the live states that
    ``cells[begin:end]`` reach, each once; the new end."""
    n_cells = end
    for i in range(begin, end):
        s = cells[i]
        for c in range(transitions.shape[1]):
            t = transitions[s, c]
            if live[t] and mark[t] != tick:
                mark[t] = tick
                cells[n_cells] = t
                n_cells += 1
    return n_cells


@kernel
def _count_back(
    transitions: IntArray,
    accepting: BoolArray,
    edges: Int64Array,
    cells: Int64Array,
    bounds: Int64Array,
    n_layers: int,
    need: int,
    completions: Int64Array,
    mark: Int64Array,
    value: Int64Array,
    tick: int,
) -> int:
    """Per cell, the strings of exactly the remaining length its state accepts (the last layer's
    length), capped at ``need``. ``value[s]`` carries the counts of the layer after the one being
    counted (``mark[s]`` says which); the last tick used."""
    tick += 1
    for i in range(bounds[n_layers - 1], bounds[n_layers]):
        completions[i] = 1 if accepting[cells[i]] else 0
        mark[cells[i]] = tick
        value[cells[i]] = completions[i]
    for layer in range(n_layers - 2, -1, -1):
        tick += 1
        for i in range(bounds[layer], bounds[layer + 1]):
            s = cells[i]
            total = 0
            for e in range(edges.shape[0]):
                t = transitions[s, edges[e, 2]]
                if mark[t] == tick - 1 and total < need:
                    total = min(need, total + (edges[e, 1] - edges[e, 0] + 1) * value[t])
            completions[i] = total
        for i in range(bounds[layer], bounds[layer + 1]):
            mark[cells[i]] = tick
            value[cells[i]] = completions[i]
    return tick


@kernel
def _extend(
    transitions: IntArray,
    edges: Int64Array,
    entries: Int64Array,
    level_begin: int,
    level_end: int,
    need: int,
    mark: Int64Array,
    value: Int64Array,
    tick: int,
) -> int:
    """Append to ``entries`` (rows: state, parent, code point; room for ``need`` more) the children
    of the prefixes ``level_begin..level_end`` that the first ``need`` strings go through, in
    order; ``value[s]`` is the strings each child state completes (where ``mark[s] == tick``).
    The new end."""
    n_entries = level_end
    left = need  # strings still to cover at this level
    for j in range(level_begin, level_end):
        s = entries[j, 0]
        for e in range(edges.shape[0]):
            t = transitions[s, edges[e, 2]]
            if mark[t] != tick or value[t] == 0:
                continue
            code = edges[e, 0]
            while code <= edges[e, 1] and left > 0:
                entries[n_entries, 0] = t
                entries[n_entries, 1] = j
                entries[n_entries, 2] = code
                n_entries += 1
                left -= value[t]
                code += 1
            if left <= 0:
                return n_entries
    return n_entries


@kernel
def _spell(
    entries: Int64Array,
    level_begin: int,
    level_end: int,
    length: int,
    separator: int,
    codes: Int64Array,
    n_codes: int,
    ends: Int64Array,
    n_out: int,
) -> int:
    """Write the strings the entries ``level_begin..level_end`` end, each followed by
    ``separator``, into ``codes`` from ``n_codes`` (and where each ends into ``ends`` from
    ``n_out``); the new ``n_codes``."""
    for j in range(level_begin, level_end):
        position = n_codes + length
        codes[position] = separator
        entry = j
        while entries[entry, 1] >= 0:
            position -= 1
            codes[position] = entries[entry, 2]
            entry = entries[entry, 1]
        ends[n_out] = n_codes + length
        n_codes += length + 1
        n_out += 1
    return n_codes


@kernel
def shortest_codes(
    transitions: IntArray,
    accepting: BoolArray,
    start: int,
    edges: Int64Array,
    k: int,
    max_len: int,
    max_cells: int,
    separator: int,
) -> tuple[int, int, Int64Array, int, Int64Array]:
    """The first ``k`` accepted strings of at most ``max_len`` characters (no bound when negative),
    shortest first and then by code point, spelled with the characters ``edges[e, 0]..edges[e, 1]``
    of class ``edges[e, 2]`` (rows sorted by first character, disjoint).

    Returns ``(status, length, codes, cells, ends)``: ``codes`` holds each string followed by
    ``separator``, ``ends`` the index one past each string; with ``TOO_MANY_CELLS``, ``cells``
    (length, state) pairs, more than ``max_cells``, were needed to reach ``length``.
    """
    n_states = transitions.shape[0]
    live = live_states(transitions, accepting)
    mark = np.empty(n_states, dtype=np.int64)  # mark[s] == tick: s is in the set being built
    for s in range(n_states):
        mark[s] = -1
    value = np.empty(
        n_states, dtype=np.int64
    )  # value[s]: the completions of s where mark[s] == tick
    tick = 0
    cells = np.empty(n_states + 1, dtype=np.int64)  # the layers, one after another
    bounds = np.zeros(16, dtype=np.int64)  # layer i is cells[bounds[i]:bounds[i + 1]]
    completions = np.empty(16, dtype=np.int64)  # per cell: strings of the current length from it
    n_cells = 0
    if live[start]:
        cells[0] = start
        n_cells = 1
    n_layers = 0
    codes = np.empty(64, dtype=np.int64)
    n_codes = 0
    ends = np.empty(16, dtype=np.int64)
    n_out = 0
    entries = np.empty(
        (16, 3), dtype=np.int64
    )  # prefixes of the current length: state, parent, code
    while n_out < k and n_cells > bounds[n_layers] and (max_len < 0 or n_layers <= max_len):
        if n_cells > max_cells:
            return TOO_MANY_CELLS, n_layers, codes[:0], n_cells, ends[:0]
        n_layers += 1
        bounds = _grown(bounds, n_layers + 1)
        bounds[n_layers] = n_cells
        begin = bounds[n_layers - 1]
        accepts = False
        for i in range(begin, n_cells):
            if accepting[cells[i]]:
                accepts = True
        if accepts:
            need = k - n_out
            length = n_layers - 1
            completions = _grown(completions, n_cells)
            tick = _count_back(
                transitions,
                accepting,
                edges,
                cells,
                bounds,
                n_layers,
                need,
                completions,
                mark,
                value,
                tick,
            )
            entries[0, 0] = start
            entries[0, 1] = -1
            entries[0, 2] = -1
            level_begin, level_end = 0, 1
            for depth in range(length):
                tick += 1
                for i in range(bounds[depth + 1], bounds[depth + 2]):
                    mark[cells[i]] = tick
                    value[cells[i]] = completions[i]
                if level_end + need > entries.shape[0]:
                    bigger = np.empty(
                        (max(level_end + need, 2 * entries.shape[0]), 3), dtype=np.int64
                    )
                    for i in range(level_end):
                        for f in range(3):
                            bigger[i, f] = entries[i, f]
                    entries = bigger
                level_begin, level_end = (
                    level_end,
                    _extend(
                        transitions, edges, entries, level_begin, level_end, need, mark, value, tick
                    ),
                )
            found = level_end - level_begin
            codes = _grown(codes, n_codes + found * (length + 1))
            ends = _grown(ends, n_out + found)
            n_codes = _spell(
                entries, level_begin, level_end, length, separator, codes, n_codes, ends, n_out
            )
            n_out += found
        tick += 1
        cells = _grown(cells, n_cells + n_states)
        n_cells = _next_layer(transitions, live, cells, begin, bounds[n_layers], mark, tick)
    return OK, n_layers, codes[:n_codes], n_cells, ends[:n_out]
