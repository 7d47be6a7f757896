"""Description length (MDL) of a hypothesis: the bits of its automaton or regex parts plus the
bits that name each positive among the accepted strings of its length, or along its path through
the hypothesis where that is shorter (:mod:`.paths`).

The merging learner proposes the consistent candidate of the shortest description: small hypotheses
generalize better from the same evidence (Occam) and read better; the data term keeps a small
hypothesis from explaining a coincidence (hundreds of positives containing ``New#Zealand``)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import numpy as np

from automata.algebra.ops import dead_state
from automata.core.alphabet import Alphabet
from automata.core.dfa import DFA
from automata.errors import SizeLimitExceeded
from automata.jit.arrays import IntArray
from automata.printing.to_regex import to_regex
from automata.strings.counting import count_by_length, log_count_by_length
from cegis.symbolic.merging.candidate import Candidate, automaton_of
from cegis.symbolic.merging.core.run_cache import RunCache
from cegis.symbolic.merging.families.prior import NAMED
from cegis.symbolic.merging.rounds.paths import path_bits
from cegis.symbolic.merging.rounds.pumping import unpumped_loops
from regexlang.ast import (
    Chars,
    Complement,
    Concat,
    Intersection,
    Regex,
    Repeat,
    Star,
    Union,
    children,
    concat,
)
from regexlang.charset import CharSet

#: What a loop that no positive pumps (:mod:`cegis.symbolic.merging.rounds.pumping`) costs a hypothesis, in
#: states: a loop the data never asked for is a generalization, and a finite target is then learned
#: as the words it is rather than refuted one loop at a time. A hypothesis spelled from a template
#: (shared factors, counted repetition) has its template's loops, not merges, and pays no such cost.
UNPUMPED_COST = 3


def score(
    dfa: DFA,
    positives: Sequence[str],
    cache: RunCache,
    spelled: Regex | None = None,
    written: bool = False,
) -> tuple[float, int, int]:
    """The description length (MDL) in bits: the automaton (:func:`automaton_bits`, or the
    automata of the parts of ``spelled`` when fewer, :func:`parts_bits`; each loop no positive
    pumps counted as :data:`UNPUMPED_COST` more states of the average cost), then each positive as
    one of the strings of its length the hypothesis accepts. With ``written`` (plain examples read
    through the class prior) the automaton may be described by its regex (:func:`regex_bits`, so
    ``[0-9]{5}`` costs one class and a count), and each positive's length is named among the
    lengths up to the longest positive's that the hypothesis accepts (a hypothesis that accepts
    lengths the positives never show pays for it on every positive); or, when shorter, each
    positive is named along its path (:func:`.paths.path_bits`: a record's hex field costs four
    bits a digit however wide its free-text field). Only with ``written``: a path names where its
    string ends, and only then does the other code name the lengths too. On a tie, fewer
    unpumped loops, then
    fewer transitions off each row's first target. The run's ``cache`` remembers the parts: the
    same words, gaps and edges recur in many hypotheses, epoch after epoch."""
    unpumped = unpumped_loops(dfa, positives)
    dead = dead_state(dfa)
    live = [state for state in range(dfa.n_states) if state != dead]
    bits = automaton_bits(dfa, live, cache)
    if live:
        bits *= (len(live) + UNPUMPED_COST * unpumped) / len(live)
    if isinstance(spelled, (Intersection, Complement, Union, Concat, Repeat)):
        bits = min(bits, parts_bits(spelled, dfa.alphabet.universe, cache))
    counts = log_counts(dfa, max(map(len, positives), default=0))
    data_bits = sum(counts[len(p)] or 0.0 for p in positives if counts[len(p)] is not None)
    if written:
        bits = min(
            bits,
            _written_bits(dfa, cache) * (len(live) + UNPUMPED_COST * unpumped) / max(1, len(live)),
        )
        if spelled is not None:
            bits = min(bits, regex_bits(spelled, dfa.alphabet.universe, cache))
        shown = sum(1 for count in counts if count is not None)
        data_bits += len(positives) * math.log2(max(1, shown))
        data_bits = min(data_bits, path_bits(dfa, positives))
    changes = int((dfa.transitions != dfa.transitions[:, :1]).sum())
    return bits + data_bits, unpumped, changes


#: Longest positive for which the counts are exact: past it each count is a big number of
#: hundreds of digits, and the exact table of even a small automaton took seconds (three positives
#: of 5,700 characters: four minutes of a call's five; a 6-state hypothesis over access-log lines
#: of 800 characters, 15 ms against 0.2 ms), so the counts are carried as floats.
EXACT_LENGTH = 200


def log_counts(dfa: DFA, longest: int) -> list[float | None]:
    """The log2 of how many strings of each length ``0..longest`` ``dfa`` accepts (None: none).
    Exact (:func:`automata.strings.counting.count_by_length`) up to :data:`EXACT_LENGTH` while
    the table is affordable; past that (examples of thousands of characters) carried as floats
    scaled at every length (:func:`automata.strings.counting.log_count_by_length`), so learning
    from long strings never depends on a bound over the longest one's length."""
    if longest <= EXACT_LENGTH:
        try:
            return [math.log2(count) if count else None for count in count_by_length(dfa, longest)]
        except SizeLimitExceeded:
            pass
    return log_count_by_length(dfa, longest)


def description_length(
    candidate: Candidate, positives: Sequence[str], cache: RunCache, written: bool = False
) -> tuple[float, int, int]:
    """The description length of ``candidate`` (:func:`score` of its automaton and spelled regex):
    the key the rounds rank candidates by, computed where they are ranked."""
    return score(candidate.automaton, positives, cache, candidate.regex, written)


def parts_bits(regex: Regex, universe: CharSet, cache: RunCache) -> float:
    """The bits of ``regex`` written as its boolean operators and its gaps of any string over
    minimal automata: a product (``.*Westbury.* & .*[0-9].*``, 18 states) is described by its
    two factors, a complement by what it complements, and ``.*ugly.*(betty|thomas).*`` by the
    automata of ``ugly`` and of ``betty|thomas`` and three one-state gaps, not by the fifteen
    states whose fallback edges spell where a partial match resumes; a counted repetition by what
    it repeats and its bounds, not by the copies its automaton unrolls. Remembered in ``cache``."""
    return cache(_parts_bits, regex, universe, cache)


def _parts_bits(regex: Regex, universe: CharSet, cache: RunCache) -> float:
    if isinstance(regex, Complement):
        return parts_bits(regex.inner, universe, cache)
    if isinstance(regex, (Intersection, Union)):
        parts = regex.parts if isinstance(regex, Intersection) else regex.options
        return sum(parts_bits(part, universe, cache) for part in parts)
    if isinstance(regex, Repeat):
        inner = parts_bits(regex.inner, universe, cache)
        return inner + number_bits(regex.min) + number_bits(regex.max)
    gap = Star(Chars(universe))

    def apart(part: Regex) -> bool:
        return part == gap or isinstance(part, Repeat)

    if isinstance(regex, Concat) and any(map(apart, regex.parts)):
        groups = [
            list(group) if alone else [concat(*group)]
            for alone, group in itertools.groupby(regex.parts, apart)
        ]
        return sum(parts_bits(part, universe, cache) for group in groups for part in group)
    dfa = automaton_of(regex, universe, cache)
    dead = dead_state(dfa)
    return automaton_bits(dfa, [state for state in range(dfa.n_states) if state != dead], cache)


def number_bits(number: int | None) -> float:
    """Bits of a repetition bound (Elias gamma; one bit for "unbounded")."""
    return 1.0 if number is None else 2 * math.floor(math.log2(number + 1)) + 1


def automaton_bits(dfa: DFA, live: Sequence[int], cache: RunCache) -> float:
    """Bits that spell the live states of ``dfa`` as a regex writer would: per state, whether it
    accepts, how many edges leave it, and each edge's target and character set, except that the
    costliest set is "every other character" and free. A set costs the characters and ranges that
    spell it or its complement (a range two ends), each a character of the universe: ``e`` and
    ``[^e]`` cost one, ``[A-Za-z]`` three (its complement ``[#0-9]``). So a word costs its letters,
    and a state of a table over many classes no more than the edges it really has (the costs of
    each way of grouping a row's classes remembered in ``cache``: rows of a template's chain group
    them alike, and the same groupings recur in every candidate of a call)."""
    alphabet = dfa.alphabet
    char_bits = math.log2(len(alphabet.universe) + 1)
    target_bits = math.log2(len(live) + 1)  # a live state or the dead one
    rows = np.asarray(dfa.transitions[list(live)], dtype=np.int32)
    keys = [row.tobytes() for row in first_classes(rows)]
    costs = {key: cache(_row_costs, alphabet, key, char_bits, limit=1 << 16) for key in set(keys)}
    total = 0.0
    for key in keys:
        edges, spelled, costliest = costs[key]
        total += 1 + math.log2(edges + 1) + spelled - costliest + edges * target_bits
    return total


def first_classes(rows: IntArray) -> IntArray:
    """For each entry of ``rows`` (a table's rows), the first class of its row that leads to the
    same target: how the row groups its classes by target, whatever the targets are called."""
    if not rows.size:
        return rows
    order = np.argsort(rows, axis=1, kind="stable")
    ordered = np.take_along_axis(rows, order, axis=1)
    starts = np.ones(rows.shape, dtype=np.bool_)
    starts[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
    columns = np.arange(rows.shape[1])
    group_start = np.maximum.accumulate(np.where(starts, columns, 0), axis=1)
    out = np.empty_like(rows)
    np.put_along_axis(out, order, np.take_along_axis(order, group_start, axis=1), axis=1)
    return out


def _row_costs(alphabet: Alphabet, key: bytes, char_bits: float) -> tuple[int, float, float]:
    """The edges of a row whose classes group as ``key`` says (:func:`first_classes`), the bits
    of their sets (:func:`_spelling_ends`), and the bits of the costliest."""
    firsts = np.frombuffer(key, dtype=np.int32).tolist()
    groups: dict[int, list[int]] = {}
    for cls, first in enumerate(firsts):
        groups.setdefault(first, []).append(cls)
    costs = [_spelling_ends(alphabet, tuple(classes)) * char_bits for classes in groups.values()]
    return len(costs), sum(costs), max(costs)


def _spelling_ends(alphabet: Alphabet, classes: tuple[int, ...]) -> int:
    """Characters to spell the union of ``classes`` (or its complement, when shorter) as single
    characters and ranges."""
    chars = CharSet(tuple(i for c in classes for i in alphabet.classes[c].intervals))
    return min(_ends(chars), _ends(alphabet.universe - chars))


def _ends(chars: CharSet) -> int:
    """Characters to spell ``chars`` as single characters and ranges."""
    return sum(1 if lo == hi else 2 for lo, hi in chars.intervals)


#: Regex nodes past which a candidate is not described by its regex (state elimination gives up).
WRITTEN_LIMIT = 400
#: States past which a candidate is not described by its regex: its state elimination takes
#: seconds (the listing of a few request-log lines of 600 characters), and a regex of at most
#: :data:`WRITTEN_LIMIT` nodes from that many states is a chain no positive needs read as one.
WRITTEN_STATES = 1000


def _written_bits(dfa: DFA, cache: RunCache) -> float:
    """:func:`regex_bits` of ``dfa``'s regex, or infinity when that regex is too large to read
    (past :data:`WRITTEN_LIMIT` nodes, or nested too deep to eliminate: a chain of thousands of
    states, the positives of long strings listed, or past :data:`WRITTEN_STATES` states, whose
    elimination alone costs seconds)."""
    if dfa.n_states > WRITTEN_STATES:
        return math.inf
    try:
        return regex_bits(to_regex(dfa, size_limit=WRITTEN_LIMIT), dfa.alphabet.universe, cache)
    except (SizeLimitExceeded, RecursionError):
        return math.inf


def regex_bits(regex: Regex, universe: CharSet, cache: RunCache) -> float:
    """Bits that write ``regex`` as a person would: each node names its operator, a character set
    the characters and ranges that spell it or its complement, a counted repetition its bounds."""
    operator = 3.0  # one of about eight node kinds
    if isinstance(regex, Chars):
        return operator + _chars_bits(regex.chars, universe, cache)
    if isinstance(regex, Repeat):
        return (
            operator
            + regex_bits(regex.inner, universe, cache)
            + number_bits(regex.min)
            + number_bits(regex.max)
        )
    return operator + sum(regex_bits(child, universe, cache) for child in children(regex))


def _chars_bits(chars: CharSet, universe: CharSet, cache: RunCache) -> float:
    """Bits of a character set in a regex: a class people write by name
    (:data:`cegis.symbolic.merging.families.prior.NAMED`, within the universe) is one of them,
    else the characters and ranges that spell the set or its complement. So ``[0-9]`` costs
    less than ``[2-6]``: among few positives the range they happen to show is not worth more
    than the class they belong to, unless a negative asks for it."""
    return cache(_set_bits, chars, universe, cache)


def _set_bits(chars: CharSet, universe: CharSet, cache: RunCache) -> float:
    named = cache(_named, universe, limit=16)
    if chars in named:
        return math.log2(len(named) + 1)
    return min(_ends(chars), _ends(universe - chars)) * math.log2(len(universe) + 1)


def _named(universe: CharSet) -> frozenset[CharSet]:
    return frozenset(c & universe for c in NAMED if c & universe)
