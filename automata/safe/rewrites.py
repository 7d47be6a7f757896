"""Language-preserving rewrites of a tree that take away the choices a backtracking engine retries.

:func:`regexlang.normalize.normalize` already removes the redundancy a writer leaves: ``(a|a)*``
becomes ``a*``, ``(a+)+`` becomes ``a+``, ``(?:.|[a-z])`` becomes ``.``, ``r*r*`` becomes ``r*``.
:func:`rewritten` adds the identities of sequences in which two neighbouring loops read the same
characters, where the engine would try every split of a run between them:

* a loop of a class ``C`` beside a star of a class ``D ⊇ C`` keeps only its mandatory copies:
  ``C{m,}D*`` and ``D*C{m,}`` become ``C{m}D*`` and ``D*C{m}`` (``[aeiou]{2,}.*`` is
  ``[aeiou]{2}.*``, ``.*[a-z]*`` is ``.*``), since the star reads whatever the loop gave up;
* a star before the first character of a class it contains, followed by a star that contains it,
  stops at the first such character: ``D*CD'*`` becomes ``(D−C)*CD'*`` when ``C ⊆ D ⊆ D'``
  (``.*[0-9].*`` is ``[^0-9\\n]*[0-9].*``), since every text it matches has a first ``C``.

Each identity is proved in its bullet; the caller proves every print equal anyway
(:mod:`automata.safe.form`), so a rewrite can only fail to help, never change a language.
"""

from __future__ import annotations

import attrs

from regexlang.ast import (
    Chars,
    Complement,
    Concat,
    Intersection,
    Optional,
    Plus,
    Regex,
    Repeat,
    Star,
    Union,
    concat,
    intersection,
    union,
)
from regexlang.charset import CharSet
from regexlang.normalize import normalize


def rewritten(regex: Regex) -> Regex:
    """``regex`` normalized with the sequence identities of the module doc applied bottom up."""
    return normalize(_rewrite(normalize(regex)))


def _rewrite(regex: Regex) -> Regex:
    match regex:
        case Concat(parts):
            return concat(*_sequence([_rewrite(part) for part in parts]))
        case Union(options):
            return union(*(_rewrite(option) for option in options))
        case Intersection(parts):
            return intersection(*(_rewrite(part) for part in parts))
        case Star() | Plus() | Optional() | Repeat() | Complement():
            return attrs.evolve(regex, inner=_rewrite(regex.inner))
        case _:  # a lookaround's body keeps its spelling: re measures a lookbehind's width on it
            return regex


def _sequence(parts: list[Regex]) -> list[Regex]:
    changed = True
    while changed:
        changed = False
        for i in range(len(parts) - 1):
            replaced = _pair(parts[i], parts[i + 1], parts[i + 2] if i + 2 < len(parts) else None)
            if replaced is not None:
                parts[i : i + 2] = [normalize(part) for part in replaced]
                changed = True
                break
    return parts


def _pair(left: Regex, right: Regex, after: Regex | None) -> tuple[Regex, Regex] | None:
    star = _star_class(left)
    loop = _loop(right)
    if star is not None and loop is not None and loop[0].issubset(star):
        return left, Repeat(Chars(loop[0]), loop[1], loop[1])
    star, loop = _star_class(right), _loop(left)
    if star is not None and loop is not None and loop[0].issubset(star):
        return Repeat(Chars(loop[0]), loop[1], loop[1]), right
    outer, following = _star_class(left), _star_class(after) if after is not None else None
    if (
        outer is not None
        and following is not None
        and isinstance(right, Chars)
        and right.chars.issubset(outer)
        and outer.issubset(following)
        and outer != right.chars
    ):
        return Star(Chars(outer - right.chars)), right
    return None


def _star_class(regex: Regex) -> CharSet | None:
    return regex.inner.chars if isinstance(regex, Star) and isinstance(regex.inner, Chars) else None


def _loop(regex: Regex) -> tuple[CharSet, int] | None:
    """(class, minimum) of an unbounded loop of one class."""
    if isinstance(regex, (Star, Plus)) and isinstance(regex.inner, Chars):
        return regex.inner.chars, 0 if isinstance(regex, Star) else 1
    if isinstance(regex, Repeat) and regex.max is None and isinstance(regex.inner, Chars):
        return regex.inner.chars, regex.min
    return None
