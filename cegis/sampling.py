"""Random labeled examples: the run's initial sample and the examples added after a failed proposal.

Appendix D of the seed paper starts a run from at most 8 random labeled examples, balanced between
the target language and its complement, and the reference code adds the next 8 random ones when a
proposal yields nothing usable. With the target's DFA both halves are drawn exactly (uniform length,
then a uniform string of that length, :func:`automata.strings.sampling.sample_strings`); with only a
membership oracle, random strings over readable characters of the universe are labeled by it and
kept so that the two labels stay as balanced as the draw allows. Each draw is seeded by the run's
seed and the epoch, so it is a pure function of them.

A target over all of Unicode (NL-RX) has a class of every character its regex does not mention,
and a uniform member of it is nearly always a character no one can read (``'\U00058457'``); a
model shown such strings reads noise. With ``readable`` (the default) a drawn character outside
the readable members of its class (:func:`oracle.mutations.readable`) is replaced by one of them,
picked by its code point, so the labels stay exact and the random draws are unchanged: over an
alphabet of readable characters nothing is replaced.
"""

from __future__ import annotations

from collections.abc import Sequence
from collections.abc import Set as AbstractSet

import numpy as np

from automata import Alphabet
from automata.algebra.ops import complement
from automata.core.dfa import DFA
from automata.strings.sampling import sample_strings
from oracle.examples import Example
from oracle.mutations import readable as readable_chars
from oracle.protocol import MembershipOracle
from regexlang.charset import CharSet

#: Random strings tried per wanted example when only a membership oracle labels them.
_TRIES_PER_EXAMPLE = 16


def rng_for(seed: int, epoch: int) -> np.random.Generator:
    """The generator of the random examples drawn at ``epoch`` (0: the initial sample)."""
    return np.random.default_rng([seed, epoch])


def from_target(
    target: DFA,
    n: int,
    rng: np.random.Generator,
    *,
    max_len: int,
    exclude: AbstractSet[str] = frozenset(),
    readable: bool = True,
) -> tuple[Example, ...]:
    """Up to ``n`` new labeled strings, half in ``target`` and half outside it (one side fills in
    for the other when it runs short), alternating positive and negative; with ``readable`` every
    character is a readable member of its class (see the module doc)."""

    def drawn(dfa: DFA, k: int) -> list[str]:
        strings = sample_strings(dfa, k, rng, max_len=max_len)
        if not readable:
            return strings
        return list(dict.fromkeys(readably_spelled(strings, target.alphabet)))

    want_pos = (n + 1) // 2
    pos = _fresh(drawn(target, want_pos + len(exclude)), exclude, want_pos)
    neg = _fresh(drawn(complement(target), n - len(pos) + len(exclude)), exclude, n - len(pos))
    if len(pos) + len(neg) < n:
        pos = _fresh(drawn(target, n + len(exclude)), exclude, n - len(neg))
    return _alternate([Example(s, True) for s in pos], [Example(s, False) for s in neg])


def from_membership(
    oracle: MembershipOracle,
    universe: CharSet,
    n: int,
    rng: np.random.Generator,
    *,
    max_len: int,
    exclude: AbstractSet[str] = frozenset(),
) -> tuple[Example, ...]:
    """Up to ``n`` new random strings over readable characters of ``universe`` labeled by
    ``oracle``, as balanced between the labels as ``16 n`` tries allow."""
    chars = readable_chars(universe)
    found: dict[bool, list[Example]] = {True: [], False: []}
    seen = set(exclude)
    for _ in range(_TRIES_PER_EXAMPLE * n):
        length = int(rng.integers(max_len + 1))
        string = "".join(chars[int(i)] for i in rng.integers(len(chars), size=length))
        if string in seen:
            continue
        seen.add(string)
        label = oracle.label(string)
        found[label].append(Example(string, label))
        if min(len(found[True]), len(found[False])) >= (n + 1) // 2:
            break
    want_pos = min(len(found[True]), max((n + 1) // 2, n - len(found[False])))
    pos = found[True][:want_pos]
    return _alternate(pos, found[False][: n - len(pos)])


def readably_spelled(strings: Sequence[str], alphabet: Alphabet) -> list[str]:
    """Each of ``strings`` with each character outside the readable members of its class replaced
    by the member its code point picks; characters of one class are interchangeable, so every DFA
    over ``alphabet`` labels the two strings alike."""
    codes = iter(alphabet.encode("".join(strings)).tolist())
    readable_members: dict[int, str] = {}  # per class, found once per call
    out = []
    for string in strings:
        spelled = []
        for char, k in zip(string, codes):
            members = readable_members.get(k)
            if members is None:
                members = readable_members[k] = readable_chars(alphabet.classes[k])
            spelled.append(char if char in members else members[ord(char) % len(members)])
        out.append("".join(spelled))
    return out


def _fresh(strings: list[str], exclude: AbstractSet[str], want: int) -> list[str]:
    return [s for s in strings if s not in exclude][:want]


def _alternate(pos: list[Example], neg: list[Example]) -> tuple[Example, ...]:
    out: list[Example] = []
    for i in range(max(len(pos), len(neg))):
        out.extend(pos[i : i + 1] + neg[i : i + 1])
    return tuple(out)
