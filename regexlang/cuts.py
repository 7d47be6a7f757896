"""The cuts ``re`` offers (Python 3.11): a possessive loop or an atomic group of one character class, as a language.

A possessive quantifier (``C*+``) or an atomic group (``(?>C*)``) keeps the first way its body
matches and never gives a character back. In general that language depends on the order the engine
tries things (``(?>a|ab)c`` misses ``abc``), but for a quantified *character class*, what the safe
printer emits (:mod:`automata.safe.possessive`), the first way is fixed by the text alone: the
longest run of the class, up to the maximum. A negative lookahead says exactly that, whatever
surrounds it, so the cut reads as a tree with no new node:

* ``C*+``, ``C++``, ``C{m,}+`` are ``C*(?!C)``, ``C+(?!C)``, ``C{m,}(?!C)``;
* ``C?+`` is ``(?:C|(?!C))``;
* ``C{m,n}+`` is ``(?:C{n}|C{m,n-1}(?!C))``, and ``C{n}`` when ``m = n``;
* inside an atomic group, a lazy loop stops at its minimum: ``(?>C{m,n}?)`` is ``C{m}``.

A backtracking engine runs the lookahead form as it runs the cut: a run it gives back fails at the
lookahead at once (:mod:`automata.redos.space` reads a negative lookahead of one class as that
guard), so the ReDoS verdict of the reading is the engine's.
"""

from __future__ import annotations

from regexlang.ast import (
    Chars,
    Epsilon,
    Lookaround,
    Optional,
    Plus,
    Regex,
    Repeat,
    Star,
    concat,
    union,
)


def _bounds(loop: Regex) -> tuple[Chars, int, int | None] | None:
    """(class, minimum, maximum) of a quantified class; None for any other node."""
    if not isinstance(loop, (Star, Plus, Optional, Repeat)) or not isinstance(loop.inner, Chars):
        return None
    if isinstance(loop, Repeat):
        return loop.inner, loop.min, loop.max
    return loop.inner, int(isinstance(loop, Plus)), 1 if isinstance(loop, Optional) else None


def possessive(loop: Regex) -> Regex | None:
    """The language of ``loop`` (a ``Star``, ``Plus``, ``Optional`` or ``Repeat`` of one class) made
    possessive (module doc); None when ``loop`` is not a quantified class."""
    bounds = _bounds(loop)
    if bounds is None:
        return None
    chars, low, high = bounds
    no_more = Lookaround(chars, negative=True)
    if high is None:
        return concat(loop, no_more)
    if high == low:
        return loop
    if isinstance(loop, Optional):
        return union(chars, no_more)
    return union(_times(chars, high, high), concat(_times(chars, low, high - 1), no_more))


def lazy_cut(loop: Regex) -> Regex | None:
    """The language of the lazy ``loop`` alone in an atomic group: its minimum count of its class;
    None when ``loop`` is not a quantified class."""
    bounds = _bounds(loop)
    if bounds is None:
        return None
    chars, low, _ = bounds
    return _times(chars, low, low)


def _times(chars: Chars, low: int, high: int) -> Regex:
    """``chars`` read ``low`` to ``high`` times, in the smallest node that says it."""
    if high == 0:
        return Epsilon()
    return chars if low == high == 1 else Repeat(chars, low, high)
