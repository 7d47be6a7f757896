"""Which characters a literal or a class matches under ``re.IGNORECASE``, exactly as ``re`` decides.

``re`` does not implement case-insensitivity as an equivalence relation, so "close the set under
case folding" is wrong at the edges. For ``str`` patterns ``re`` lowercases the subject character
with a *simple* (one-character) mapping and compares it with a pattern that was lowercased at
compile time, plus a table of extra equivalences (``re._casefix``: ``s``/``ſ``, ``k``/``K`` Kelvin
sign, ``µ``/``μ``, ...). Classes add wrinkles (``re._compiler._optimize_charset``): a class with no
cased member is matched exactly; members outside the BMP are kept un-lowercased, so an uppercase
astral literal inside a case-insensitive class matches nothing (``(?i)[\\U00010400x]`` does not
match ``\\U00010400``, a CPython quirk reproduced here); astral ranges also match through the
uppercase of the subject. This module reproduces those rules with the same primitives
(``_sre.unicode_tolower``, ``_sre.unicode_iscased``), so the sets agree with ``re`` character for
character.

Only a few thousand characters take part in any case mapping (:func:`_cased_universe`); every
other character matches exactly when it is in the written set, so each computation inspects those
few thousand and copies the rest of the set unchanged.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Mapping
from types import MappingProxyType

import attrs

from regexlang.charset import MAX_CODE_POINT, CharSet

_sre = importlib.import_module("_sre")
_tolower: Callable[[int], int] = _sre.unicode_tolower
_iscased: Callable[[int], bool] = _sre.unicode_iscased
_EXTRA_CASES: dict[int, tuple[int, ...]] = importlib.import_module("re._casefix")._EXTRA_CASES

_BMP_END = 0x10000


@attrs.frozen
class ClassSpec:
    """A bracketed class (or ``\\d``-style escape) as written, before flags give it a meaning."""

    literals: frozenset[int] = frozenset()
    ranges: frozenset[tuple[int, int]] = frozenset()
    categories: frozenset[CharSet] = frozenset()
    negate: bool = False

    def written(self) -> CharSet:
        """The members as written, without case folding or negation."""
        chars = CharSet((code, code) for code in self.literals) | CharSet(self.ranges)
        for category in self.categories:
            chars |= category
        return chars

    def merge(self, other: ClassSpec) -> ClassSpec:
        """The class with the members of both (neither may be negated)."""
        return ClassSpec(
            self.literals | other.literals,
            self.ranges | other.ranges,
            self.categories | other.categories,
        )


@functools.cache
def _cased_universe() -> tuple[tuple[int, ...], CharSet, Mapping[int, tuple[int, ...]]]:
    """Characters in any case mapping, as a sorted tuple and a set, and lowercase → its preimages."""
    involved: set[int] = set()
    for code in range(MAX_CODE_POINT + 1):
        lower = _tolower(code)
        if lower != code or _iscased(code):
            involved.update((code, lower))
    for lower, others in _EXTRA_CASES.items():
        involved.add(lower)
        involved.update(others)
    preimages: dict[int, list[int]] = {}
    for code in sorted(involved):
        preimages.setdefault(_tolower(code), []).append(code)
    ordered = tuple(sorted(involved))
    return (
        ordered,
        CharSet((code, code) for code in ordered),
        MappingProxyType({k: tuple(v) for k, v in preimages.items()}),  # shared: read-only
    )


@functools.cache
def _cased_chars() -> CharSet:
    return CharSet((code, code) for code in _cased_universe()[0] if _iscased(code))


def _simple_upper(code: int) -> int:
    upper = chr(code).upper()
    return ord(upper) if len(upper) == 1 else code


def literal_chars(code: int, ignorecase: bool) -> CharSet:
    """What the literal character ``code`` matches (``[^x]`` is the complement of this)."""
    if not ignorecase or not _iscased(code):
        return CharSet([(code, code)])
    lower = _tolower(code)
    preimages = _cased_universe()[2]
    targets = (lower, *_EXTRA_CASES.get(lower, ()))
    return CharSet((match, match) for target in targets for match in preimages.get(target, ()))


def class_chars(spec: ClassSpec, ignorecase: bool) -> CharSet:
    """What the class ``spec`` matches (negation included)."""
    chars = spec.written()
    if ignorecase and _has_cased(spec):
        chars = _fold_class(spec, chars)
    return chars.complement() if spec.negate else chars


def _has_cased(spec: ClassSpec) -> bool:
    cased = _cased_chars()
    if any(_iscased(code) or _tolower(code) >= _BMP_END for code in spec.literals):
        return True
    return any(hi >= _BMP_END or CharSet([(lo, hi)]) & cased for lo, hi in spec.ranges)


def _fold_class(spec: ClassSpec, written: CharSet) -> CharSet:
    ordered, involved, _ = _cased_universe()
    bmp_members = CharSet(
        [(code, code) for code in spec.literals if _tolower(code) < _BMP_END]
        + [(lo, min(hi, _BMP_END - 1)) for lo, hi in spec.ranges if lo < _BMP_END]
    )
    charmap: set[int] = set()
    for code in ordered:
        if code in bmp_members:
            lower = _tolower(code)
            charmap.add(lower)
            charmap.update(_EXTRA_CASES.get(lower, ()))
    astral_literals = {code for code in spec.literals if _tolower(code) >= _BMP_END}
    astral_ranges = [(lo, hi) for lo, hi in spec.ranges if hi >= _BMP_END]

    def matches(lower: int) -> bool:
        if lower in charmap or lower in astral_literals:
            return True
        if any(lower in category for category in spec.categories):
            return True
        upper = _simple_upper(lower)
        return any(lo <= lower <= hi or lo <= upper <= hi for lo, hi in astral_ranges)

    folded = CharSet((code, code) for code in ordered if matches(_tolower(code)))
    return (written - involved) | folded
