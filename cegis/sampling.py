"""Random labeled examples: the run's initial sample and the examples added after a failed proposal.

Appendix D of the seed paper starts a run from at most 8 random labeled examples, balanced between
the target language and its complement, and the reference code adds the next 8 random ones when a
proposal yields nothing usable. With the target's DFA both halves are drawn exactly (uniform length,
then a uniform string of that length, :class:`automata.strings.sampling.StringSampler`); with only a
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
from automata.strings.sampling import StringSampler
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
    return TargetSampler(target).examples(
        n, rng, max_len=max_len, exclude=exclude, readable=readable
    )


class TargetSampler:
    """:func:`from_target` for one target, its samplers (of the target and of its complement)
    built at the first draw and kept: a run draws from its target every failed epoch."""

    def __init__(self, target: DFA) -> None:
        self.target = target
        self._samplers: dict[tuple[bool, int], StringSampler] = {}
        self._complement: DFA | None = None

    def examples(
        self,
        n: int,
        rng: np.random.Generator,
        *,
        max_len: int,
        exclude: AbstractSet[str] = frozenset(),
        readable: bool = True,
    ) -> tuple[Example, ...]:
        """What :func:`from_target` draws from the sampler's target."""

        def fresh(positive: bool, k: int, want: int) -> list[str]:
            """The first ``want`` strings outside ``exclude`` among ``k`` drawn (respelled readably
            and without repeats), drawing only as far as those take."""
            pieces = self._sampler(positive, max_len).pieces(k, rng, first=want + 4)
            found: dict[str, None] = {}
            for piece in pieces:
                spelled = readably_spelled(piece, self.target.alphabet) if readable else piece
                found.update(dict.fromkeys(s for s in spelled if s not in exclude))
                if len(found) >= want:
                    break
            return list(found)[:want]

        want_pos = (n + 1) // 2
        pos = fresh(True, want_pos + len(exclude), want_pos)
        neg = fresh(False, n - len(pos) + len(exclude), n - len(pos))
        if len(pos) + len(neg) < n:
            pos = fresh(True, n + len(exclude), n - len(neg))
        return _alternate([Example(s, True) for s in pos], [Example(s, False) for s in neg])

    def _sampler(self, positive: bool, max_len: int) -> StringSampler:
        if (positive, max_len) not in self._samplers:
            if positive:
                dfa = self.target
            else:
                self._complement = self._complement or complement(self.target)
                dfa = self._complement
            self._samplers[positive, max_len] = StringSampler(dfa, max_len)
        return self._samplers[positive, max_len]


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
    """``strings`` with each character outside the readable members of its class replaced by the
    member its code point picks; characters of one class are interchangeable, so every DFA over
    ``alphabet`` labels each string and its spelling alike. One pass over all the strings' code
    points, a class at a time."""
    readable = _readable_members(alphabet)
    if readable is None:  # every character is readable: nothing to replace
        return list(strings)
    text = "".join(strings)
    codes = _code_points(text).copy()
    classes = alphabet.encode(text)
    for k in np.unique(classes).tolist():
        members = readable[k]
        within = classes == k
        chosen = codes[within]
        codes[within] = np.where(np.isin(chosen, members), chosen, members[chosen % len(members)])
    spelled = codes.tobytes().decode("utf-32-le", "surrogatepass")
    ends = np.cumsum([len(s) for s in strings]).tolist()
    return [spelled[end - len(s) : end] for s, end in zip(strings, ends)]


def _readable_members(
    alphabet: Alphabet,
) -> tuple[np.ndarray[tuple[int], np.dtype[np.uint32]], ...] | None:
    """The code points of each class's readable members; None when they are every member of
    every class."""
    members = tuple(_code_points(readable_chars(chars)) for chars in alphabet.classes)
    if all(len(m) == size for m, size in zip(members, alphabet.sizes())):
        return None
    return members


def _code_points(text: str) -> np.ndarray[tuple[int], np.dtype[np.uint32]]:
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)


def _alternate(pos: list[Example], neg: list[Example]) -> tuple[Example, ...]:
    out: list[Example] = []
    for i in range(max(len(pos), len(neg))):
        out.extend(pos[i : i + 1] + neg[i : i + 1])
    return tuple(out)
