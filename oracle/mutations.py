"""Small edits of strings: the raw material of test-suite negatives and hardening probes.

A-CEGIS draws negatives from *mutations* of positive strings and probes a finished regex with
strings *near* the ones it was shown, because the mistakes that survive a test suite sit next to its
examples: one character more or less, a wrong character class, a repeated block, a length just past
a bound. These functions only produce candidate strings; whether a candidate is in the target is
always decided by the target's DFA, never here.

Replacement characters come from a *pool* holding a few members of every character class the
automata can tell apart, so every behaviour is tried. Members are chosen *readable* (printable
ASCII when the class has any): over Unicode the smallest member of "anything but a digit" is
``"\\x00"``, which tells an LLM reader nothing. :func:`respell` applies the same idea to a sampled
string without changing its label.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Sequence

import numpy as np

from automata.core.alphabet import Alphabet
from regexlang.charset import CharSet

_PRINTABLE_ASCII = CharSet([(0x20, 0x7E)])


@functools.lru_cache(maxsize=4096)
def readable(chars: CharSet, limit: int = 128) -> str:
    """Up to ``limit`` members of ``chars`` a reader can see: printable ASCII first, then other
    printable characters, and the smallest member when none is printable."""
    ascii_members = [c for c, _ in zip(chars & _PRINTABLE_ASCII, range(limit))]
    if ascii_members:
        return "".join(ascii_members)
    printable = [c for c, _ in zip((c for c in chars if c.isprintable()), range(limit))]
    return "".join(printable) if printable else chars.first()


def char_pool(classes: Sequence[CharSet], rng: np.random.Generator, per_class: int = 2) -> str:
    """Characters covering ``classes``: up to ``per_class`` random readable members of each class
    that has a printable member (a class of only control characters, such as ``"\\n"`` alone,
    would break the one-example-per-line prompt format)."""
    chars: list[str] = []
    for cls in classes:
        members = readable(cls)
        if members.isprintable():
            picks = rng.choice(len(members), size=min(per_class, len(members)), replace=False)
            chars.extend(members[int(i)] for i in sorted(picks))
    return "".join(dict.fromkeys(chars))


def respell(string: str, alphabet: Alphabet, rng: np.random.Generator) -> str:
    """``string`` with each character replaced by a random readable member of its class. Characters
    of one class are interchangeable in every DFA over ``alphabet``, so the label is unchanged."""
    out = []
    for k in alphabet.encode(string).tolist():
        members = readable(alphabet.classes[k])
        out.append(members[int(rng.integers(len(members)))])
    return "".join(out)


def deletions(s: str) -> Iterator[str]:
    """``s`` without one of its characters, for each position."""
    return (s[:i] + s[i + 1 :] for i in range(len(s)))


def insertions(s: str, pool: str) -> Iterator[str]:
    """``s`` with one pool character inserted, for each position and character."""
    return (s[:i] + c + s[i:] for i in range(len(s) + 1) for c in pool)


def substitutions(s: str, pool: str) -> Iterator[str]:
    """``s`` with one character replaced by a different pool character."""
    return (s[:i] + c + s[i + 1 :] for i in range(len(s)) for c in pool if c != s[i])


def repetitions(s: str) -> Iterator[str]:
    """``s`` doubled, and ``s`` with one character doubled."""
    if s:
        yield s + s
    yield from (s[: i + 1] + s[i:] for i in range(len(s)))


def boundaries(s: str) -> Iterator[str]:
    """Strings at the length edges of ``s``: empty, each proper prefix and suffix, one longer."""
    yield ""
    yield from (s[:i] for i in range(1, len(s)))
    yield from (s[i:] for i in range(1, len(s)))
    if s:
        yield s + s[-1]


def random_strings(pool: str, count: int, max_len: int, rng: np.random.Generator) -> list[str]:
    """``count`` strings of pool characters with lengths uniform in ``0..max_len``."""
    if not pool:
        return [""] * count
    lengths = rng.integers(0, max_len + 1, size=count)
    return ["".join(pool[int(i)] for i in rng.integers(0, len(pool), size=int(n))) for n in lengths]


def one_edit(s: str, pool: str, rng: np.random.Generator) -> str:
    """One random insertion, deletion or substitution of ``s``."""
    kind = int(rng.integers(0, 3)) if s else 0
    i = int(rng.integers(0, len(s) + (1 if kind == 0 else 0))) if s else 0
    c = pool[int(rng.integers(0, len(pool)))] if pool else ""
    if kind == 0:
        return s[:i] + c + s[i:]
    if kind == 1:
        return s[:i] + s[i + 1 :]
    return s[:i] + c + s[i + 1 :]


def unique(strings: Iterable[str], max_len: int) -> list[str]:
    """The strings of length at most ``max_len``, first occurrences only, in order."""
    return [s for s in dict.fromkeys(strings) if len(s) <= max_len]
