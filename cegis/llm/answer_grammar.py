"""The grammar of an answer: ``<ans>``, a regex of the task's dialect, ``</ans>``.

With constrained answers (the setting's ``constrained``, a named option beside the papers'
protocol) every request carries this grammar, so a server that constrains decoding can only
produce an answer block whose regex parses: the seed paper found that "many failures come from
producing invalid or unusable regexes rather than from the induction problem alone", and a small
model on a laptop answers in prose without it. The grammar is written from each dialect's own
grammar (:mod:`regexlang.simple`, :mod:`regexlang.extended`, :mod:`regexlang.python_syntax`),
over the task's alphabet:

* **simple**: the texts the parser accepts (``+`` or ``|`` for union, implicit or ``.``
  concatenation, postfix ``*``, ``epsilon`` or ``$``, parentheses) with at most one space between
  tokens (and before the first), minus repeated stars (``a**``, ``a* *``: the parser reads them as
  ``(a*)*``), nested at most :data:`~cegis.llm.token_automaton.MAX_DEPTH` deep, within the length
  bound below; ``tests/cegis/llm/test_answer_grammar.py`` checks exactly that, both ways, against
  the parser on generated texts;
* **extended**: union, intersection, concatenation, one ``~`` complement before an atom, one
  quantifier after it (``* + ?`` or a count of single digits), ``()``, classes of alphabet
  characters and ranges within one run of the alphabet (``A-Z``, ``c-f``, ``0-9``), escaped
  metacharacters;
* **python**: alternation, concatenation, groups ``( )`` and ``(?: )``, ``.``, the escapes
  ``\\d \\w \\s \\D \\W \\S`` and escaped metacharacters, classes (negated too) of printable ASCII
  characters and ranges within ``0-9``, ``A-Z``, ``a-z``, one quantifier (``* + ?`` or a count of
  single digits), lazy or not.

The extended and python grammars are a part of their dialect: everything they accept parses (the
same test checks it on texts drawn from the grammar, against the parser and, for python, ``re``),
and what they leave out (anchors, lookarounds, long counts, stacked quantifiers, characters a
reader cannot see) an answer rarely needs. No dialect's grammar lets the regex hold ``<`` or a
backtick, so the block reads back exactly as it was constrained (:mod:`cegis.llm.answers` strips
code quotes). A multi-candidate reply may hold up to ``blocks`` answer blocks, one per line.

**Length bound.** Left free, SmolLM2-135M copies the training strings into its answer
(``<ans>(c) ccccccccbabcbcaaa. ((a) cccc...``) or writes stars (``a****…``) until the completion
budget cuts it, and a cut reply is no answer: with a breadth bound alone 58 of its 69 answers on
the smoke plan parsed, the rest cut at 48 tokens. So each dialect's syntax is a token automaton
(:mod:`cegis.llm.token_automaton`) unrolled over the bytes the budget leaves: the whole reply
and the end-of-sequence token after it fit ``budget`` completion tokens (:func:`regex_bytes`: a
tokenizer spends at most one token per byte), each regex at most :data:`MAX_REGEX_BYTES` bytes
(which keeps the grammar, sent with every request, to some 50-100 KB), and a decoder that
follows the grammar is never where it cannot close the answer in the bytes left. The budget is the
one the setting asks for; a client that cuts it to fit the context sends a grammar that may
outlast the cut budget, and the cut is recorded as such.
"""

from __future__ import annotations

import functools
import string

from cegis.llm.grammar import Chars, Expr, Grammar, Lit, Ref, Rep, one_of, seq
from cegis.llm.token_automaton import Step, TokenAutomaton, by_width, merged, spaced, unrolled
from regexlang import extended, simple
from regexlang.charset import CharSet
from regexlang.dialects import Dialect

#: Characters no answer grammar puts in a regex: the answer block must read back as it was sent.
_NEVER = CharSet.of("<`")
_PRINTABLE_ASCII = CharSet.of(c for c in string.printable if c.isprintable() and c != " ")
_DIGITS = CharSet.of(string.digits)
#: The longest regex (in UTF-8 bytes) an answer block may hold, whatever the budget.
MAX_REGEX_BYTES = 48
#: What an answer block costs besides its regex: ``<ans>``, ``</ans>`` and the line break or the
#: end-of-sequence token after it.
BLOCK_OVERHEAD = len("<ans></ans>") + 1
#: Runs of characters a class may span with a range (sub-ranges of these, within the alphabet).
_RANGE_RUNS = (("0", "9"), ("A", "Z"), ("a", "z"))


@functools.cache
def whitespace() -> CharSet:
    """Every character ``str.isspace`` calls whitespace (what the simple parser skips)."""
    return CharSet.of(chr(code) for code in range(0x110000) if chr(code).isspace())


def regex_bytes(budget: int | None, blocks: int = 1) -> int:
    """The bytes each regex of a reply of ``blocks`` answer blocks may take so that the whole
    reply, and the end-of-sequence token after it, fit ``budget`` completion tokens (``None``: no
    budget), at most :data:`MAX_REGEX_BYTES`. Raises ``ValueError`` when not one byte is left."""
    if blocks < 1:
        raise ValueError(f"a reply holds at least one answer block, not {blocks}")
    if budget is None:
        return MAX_REGEX_BYTES
    room = budget // blocks - BLOCK_OVERHEAD
    if room < 1:
        raise ValueError(
            f"a completion budget of {budget} tokens leaves no room for {blocks} answer block(s):"
            f" each needs {BLOCK_OVERHEAD + 1} or more"
        )
    return min(room, MAX_REGEX_BYTES)


def answer_grammar(
    dialect: Dialect, universe: CharSet, *, blocks: int = 1, budget: int | None = None
) -> Grammar:
    """The grammar of a reply of up to ``blocks`` answer blocks (one per line), each holding one
    regex of ``dialect`` over ``universe``, the whole reply fitting ``budget`` completion tokens
    (see :func:`regex_bytes`)."""
    size = regex_bytes(budget, blocks)
    automaton, tokens = _AUTOMATA[dialect](universe)
    rules: dict[str, Expr] = {
        "root": Ref("ans")
        if blocks == 1
        else seq(Ref("ans"), Rep(seq(Lit("\n"), Ref("ans")), 0, blocks - 1)),
        "ans": seq(Lit("<ans>"), Ref("regex"), Lit("</ans>")),
    }
    return Grammar(rules | tokens | unrolled(automaton, size, "regex"))


_Syntax = tuple[TokenAutomaton, dict[str, Expr]]


def _simple(universe: CharSet) -> _Syntax:
    """The parser's language, one space at most between tokens (and before the first), no ``*``
    right after a ``*``."""
    symbols = universe - CharSet.of(simple.METACHARS) - whitespace() - _NEVER
    operand = (
        *by_width(symbols, "a"),
        Step(Lit("epsilon"), 7, "a"),
        Step(Lit("$"), 1, "a"),
        Step(Lit("("), 1, "e", nest=1),
    )
    follow = (*operand, *_marks(".+|", "e"), Step(Lit(")"), 1, "a", nest=-1))
    steps = {
        "l": (Step(Lit(" "), 1, "e"), *_spaced(operand)),
        "e": _spaced(operand),
        "a": _spaced((Step(Lit("*"), 1, "s"), *follow)),
        "s": _spaced(follow),
    }
    return TokenAutomaton(steps, "l", frozenset("as")), {}


def _extended(universe: CharSet) -> _Syntax:
    """Union, intersection, concatenation, one ``~`` before an atom, one quantifier after it."""
    visible = universe - whitespace() - _NEVER
    metas = CharSet.of(extended.METACHARS)
    class_metas = CharSet.of("\\]-^[")
    atoms = (
        *by_width(visible - metas, "a"),
        *_escapes(visible & metas - CharSet.of(string.ascii_letters + string.digits), "a"),
        Step(Lit("()"), 2, "a"),
        Step(Lit("("), 1, "e", nest=1),
        Step(Lit("["), 1, "c"),
    )
    follow = (*atoms, *_marks("~", "t"), *_marks("|&", "e"), Step(Lit(")"), 1, "a", nest=-1))
    tokens, ranges = _ranges(visible - class_metas)
    items = (*ranges, *by_width(visible - class_metas, "k"), *_escapes(visible & class_metas, "k"))
    steps = {
        "e": (*atoms, *_marks("~", "t")),
        "t": atoms,
        "a": (*_quantifiers("q"), *follow),
        "q": follow,
        "c": items,
        "k": (*items, Step(Lit("]"), 1, "a")),
    }
    return TokenAutomaton(steps, "e", frozenset("aq")), tokens | _COUNTS


def _python(universe: CharSet) -> _Syntax:
    """Alternation, concatenation, groups, classes, escapes, one quantifier (lazy or not)."""
    visible = universe & _PRINTABLE_ASCII - _NEVER
    metas = CharSet.of(".^$*+?{}[]\\|()")
    class_metas = CharSet.of("\\]-^[")
    quoting = CharSet.of("'\"/")  # a regex in quotes or slashes is unwrapped as Python code
    atoms = (
        Step(Lit("."), 1, "a"),
        Step(Ref("shorthand"), 2, "a"),
        *by_width(visible - metas - quoting, "a"),
        *_escapes(metas, "a"),
        Step(Lit("("), 1, "e", nest=1),
        Step(Lit("(?:"), 3, "e", nest=1),
        Step(Lit("["), 1, "c"),
        Step(Lit("[^"), 2, "c"),
    )
    follow = (*atoms, *_marks("|", "e"), Step(Lit(")"), 1, "a", nest=-1))
    tokens, ranges = _ranges(visible - class_metas)
    items = (
        Step(Ref("shorthand"), 2, "k"),
        *ranges,
        *by_width(visible - class_metas, "k"),
        *_escapes(class_metas, "k"),
    )
    steps = {
        "e": atoms,
        "a": (*_quantifiers("q"), *follow),
        "q": (Step(Lit("?"), 1, "z"), *follow),
        "z": follow,
        "c": items,
        "k": (*items, Step(Lit("]"), 1, "a")),
    }
    shorthand: dict[str, Expr] = {"shorthand": one_of(*(f"\\{c}" for c in "dwsDWS"))}
    return TokenAutomaton(steps, "e", frozenset("aqz")), tokens | shorthand | _COUNTS


def _spaced(steps: tuple[Step, ...]) -> tuple[Step, ...]:
    return tuple(variant for step in merged(steps) for variant in spaced(step))


def _marks(marks: str, to: str) -> tuple[Step, ...]:
    return tuple(Step(Lit(mark), 1, to) for mark in marks)


def _escapes(chars: CharSet, to: str) -> tuple[Step, ...]:
    """A backslash and one of ``chars`` (ASCII metacharacters: two bytes)."""
    return () if chars.is_empty() else (Step(seq(Lit("\\"), Chars(chars)), 2, to),)


def _quantifiers(to: str) -> tuple[Step, ...]:
    """``* + ?`` and the counts ``{n}``, ``{n,}``, ``{n,m}`` of single digits, ``n <= m``."""
    return (
        *_marks("*+?", to),
        Step(seq(Lit("{"), Chars(_DIGITS), Lit("}")), 3, to),
        Step(seq(Lit("{"), Chars(_DIGITS), Lit(",}")), 4, to),
        Step(seq(Lit("{"), Ref("pair"), Lit("}")), 5, to),
    )


_COUNTS: dict[str, Expr] = {
    "pair": one_of(*(f"{n},{m}" for n in string.digits for m in string.digits if n <= m))
}


def _ranges(chars: CharSet) -> tuple[dict[str, Expr], tuple[Step, ...]]:
    """The rule of every range ``x-y`` with ``x < y`` inside one run of ``_RANGE_RUNS``, both ends
    in ``chars``, and the class item that writes one (none when there is no such range)."""
    spans = []
    for first, last in _RANGE_RUNS:
        run = [c for c in CharSet.range(first, last) if c in chars]
        spans += [f"{low}-{high}" for i, low in enumerate(run) for high in run[i + 1 :]]
    if not spans:
        return {}, ()
    return {"range": one_of(*spans)}, (Step(Ref("range"), 3, "k"),)


_AUTOMATA = {"simple": _simple, "extended": _extended, "python": _python}
