"""The red-blue loop of state merging, compiled: the blue fringe, the merge loop, and the table.

:func:`red_blue` runs the whole blue-fringe loop of :func:`cegis.symbolic.merging.core.redblue.red_blue`
in one call over the quotient's arrays (:mod:`._kernels` holds their layout and the merge, undo and
insertion kernels it calls); :func:`red_table` writes the DFA of the red states. Evidence-driven
merging tries every red/blue pair at every step, hundreds of thousands of trial merges per learner
call, so the loop itself is compiled, not only each merge.

Numba's cache of this module holds the kernels of :mod:`._kernels` it calls compiled in, and it is
checked against this file's source alone: a change to those kernels (such as the merge writing its
undo log itself) is only run here once this file changes too, or the cache is cleared."""

from __future__ import annotations

import numpy as np

from automata.jit._jit import kernel  # the project's one numba decorator (cached, with a fallback)
from automata.jit.arrays import BoolArray, Int8Array, Int64Array, IntArray
from cegis.symbolic.merging.core._kernels import (
    ACCEPT,
    LOG,
    NODES,
    Arrays,
    find,
    merge,
    undo,
    used,
)


@kernel(size=used)
def blue_states(
    tree: Arrays,
    red: Int64Array,
    sinks: bool,
    positive: Int8Array,
    sink: BoolArray,
    owner: Int64Array,
) -> Int64Array:
    """The blue states (non-red successors of red ones) by depth, then number; with ``sinks`` only
    those from which acceptance is reachable. ``positive[s]``: 1 known to reach it, 0 unknown;
    ``sink[s]``: known not to, while no state its search saw (``owner``) changes; a search that
    finds no acceptance marks the states it saw ``owner[s] = blue`` (a sink they were marked for
    before loses its ``sink`` mark: one owner per state)."""
    succ, parent, label, depth, degree = tree[0], tree[1], tree[2], tree[3], tree[8]
    n = tree[6][NODES]  # the arrays are sized for the largest tree the examples could make
    is_red = np.zeros(n, dtype=np.bool_)
    for r in red:
        is_red[r] = True
    found = np.zeros(n, dtype=np.bool_)
    ordered = np.empty(n, dtype=np.int64)
    count = 0
    for r in red:
        left = degree[r]  # a row is read up to its last child
        for symbol in range(succ.shape[1]):
            if left == 0:
                break
            child = succ[r, symbol]
            if child >= 0:
                left -= 1
                blue = find(parent, child)
                if is_red[blue] or found[blue]:
                    continue
                found[blue] = True
                j = count  # insertion sort by (depth, number): numba compiles argsort slowly
                while j > 0 and (
                    depth[ordered[j - 1]] > depth[blue]
                    or (depth[ordered[j - 1]] == depth[blue] and ordered[j - 1] > blue)
                ):
                    ordered[j] = ordered[j - 1]
                    j -= 1
                ordered[j] = blue
                count += 1
    if not sinks:
        return ordered[:count].copy()
    seen = np.zeros(n, dtype=np.bool_)
    stack = np.empty(n, dtype=np.int64)
    visited = np.empty(n, dtype=np.int64)
    kept = 0
    for i in range(count):
        blue = ordered[i]
        if sink[blue]:
            continue
        if not positive[blue]:  # depth-first from ``blue`` to an accepting state, if any
            stack[0] = blue
            visited[0] = blue
            seen[blue] = True
            top, n_visited = 1, 1
            while top > 0:
                top -= 1
                current = stack[top]
                if label[current] == ACCEPT:
                    positive[blue] = 1
                    break
                left = degree[current]
                for symbol in range(succ.shape[1]):
                    if left == 0:
                        break
                    child = succ[current, symbol]
                    if child >= 0:
                        left -= 1
                        rep = find(parent, child)
                        if not seen[rep]:
                            seen[rep] = True
                            visited[n_visited] = rep
                            n_visited += 1
                            stack[top] = rep
                            top += 1
            for j in range(n_visited):
                s = visited[j]
                seen[s] = False
                if not positive[blue]:
                    if owner[s] >= 0 and owner[s] != blue:
                        sink[owner[s]] = False
                    owner[s] = blue
        if positive[blue]:
            ordered[kept] = blue
            kept += 1
        else:
            sink[blue] = True
    return ordered[:kept].copy()


#: Most states (with repeats) a trial merge may meet for its score to be kept (:func:`red_blue`).
MET = 1 << 12
#: The scores :func:`red_blue` keeps at once per tree node, and the (score, state met) links
#: between them and the states their merges met per score (all forgotten when either is full).
KEPT, LINKS = 8, 16


@kernel(size=used)
def red_blue(tree: Arrays, evidence: bool, sinks: bool, max_states: int) -> Int64Array:
    """Red-blue merging in place (see :func:`cegis.symbolic.merging.core.redblue.red_blue`); the red states, start
    first, or an empty array past ``max_states``.

    Each step either merges or promotes a blue state. With ``evidence`` (EDSM) it takes the
    best-scoring merge of any blue state (the first on a tie), or promotes the first blue state no
    red state accepts; without (RPNI) it merges the first blue state into the first red state that
    accepts it, or promotes it. (One kernel, not one per step: each kernel costs numba a quarter of
    a second to compile on a first run.)

    Merges that failed fail for good: later merges only coarsen the quotient, and a coarser one
    still unites the two differently labeled states. EDSM keeps them (``failed``: a row per red
    state, ``row[state]``, and a column per tree node; a red state without a row is tried every
    time). It keeps the score of a merge that succeeded too, linked to each state the merge met
    (:func:`._kernels.merge`): a merge taken drops the scores linked to the states it changes, and
    the others are what trying their merges again would give, so they are not tried (most pairs of
    a step were tried at the last one: hundreds of thousands of trials a learner call). A blue
    state that reaches no acceptance keeps not reaching it until a merge changes a state its search
    saw (every change is logged with its state): searched again only then."""
    parent, log, meta = tree[1], tree[5], tree[6]
    n = meta[NODES]
    red = np.empty(n + 1, dtype=np.int64)  # distinct representatives, so at most one per node
    red[0] = find(parent, 0)
    n_red = 1
    is_red = np.zeros(n, dtype=np.bool_)
    positive = np.zeros(n, dtype=np.int8)  # merging only adds paths: stays true
    row = np.empty(n, dtype=np.int64)
    owner = np.empty(n, dtype=np.int64)
    for i in range(n):  # loops: numba compiles ``np.full`` slowly
        row[i] = -1
        owner[i] = -1
    failed = np.zeros((2 * max_states + 2 if evidence else 0, n), dtype=np.bool_)
    rows = 0
    sink = np.zeros(n, dtype=np.bool_)
    # The scores kept: ``kept[row, blue]`` indexes them (unset cells hold anything: an index counts
    # only below ``n_kept`` and when its score is of that pair), ``alive`` while no state its merge
    # met changed. The links of a state start at ``first_link[s]`` and go on by ``next_link``.
    met = np.empty(MET if evidence else 0, dtype=np.int32)
    kept = np.empty((failed.shape[0], n), dtype=np.int32)
    most = KEPT * n if evidence else 0
    kept_row, kept_blue, kept_score = (
        np.empty(most, dtype=np.int64),
        np.empty(most, dtype=np.int64),
        np.empty(most, dtype=np.int64),
    )
    alive = np.empty(most, dtype=np.bool_)
    first_link = np.empty(n if evidence else 0, dtype=np.int64)
    for i in range(first_link.shape[0]):
        first_link[i] = -1
    link_score, next_link = (
        np.empty(LINKS * most, dtype=np.int32),
        np.empty(LINKS * most, dtype=np.int32),
    )
    linked = np.zeros(
        n if evidence else 0, dtype=np.int64
    )  # the trial that last linked a state, from 1
    n_kept, n_links, trials = 0, 0, 0
    while True:
        canonical = 0  # the representatives of the red states, first occurrences in order
        for i in range(n_red):
            rep = find(parent, red[i])
            if not is_red[rep]:
                is_red[rep] = True
                red[canonical] = rep
                canonical += 1
                if row[rep] < 0 and rows < failed.shape[0]:
                    row[rep] = rows
                    rows += 1
        for i in range(canonical):
            is_red[red[i]] = False
        n_red = canonical
        reds = red[:n_red].copy()
        blues = blue_states(tree, reds, sinks, positive, sink, owner)
        if blues.shape[0] == 0:
            return reds
        before = meta[LOG]
        promoted = -1
        best_score, best_red, best_blue = -1, -1, -1
        for b in range(blues.shape[0] if evidence else 1):
            blue = blues[b]
            mergeable = False
            for i in range(n_red):
                state = red[i]
                r = row[state]
                if r >= 0 and failed[r, blue]:
                    continue
                k = kept[r, blue] if r >= 0 else -1
                if 0 <= k < n_kept and kept_row[k] == r and kept_blue[k] == blue and alive[k]:
                    score = kept_score[k]
                else:
                    mark = meta[LOG]
                    score = (
                        merge(tree, state, blue, met)
                        if evidence
                        else merge(tree, state, blue, None)
                    )
                    undo(
                        tree, mark
                    )  # a trial: EDSM scores every pair first, RPNI redoes the first that fits
                    if score < 0 and r >= 0:
                        failed[r, blue] = True
                    if score >= 0 and r >= 0 and met[0] < MET:  # keep it, linked to the states met
                        if (
                            n_kept == most or n_links + met[0] > LINKS * most
                        ):  # full: forget them all
                            n_kept, n_links = 0, 0
                            for s in range(n):
                                first_link[s] = -1
                        trials += 1
                        for j in range(1, met[0] + 1):
                            s = met[j]
                            if linked[s] != trials:
                                linked[s] = trials
                                link_score[n_links], next_link[n_links] = n_kept, first_link[s]
                                first_link[s] = n_links
                                n_links += 1
                        kept_row[n_kept], kept_blue[n_kept], kept_score[n_kept] = r, blue, score
                        alive[n_kept] = True
                        kept[r, blue] = n_kept
                        n_kept += 1
                if score >= 0:
                    mergeable = True
                    if score > best_score:
                        best_score, best_red, best_blue = score, state, blue
                    if not evidence:
                        break
            if not mergeable:
                promoted = blue
                break
        if promoted >= 0:
            red[n_red] = promoted
            n_red += 1
            if n_red > max_states:
                return np.zeros(0, dtype=np.int64)
        else:
            merge(tree, best_red, best_blue, None)
            for i in range(before, meta[LOG]):  # the merge made
                s = log[i, 1]
                if owner[s] >= 0:
                    sink[owner[s]] = False
                if evidence:
                    j = first_link[s]
                    while j >= 0:
                        alive[link_score[j]] = False
                        j = next_link[j]
                    first_link[s] = -1


@kernel(size=used)
def red_table(tree: Arrays, red: Int64Array, similar: Int64Array, transitions: IntArray) -> None:
    """Fill the rows of the red states (in order) of a table whose last row is the rejecting sink:
    a symbol read from a red state leads to the red state it reaches, or to the sink; a symbol not
    read there follows the first symbol of its row of ``similar`` (-1 ends a row) that is read."""
    succ, parent = tree[0], tree[1]
    sink = red.shape[0]
    index = np.empty(tree[6][NODES], dtype=np.int64)
    for i in range(index.shape[0]):  # a loop: numba compiles ``np.full`` slowly
        index[i] = sink
    for i in range(sink):
        index[red[i]] = i
    width = succ.shape[1]
    for i in range(sink):
        state = red[i]
        for symbol in range(width):
            child = succ[state, symbol]
            if child >= 0:
                transitions[i, symbol] = index[find(parent, child)]
        for symbol in range(similar.shape[0]):
            if symbol < width and succ[state, symbol] >= 0:
                continue
            for k in range(similar.shape[1]):
                other = similar[symbol, k]
                if other < 0:
                    break
                if other < width and succ[state, other] >= 0:
                    transitions[i, symbol] = transitions[i, other]
                    break
