"""How many characters a regex can match: the check behind Python's fixed-width lookbehind rule.

``re`` refuses ``(?<=a|bc)`` ("look-behind requires fixed-width pattern") because its matcher steps
back a fixed number of characters before trying the body. The width is syntactic, computed as
``re._parser.SubPattern.getwidth`` computes it: zero-width items (anchors, lookarounds) count 0,
a class counts 1 even when it is empty (``[^\\s\\S]``), repetitions multiply.
"""

from __future__ import annotations

from regexlang.ast import (
    Chars,
    Complement,
    Concat,
    EmptySet,
    Intersection,
    Optional,
    Plus,
    Regex,
    Repeat,
    Star,
    Union,
)

#: ``(least, most)``; ``most`` is None when unbounded.
Width = tuple[int, int | None]


def width(regex: Regex) -> Width:
    """The fewest and the most characters ``regex`` can match (``re``'s rule, see the module doc)."""
    if isinstance(regex, (Chars, EmptySet)):
        return 1, 1
    if isinstance(regex, Concat):
        least: int = 0
        most: int | None = 0
        for part in regex.parts:
            low, high = width(part)
            least += low
            most = None if most is None or high is None else most + high
        return least, most
    if isinstance(regex, Union):
        widths = [width(option) for option in regex.options]
        highs = [high for _, high in widths]
        return min(low for low, _ in widths), None if None in highs else max(
            h for h in highs if h is not None
        )
    if isinstance(regex, (Star, Plus, Optional, Repeat)):
        low, high = width(regex.inner)
        least, times = _counts(regex)
        if high == 0 or times == 0:
            return low * least, 0
        return low * least, None if high is None or times is None else high * times
    if isinstance(regex, (Intersection, Complement)):
        return 0, None
    return 0, 0  # Epsilon, assertions, lookarounds


def _counts(node: Star | Plus | Optional | Repeat) -> Width:
    if isinstance(node, Star):
        return 0, None
    if isinstance(node, Plus):
        return 1, None
    if isinstance(node, Optional):
        return 0, 1
    return node.min, node.max
