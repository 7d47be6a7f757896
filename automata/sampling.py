"""Drawing strings from a DFA's language: uniformly at random, or the shortest ones first.

Uniform sampling is *unranking*. The completion table of :mod:`automata.counting` says how many
accepted strings of length ``r`` leave each state, so the strings of length ``n`` can be numbered
``0..N-1`` (edges in a fixed order, characters of a class in code-point order), and a uniform
integer below ``N`` names a uniform string. Walking from the start state, the index picks the
outgoing edge group whose block of numbers contains it (a group of ``m`` characters leading to a
state with ``c`` completions owns ``m * c`` numbers), ``divmod`` by ``c`` splits it into the
character within the group and the index of the rest of the string. One exact random integer per
string, Python integers throughout, so uniformity holds however large the counts get (over Unicode
they pass 2**64 at length 4); randomness is an explicit ``numpy.random.Generator``.

Two modes. ``"uniform"`` is uniform over the strings themselves: a class of a thousand characters is
a thousand times as likely as a one-character class. ``"representatives"`` is uniform over the
strings spelled with each class's representative (its smallest character), every class counting
once: readable witnesses, one per distinct class sequence, so a Unicode "anything else" class does
not drown out the literal characters.

:func:`shortest` lists the shortest accepted representative strings in shortlex order, by a
depth-first walk per length pruned to states that can still accept in exactly the remaining steps.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator
from typing import Literal

import numpy as np

from automata.counting import Completions, completions, coreachable
from automata.dfa import DFA, BoolArray

Mode = Literal["uniform", "representatives"]
LengthDistribution = Literal["uniform", "proportional"]


def random_below(rng: np.random.Generator, n: int) -> int:
    """A uniform integer in ``0..n-1`` for any positive Python ``int`` ``n``."""
    if n <= 0:
        raise ValueError(f"no integer below {n}")
    if n < 2**63:
        return int(rng.integers(n))
    bits = n.bit_length()
    n_bytes = (bits + 7) // 8
    while True:
        value = int.from_bytes(rng.bytes(n_bytes), "little") >> (8 * n_bytes - bits)
        if value < n:
            return value


class _Unranker:
    """Maps indices ``0..count(n)-1`` to the accepted strings of length ``n``, bijectively."""

    def __init__(self, table: Completions) -> None:
        dfa = table.dfa
        alphabet = dfa.alphabet
        self.table = table
        self.per_class = table.per_class
        sizes = [1] * len(alphabet) if table.per_class else alphabet.sizes()
        self.representatives = [alphabet.representative(k) for k in range(len(alphabet))]
        self.class_starts = [[lo for lo, _ in c.intervals] for c in alphabet.classes]
        self.class_offsets = [_prefix_sums([hi - lo + 1 for lo, hi in c.intervals]) for c in alphabet.classes]
        # Per state: (target, group size, classes of the group, prefix sums of their sizes).
        self.groups: list[list[tuple[int, int, list[int], list[int]]]] = []
        for row in dfa.transitions.tolist():
            by_target: dict[int, list[int]] = {}
            for k, target in enumerate(row):
                by_target.setdefault(target, []).append(k)
            self.groups.append(
                [
                    (target, sum(sizes[k] for k in ks), ks, _prefix_sums([sizes[k] for k in ks]))
                    for target, ks in by_target.items()
                ]
            )

    def string(self, length: int, index: int) -> str:
        """The ``index``-th accepted string of ``length`` (0 <= index < count(length))."""
        rows = self.table.rows
        state = self.table.dfa.start
        chars: list[str] = []
        for remaining in range(length, 0, -1):
            below = rows[remaining - 1]
            for target, group_size, classes, offsets in self.groups[state]:
                tail = below[target]
                block = group_size * tail
                if index < block:
                    within, index = divmod(index, tail)
                    i = bisect_right(offsets, within) - 1
                    chars.append(self._char(classes[i], within - offsets[i]))
                    state = target
                    break
                index -= block
            else:
                raise IndexError("index beyond the number of accepted strings")
        return "".join(chars)

    def _char(self, cls: int, offset: int) -> str:
        if self.per_class:
            return self.representatives[cls]
        offsets = self.class_offsets[cls]
        i = bisect_right(offsets, offset) - 1
        return chr(self.class_starts[cls][i] + offset - offsets[i])


def _prefix_sums(values: list[int]) -> list[int]:
    sums = [0]
    for v in values[:-1]:
        sums.append(sums[-1] + v)
    return sums


def sample(dfa: DFA, length: int, rng: np.random.Generator, *, mode: Mode = "uniform") -> str | None:
    """One accepted string of exactly ``length``, uniform in ``mode``; None when there is none."""
    strings = sample_strings(dfa, 1, rng, min_len=length, max_len=length, mode=mode, unique=False)
    return strings[0] if strings else None


def sample_strings(
    dfa: DFA,
    n: int,
    rng: np.random.Generator,
    *,
    max_len: int = 32,
    min_len: int = 0,
    lengths: LengthDistribution = "uniform",
    mode: Mode = "uniform",
    unique: bool = True,
) -> list[str]:
    """Up to ``n`` accepted strings with lengths in ``min_len..max_len``.

    ``lengths="uniform"`` first draws a length uniformly among those that have strings, then a
    string of that length uniformly; ``"proportional"`` is uniform over all the strings in range.
    With ``unique`` the strings are distinct: a length leaves the draw once its strings are used up,
    and fewer than ``n`` come back when the language in range has fewer (or when ``8 * n + 64``
    draws in a row hit duplicates, which needs very skewed counts).
    """
    unranker = _Unranker(completions(dfa, max_len, per_class=mode == "representatives"))
    counts = unranker.table.by_length()
    available = [length for length in range(min_len, max_len + 1) if counts[length]]
    drawn = dict.fromkeys(available, 0)
    seen: set[str] = set()
    out: list[str] = []
    misses = 0
    while len(out) < n and available and misses <= 8 * n + 64:
        length = _pick_length(rng, available, counts, lengths)
        string = unranker.string(length, random_below(rng, counts[length]))
        if unique:
            if string in seen:
                misses += 1
                continue
            seen.add(string)
            drawn[length] += 1
            if drawn[length] == counts[length]:
                available.remove(length)
        out.append(string)
    return out


def _pick_length(rng: np.random.Generator, available: list[int], counts: list[int], how: LengthDistribution) -> int:
    if how == "uniform":
        return available[int(rng.integers(len(available)))]
    index = random_below(rng, sum(counts[length] for length in available))
    for length in available:
        if index < counts[length]:
            return length
        index -= counts[length]
    raise AssertionError("index below the total always lands in a length")


def shortest(dfa: DFA, k: int, *, max_len: int | None = None) -> list[str]:
    """The ``k`` shortest accepted strings over class representatives, in shortlex order."""
    alphabet = dfa.alphabet
    order = sorted(range(len(alphabet)), key=alphabet.representative)
    chars = [alphabet.representative(c) for c in order]
    table = dfa.transitions[:, order].tolist()
    live = coreachable(dfa)
    viable: list[BoolArray] = [dfa.accepting.copy()]  # viable[r][s]: accepts some string of length r from s
    reachable = np.zeros(dfa.n_states, dtype=np.bool_)  # states reached by some string of the current length
    reachable[dfa.start] = True
    out: list[str] = []
    length = 0
    while len(out) < k and (reachable & live).any() and (max_len is None or length <= max_len):
        viable.append(viable[-1][dfa.transitions].any(axis=1))
        if viable[length][dfa.start]:
            for string in _strings_of_length(dfa.start, length, table, chars, viable):
                out.append(string)
                if len(out) == k:
                    break
        following = np.zeros(dfa.n_states, dtype=np.bool_)
        following[dfa.transitions[reachable].ravel()] = True
        reachable = following
        length += 1
    return out


def _strings_of_length(
    state: int, length: int, table: list[list[int]], chars: list[str], viable: list[BoolArray]
) -> Iterator[str]:
    if length == 0:
        yield ""
        return
    below = viable[length - 1]
    for i, target in enumerate(table[state]):
        if below[target]:
            for rest in _strings_of_length(target, length - 1, table, chars, viable):
                yield chars[i] + rest
