"""The hot loops of state merging, compiled: union-find, merge with determinization, undo,
insertion into the prefix tree, and the check of packed words on a table; the red-blue loop that
tries a merge for every red/blue pair calls them (:mod:`._redblue_kernels`).

They work in place on the arrays of a :class:`cegis.symbolic.merging.core.quotient.Quotient`, passed as one tuple
``tree = (succ, parent, label, depth, labeled_by, log, meta, stack, degree)``:

* ``succ[node, symbol]``: the child a tree node reads ``symbol`` into, ``-1`` for none (only the
  rows of representatives are current);
* ``parent``: the union-find forest; ``label``: ``UNKNOWN``/``REJECT``/``ACCEPT`` per
  representative; ``depth``: per tree node; ``labeled_by``: the example that labeled a node, or -1;
* ``log[i] = (kind, node, value)``: the undo log (0 parent, 1 label, 2 edge added, 3 node created);
* ``meta = [nodes, log length, conflict a, conflict b]``; ``stack``: scratch for merge's pairs;
* ``degree[node]``: the children in the row of ``node`` (kept with every edge added or taken back),
  so a row is read only up to its last child: a prefix tree of long lines has one child a node,
  and a merge folds thousands of them.

Evidence-driven merging tries every red/blue pair at every step, so a learner call runs hundreds of
thousands of trial merges: in Python they would be most of a learner's time.
"""

from __future__ import annotations

import numpy as np

from automata.jit._jit import kernel  # the project's one numba decorator (cached, with a fallback)
from automata.jit.arrays import BoolArray, Int8Array, Int64Array, IntArray

#: The arrays of a quotient, in the order the kernels unpack them.
Arrays = tuple[
    IntArray, IntArray, Int8Array, IntArray, IntArray, IntArray, Int64Array, IntArray, IntArray
]

UNKNOWN, REJECT, ACCEPT = -1, 0, 1
NODES, LOG, CONFLICT_A, CONFLICT_B = 0, 1, 2, 3
PARENT, LABEL, EDGE, NODE = 0, 1, 2, 3


def used(tree: Arrays, *rest: object) -> int:
    """The work of a call on ``tree``: the cells of the nodes it holds, not of the capacity its
    arrays are allocated with (which decides whether the call runs compiled, see :mod:`automata.jit._jit`)."""
    return int(tree[6][NODES]) * int(tree[0].shape[1])


@kernel
def find(parent: IntArray, node: int) -> int:
    """The representative of ``node``."""
    while parent[node] != node:
        node = parent[node]
    return node


@kernel(size=used)
def log_change(tree: Arrays, kind: int, node: int, value: int) -> None:
    """Append one change to the undo log."""
    log, meta = tree[5], tree[6]
    top = meta[LOG]
    log[top, 0] = kind
    log[top, 1] = node
    log[top, 2] = value
    meta[LOG] = top + 1


@kernel(size=used)
def merge(tree: Arrays, keep: int, absorb: int, met: IntArray | None) -> int:
    """Merge ``absorb`` into ``keep`` and close under determinization; the evidence score (pairs of
    equally labeled states merged), or -1 on a label conflict (then undo: the partial merge is
    logged, and ``meta`` holds the two conflicting states).

    ``met`` (or ``None``: numba then compiles a merge without it) receives the states the merge
    read, as they were before it: their count in ``met[0]``, and as many as fit after it. The
    merge is a function of those states' rows, labels and being representatives (a path to a
    representative never changes: only representatives get a parent), so a merge that met none of
    the states changed since gives the same result again
    (:func:`cegis.symbolic.merging.core._redblue_kernels.red_blue` keeps scores so)."""
    succ, parent, label, log, meta, stack = tree[0], tree[1], tree[2], tree[5], tree[6], tree[7]
    degree = tree[8]
    top = meta[
        LOG
    ]  # the undo log written here, not by :func:`log_change`: a call per change costs more than the change
    score = 0
    stack[0, 0] = keep
    stack[0, 1] = absorb
    pending = 1
    n_met = 0
    while pending:
        pending -= 1
        a = find(parent, stack[pending, 0])
        b = find(parent, stack[pending, 1])
        if met is not None:
            if n_met + 2 < met.shape[0]:
                met[n_met + 1] = a
                met[n_met + 2] = b
            n_met += 2
        if a == b:
            continue
        if label[b] != UNKNOWN:
            if label[a] == UNKNOWN:
                log[top, 0], log[top, 1], log[top, 2] = LABEL, a, UNKNOWN
                top += 1
                label[a] = label[b]
            elif label[a] != label[b]:
                meta[CONFLICT_A] = a
                meta[CONFLICT_B] = b
                meta[LOG] = top
                if met is not None:
                    met[0] = n_met
                return -1
            else:
                score += 1
        parent[b] = a
        log[top, 0], log[top, 1], log[top, 2] = PARENT, b, b
        top += 1
        left = degree[b]  # a != b: the edges added go to ``a``'s row, not this one
        for symbol in range(succ.shape[1]):
            if left == 0:
                break
            child = succ[b, symbol]
            if child < 0:
                continue
            left -= 1
            here = succ[a, symbol]
            if here < 0:
                succ[a, symbol] = child
                degree[a] += 1
                log[top, 0], log[top, 1], log[top, 2] = EDGE, a, symbol
                top += 1
            else:
                stack[pending, 0] = here
                stack[pending, 1] = child
                pending += 1
    meta[LOG] = top
    if met is not None:
        met[0] = n_met
    return score


@kernel(size=used)
def undo(tree: Arrays, mark: int) -> None:
    """Take back every change logged since ``mark``."""
    succ, parent, label, labeled_by, log, meta, degree = (
        tree[0],
        tree[1],
        tree[2],
        tree[4],
        tree[5],
        tree[6],
        tree[8],
    )
    top = meta[LOG]
    while top > mark:
        top -= 1
        kind, node, value = log[top, 0], log[top, 1], log[top, 2]
        if kind == PARENT:
            parent[node] = value
        elif kind == LABEL:
            label[node] = value
            labeled_by[node] = -1
        elif kind == EDGE:
            succ[node, value] = -1
            degree[node] -= 1
        else:  # the node created last
            succ[node, :] = -1
            degree[node] = 0
            parent[node] = node
            label[node] = UNKNOWN
            labeled_by[node] = -1
            meta[NODES] = node
    meta[LOG] = top


@kernel(size=used)
def insert_literals(
    tree: Arrays, symbols: IntArray, ends: Int64Array, accept: BoolArray, owners: IntArray
) -> tuple[int, int]:
    """Add the words of one symbol per position ``symbols[ends[w-1]:ends[w]]`` (0 first) in order,
    word ``w`` labeled ``accept[w]`` for example number ``owners[w]``, creating the nodes they
    need; ``(-1, -1)``, or the first word that meets a differently labeled state and that state
    (the words before it stay in)."""
    succ, parent = tree[0], tree[1]
    begin = 0
    for w in range(ends.shape[0]):
        node = 0
        for k in range(begin, ends[w]):
            node = find(parent, node)
            symbol = symbols[k]
            child = succ[node, symbol]
            if child < 0:
                child = new_node(tree, node)
                succ[node, symbol] = child
                tree[8][node] += 1
                log_change(tree, EDGE, node, symbol)
            node = child
        begin = ends[w]
        state = labeled(tree, node, accept[w], owners[w])
        if state >= 0:
            return w, state
    return -1, -1


@kernel(size=used)
def new_node(tree: Arrays, parent_node: int) -> int:
    """A new tree node one deeper than ``parent_node`` (logged)."""
    depth, meta = tree[3], tree[6]
    child = meta[NODES]
    meta[NODES] = child + 1
    depth[child] = depth[parent_node] + 1
    log_change(tree, NODE, child, 0)
    return int(child)


@kernel(size=used)
def labeled(tree: Arrays, node: int, accept: bool, owner: int) -> int:
    """Label the state of ``node`` as example number ``owner`` says (logged); -1, or that state
    when it is labeled otherwise."""
    parent, label, labeled_by = tree[1], tree[2], tree[4]
    state = find(parent, node)
    wanted = ACCEPT if accept else REJECT
    if label[state] == UNKNOWN:
        log_change(tree, LABEL, state, UNKNOWN)
        label[state] = wanted
        labeled_by[state] = owner
        return -1
    return -1 if label[state] == wanted else state


def _tied_work(tree: Arrays, classes: Int64Array, *rest: object) -> int:
    """The work of :func:`insert_tied`: the tree's cells and the classes it reads."""
    return used(tree) + int(classes.shape[0])


@kernel(size=_tied_work)
def insert_tied(
    tree: Arrays,
    classes: Int64Array,
    position_ends: Int64Array,
    word_ends: Int64Array,
    accept: BoolArray,
    owners: IntArray,
    first: int,
) -> int:
    """Add the words from number ``first`` on, in order, tying the classes of each position to one
    child: the children its classes already lead to are merged into the one of the smallest
    representative (the others in increasing order), or a new node is made, and every class of
    the position without a child leads there. Word ``w`` holds positions
    ``word_ends[w-1]..word_ends[w]`` (0 first), position ``p`` the classes
    ``classes[position_ends[p-1]:position_ends[p]]``, and is labeled ``accept[w]`` for example
    number ``owners[w]``. Returns the first word that makes two differently labeled states meet,
    its changes taken back (the words before it stay in), or -1."""
    succ, parent, meta = tree[0], tree[1], tree[6]
    known = np.empty(succ.shape[1], dtype=np.int64)
    for w in range(first, word_ends.shape[0]):
        mark = meta[LOG]
        clash = False
        node = 0
        for p in range(word_ends[w - 1] if w > 0 else 0, word_ends[w]):
            node = find(parent, node)
            n_known = 0
            for k in range(position_ends[p - 1] if p > 0 else 0, position_ends[p]):
                if succ[node, classes[k]] >= 0:
                    rep = find(parent, succ[node, classes[k]])
                    j = n_known  # insertion into the sorted distinct representatives
                    while j > 0 and known[j - 1] > rep:
                        j -= 1
                    if j > 0 and known[j - 1] == rep:
                        continue
                    for i in range(n_known, j, -1):
                        known[i] = known[i - 1]
                    known[j] = rep
                    n_known += 1
            if n_known:
                child = known[0]
                for i in range(1, n_known):
                    if merge(tree, child, known[i], None) < 0:
                        clash = True
                        break
                if clash:
                    break
                child = find(parent, child)
            else:
                child = new_node(tree, node)
            for k in range(position_ends[p - 1] if p > 0 else 0, position_ends[p]):
                if succ[node, classes[k]] < 0:
                    succ[node, classes[k]] = child
                    tree[8][node] += 1
                    log_change(tree, EDGE, node, classes[k])
            node = child
        if clash or labeled(tree, node, accept[w], owners[w]) >= 0:
            undo(tree, mark)
            return w
    return -1


@kernel
def misclassified(
    transitions: IntArray,
    accepting: BoolArray,
    start: int,
    symbols: Int64Array,
    position_ends: Int64Array,
    word_ends: Int64Array,
    labels: BoolArray,
    path: Int64Array,
) -> BoolArray:
    """Which symbolic words a DFA table gets wrong for some string, and such a string for each.

    The words are packed: word ``w`` holds positions ``word_ends[w-1]..word_ends[w]`` (0 first),
    position ``p`` the classes ``symbols[position_ends[p-1]:position_ends[p]]``. For each word the
    states each position can reach are followed, each reached first from the smallest state by
    the first class of the position; for a missed word ``path[p]`` is then the class read at each of
    its positions on the way to the smallest wrongly labeled state."""
    n = transitions.shape[0]
    missed = np.zeros(word_ends.shape[0], dtype=np.bool_)
    longest = 0
    first = 0
    for w in range(word_ends.shape[0]):
        longest = max(longest, word_ends[w] - first)
        first = word_ends[w]
    came_from = np.empty((longest, n), dtype=np.int64)
    read = np.empty((longest, n), dtype=np.int64)
    reached = np.zeros(n, dtype=np.bool_)
    following = np.zeros(n, dtype=np.bool_)
    first_position = 0
    for w in range(word_ends.shape[0]):
        for state in range(n):  # loops, not ``a[:] = b``, whose shape check numba compiles slowly
            reached[state] = False
        reached[start] = True
        length = word_ends[w] - first_position
        for k in range(length):
            p = first_position + k
            begin = position_ends[p - 1] if p > 0 else 0
            for state in range(n):
                following[state] = False
            for state in range(n):
                if reached[state]:
                    for j in range(begin, position_ends[p]):
                        target = transitions[state, symbols[j]]
                        if not following[target]:
                            following[target] = True
                            came_from[k, target] = state
                            read[k, target] = symbols[j]
            for state in range(n):
                reached[state] = following[state]
        wrong = -1
        for state in range(n):
            if reached[state] and accepting[state] != labels[w]:
                wrong = state
                break
        if wrong >= 0:
            missed[w] = True
            state = wrong
            for k in range(length - 1, -1, -1):
                path[first_position + k] = read[k, state]
                state = came_from[k, state]
        first_position = word_ends[w]
    return missed
