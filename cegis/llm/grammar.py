"""A context-free grammar as a value: written as GBNF for a server, and recognised here.

Servers used in practice can constrain decoding to a grammar (llama.cpp and llama-cpp-python take
GBNF in the request's ``grammar`` field, vLLM in ``structured_outputs: {"grammar": ...}``, SGLang
in ``ebnf``; vLLM and SGLang parse it with XGrammar, which reads GBNF). The learner builds the
grammar of its answer (:mod:`cegis.llm.answer_grammar`) as a :class:`Grammar` value, so that one
value gives both the text sent to the server (:meth:`Grammar.gbnf`) and the check that the reply
stayed inside it (:meth:`Grammar.accepts`): a server that ignores the field answers outside the
grammar, and the call records that deviation instead of passing it off as constrained.

The expressions are the ones GBNF has: literals, character sets, rule references, sequences,
alternatives and bounded or unbounded repetition. Recognition computes, for each expression and
start position, the set of positions where a match can end (memoised per call), which is exact
for any grammar without left recursion; the answer grammars have none (repetition replaces it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeAlias

import attrs

from regexlang.charset import CharSet


@attrs.frozen
class Lit:
    """A literal string."""

    text: str


@attrs.frozen
class Chars:
    """One character of a set."""

    chars: CharSet


@attrs.frozen
class Ref:
    """The rule named ``name``."""

    name: str


@attrs.frozen
class Seq:
    """The items one after the other."""

    items: tuple[Expr, ...]


@attrs.frozen
class Alt:
    """Any one of the options."""

    options: tuple[Expr, ...]


@attrs.frozen
class Rep:
    """``item`` repeated ``low`` to ``high`` times (``high`` None: unbounded)."""

    item: Expr
    low: int = 0
    high: int | None = None


Expr: TypeAlias = Lit | Chars | Ref | Seq | Alt | Rep


def seq(*items: Expr) -> Seq:
    """The items in sequence."""
    return Seq(items)


def alt(*options: Expr) -> Alt:
    """Any one of the options."""
    return Alt(options)


def one_of(*texts: str) -> Alt:
    """Any one of the literal ``texts``."""
    return Alt(tuple(Lit(text) for text in texts))


def _rules(rules: Mapping[str, Expr]) -> dict[str, Expr]:
    return dict(rules)


@attrs.frozen
class Grammar:
    """Named rules; ``root`` is where a match starts (GBNF's ``root``)."""

    rules: Mapping[str, Expr] = attrs.field(converter=_rules)
    root: str = "root"

    def __attrs_post_init__(self) -> None:
        for name in self.rules:
            if not name or not all(c.islower() or c.isdigit() or c == "-" for c in name):
                raise ValueError(f"a GBNF rule name is lowercase letters, digits and '-': {name!r}")
        if self.root not in self.rules:
            raise ValueError(f"the grammar has no rule {self.root!r}")

    def gbnf(self) -> str:
        """The grammar in GBNF, the root rule first (named ``root``, as llama.cpp requires)."""
        names = [self.root, *(name for name in self.rules if name != self.root)]
        lines = [
            f"{'root' if name == self.root else name} ::= {_gbnf(self.rules[name], self.root)}"
            for name in names
        ]
        return "\n".join(lines) + "\n"

    def accepts(self, text: str) -> bool:
        """Whether the whole of ``text`` is a sentence of the grammar."""
        return len(text) in _Recogniser(self.rules, text).ends(Ref(self.root), 0)


def _gbnf(expr: Expr, root: str) -> str:
    if isinstance(expr, Lit):
        return '"' + "".join(_escaped(c, '"\\') for c in expr.text) + '"'
    if isinstance(expr, Chars):
        body = "".join(
            _escaped(chr(lo), "[]\\-^") + ("" if lo == hi else "-" + _escaped(chr(hi), "[]\\-^"))
            for lo, hi in expr.chars.intervals
        )
        return f"[{body}]"
    if isinstance(expr, Ref):
        return "root" if expr.name == root else expr.name
    if isinstance(expr, Seq):
        return " ".join(_grouped(item, root) for item in expr.items) if expr.items else '""'
    if isinstance(expr, Alt):
        return " | ".join(_gbnf(option, root) for option in expr.options)
    item = _grouped(expr.item, root)
    if (expr.low, expr.high) == (0, None):
        return f"{item}*"
    if (expr.low, expr.high) == (1, None):
        return f"{item}+"
    if (expr.low, expr.high) == (0, 1):
        return f"{item}?"
    high = "" if expr.high is None else str(expr.high)
    return f"{item}{{{expr.low},{high}}}"


def _grouped(expr: Expr, root: str) -> str:
    text = _gbnf(expr, root)
    return f"({text})" if isinstance(expr, (Seq, Alt)) and len(_items(expr)) > 1 else text


def _items(expr: Seq | Alt) -> tuple[Expr, ...]:
    return expr.items if isinstance(expr, Seq) else expr.options


def _escaped(char: str, special: str) -> str:
    # llama.cpp's GBNF parser knows only a few escapes (\\ \" \] \n \t \r \x \u \U; not \^ or
    # \-), and an unknown one takes llama-cpp-python's whole server down: specials go as hex
    if char in special:
        return f"\\x{ord(char):02X}"
    if char == "\n":
        return "\\n"
    if char == "\t":
        return "\\t"
    if char == "\r":
        return "\\r"
    code = ord(char)
    if char.isprintable():
        return char
    if code < 0x100:
        return f"\\x{code:02X}"
    return f"\\u{code:04X}" if code < 0x10000 else f"\\U{code:08X}"


_NOTHING: frozenset[int] = frozenset()


class _Recogniser:
    """The end positions of each expression's matches in one text (memoised by expression and
    start; a rule entered again at the same position while it is being computed matches nothing
    there, which only left recursion would need)."""

    def __init__(self, rules: Mapping[str, Expr], text: str) -> None:
        self.rules, self.text = rules, text
        self.memo: dict[tuple[int, int], frozenset[int]] = {}

    def ends(self, expr: Expr, pos: int) -> frozenset[int]:
        text = self.text
        if isinstance(expr, Lit):  # cheaper to check again than to remember
            return (
                _NOTHING
                if not text.startswith(expr.text, pos)
                else frozenset({pos + len(expr.text)})
            )
        if isinstance(expr, Chars):
            hit = pos < len(text) and text[pos] in expr.chars
            return frozenset({pos + 1}) if hit else _NOTHING
        key = (id(expr), pos)
        found = self.memo.get(key)
        if found is None:
            self.memo[key] = frozenset()
            found = self.memo[key] = self._ends(expr, pos)
        return found

    def _ends(self, expr: Expr, pos: int) -> frozenset[int]:
        if isinstance(expr, Ref):
            return self.ends(self.rules[expr.name], pos)
        if isinstance(expr, Seq):
            at = frozenset({pos})
            for item in expr.items:
                at = frozenset(end for start in at for end in self.ends(item, start))
            return at
        if isinstance(expr, Alt):
            return frozenset(end for option in expr.options for end in self.ends(option, pos))
        assert isinstance(expr, Rep)  # Lit and Chars are answered by ends()
        return self._repeated(expr, pos)

    def _repeated(self, expr: Rep, pos: int) -> frozenset[int]:
        at, found, count = frozenset({pos}), frozenset[int](), 0
        while True:
            if count >= expr.low:
                if expr.high is None and at <= found:
                    break  # unbounded, and nothing new: every later position is found already
                found |= at
            if not at or count == expr.high:
                break
            at = frozenset(end for start in at for end in self.ends(expr.item, start))
            count += 1
        return found
