"""Regex text ↔ immutable AST for the simple, extended and python dialects, plus regex metrics.

This package knows nothing of automata: it turns text into :mod:`regexlang.ast` trees and back,
measures trees (:mod:`regexlang.metrics`) and rewrites them without changing their language
(:mod:`regexlang.normalize`).
"""

from regexlang.charset import CharSet
from regexlang.dialects import DIALECTS, Dialect, parse, universe, unparse
from regexlang.errors import NotExpressible, RegexError, RegexSyntaxError, UnsupportedFeature

__all__ = [
    "CharSet",
    "DIALECTS",
    "Dialect",
    "NotExpressible",
    "RegexError",
    "RegexSyntaxError",
    "UnsupportedFeature",
    "parse",
    "universe",
    "unparse",
]
