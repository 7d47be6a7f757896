"""The grammar of an answer: ``<ans>``, a regex of the task's dialect, ``</ans>``.

With constrained answers (the setting's ``constrained``, a named option beside the papers'
protocol) every request carries this grammar, so a server that constrains decoding can only
produce an answer block whose regex parses: the seed paper found that "many failures come from
producing invalid or unusable regexes rather than from the induction problem alone", and a small
model on a laptop answers in prose without it. The grammar is written from each dialect's own
grammar (:mod:`regexlang.simple`, :mod:`regexlang.extended`, :mod:`regexlang.python_syntax`),
over the task's alphabet:

* **simple**: exactly the texts the parser accepts (``+`` or ``|`` for union, implicit or ``.``
  concatenation, postfix ``*``, ``epsilon`` or ``$``, parentheses) with at most one space between
  tokens, within the breadth bound below, as ``tests/cegis/llm/test_answer_grammar.py`` checks
  against the parser on generated texts;
* **extended**: union, intersection, concatenation, ``~`` complement, ``* + ?`` and counted
  repetition with single-digit counts, ``()``, classes of alphabet characters and ranges within
  one run of the alphabet (``A-Z``, ``c-f``, ``0-9``), escaped metacharacters;
* **python**: alternation, concatenation, groups ``( )`` and ``(?: )``, ``.``, the escapes
  ``\\d \\w \\s \\D \\W \\S`` and escaped metacharacters, classes (negated too) of printable ASCII
  characters and ranges within ``0-9``, ``A-Z``, ``a-z``, the quantifiers ``* + ?`` and
  single-digit counts, each optionally lazy.

The extended and python grammars are a part of their dialect: everything they accept parses (the
same test checks it on texts drawn from the grammar, against the parser and, for python, ``re``),
and what they leave out (anchors, lookarounds, long counts, characters a reader cannot see) an
answer rarely needs. No dialect's grammar lets the regex hold ``<`` or a backtick, so the block
reads back exactly as it was constrained (:mod:`cegis.llm.answers` strips code quotes).
A multi-candidate reply may hold up to ``blocks`` answer blocks, one per line.

**Breadth bound.** Left free, SmolLM2-135M copies the training strings into its answer
(``<ans>(c) ccccccccbabcbcaaa. ((a) cccc...``) until the completion budget cuts it: the grammar
made 0.50 of its Single answers parse on the smoke plan, the rest cut at 48 tokens. So every
concatenation holds at most :data:`MAX_ITEMS` items and every union (and intersection) at most
:data:`MAX_OPTIONS` options, at each level of parentheses: a long run of symbols must close a
group, start an option or end the answer. The targets of the papers' datasets sit well inside.
"""

from __future__ import annotations

import functools
import string

from cegis.llm.grammar import Alt, Chars, Expr, Grammar, Lit, Ref, Rep, alt, one_of, seq
from regexlang import extended, simple
from regexlang.charset import CharSet
from regexlang.dialects import Dialect

#: Characters no answer grammar puts in a regex: the answer block must read back as it was sent.
_NEVER = CharSet.of("<`")
_PRINTABLE_ASCII = CharSet.of(c for c in string.printable if c.isprintable() and c != " ")
_COUNT_DIGITS = "0123456789"
#: Items of one concatenation and options of one union (or intersection), at each level.
MAX_ITEMS = 8
MAX_OPTIONS = 4
#: Runs of characters a class may span with a range (sub-ranges of these, within the alphabet).
_RANGE_RUNS = (("0", "9"), ("A", "Z"), ("a", "z"))


@functools.cache
def whitespace() -> CharSet:
    """Every character ``str.isspace`` calls whitespace (what the simple parser skips)."""
    return CharSet.of(chr(code) for code in range(0x110000) if chr(code).isspace())


def answer_grammar(dialect: Dialect, universe: CharSet, *, blocks: int = 1) -> Grammar:
    """The grammar of a reply of up to ``blocks`` answer blocks (one per line), each holding one
    regex of ``dialect`` over ``universe``."""
    if blocks < 1:
        raise ValueError(f"a reply holds at least one answer block, not {blocks}")
    rules: dict[str, Expr] = {
        "root": Ref("ans")
        if blocks == 1
        else seq(Ref("ans"), Rep(seq(Lit("\n"), Ref("ans")), 0, blocks - 1)),
        "ans": seq(Lit("<ans>"), Ref("regex"), Lit("</ans>")),
    }
    if dialect == "simple":
        rules |= _simple(universe)
    elif dialect == "extended":
        rules |= _extended(universe)
    else:
        rules |= _python(universe)
    return Grammar(rules)


def _simple(universe: CharSet) -> dict[str, Expr]:
    symbols = universe - CharSet.of(simple.METACHARS) - whitespace() - _NEVER
    ws = Rep(Lit(" "), 0, 1)
    return {
        "regex": seq(ws, Ref("union")),
        "union": seq(Ref("concat"), _more(seq(one_of("+", "|"), Ref("concat")), MAX_OPTIONS)),
        "concat": seq(
            Ref("operand"), _more(alt(seq(Lit("."), Ref("operand")), Ref("postfix")), MAX_ITEMS)
        ),
        "operand": seq(ws, Ref("postfix")),
        "postfix": seq(Ref("atom"), ws, Rep(seq(Lit("*"), ws))),
        "atom": alt(
            one_of("epsilon", "$"), seq(Lit("("), ws, Ref("union"), Lit(")")), *_set(symbols)
        ),
    }


def _extended(universe: CharSet) -> dict[str, Expr]:
    visible = universe - whitespace() - _NEVER
    metas = CharSet.of(extended.METACHARS)
    class_metas = CharSet.of("\\]-^[")
    return {
        "regex": Ref("union"),
        "union": seq(Ref("inter"), _more(seq(Lit("|"), Ref("inter")), MAX_OPTIONS)),
        "inter": seq(Ref("concat"), _more(seq(Lit("&"), Ref("concat")), MAX_OPTIONS)),
        "concat": Rep(seq(Rep(Lit("~")), Ref("atom"), Rep(Ref("quant"), 0, 1)), 1, MAX_ITEMS),
        "quant": alt(one_of("*", "+", "?"), seq(Lit("{"), _counts(), Lit("}"))),
        "atom": alt(
            Lit("()"),
            seq(Lit("("), Ref("union"), Lit(")")),
            seq(Lit("["), Rep(Ref("item"), 1), Lit("]")),
            *_set(visible - metas),
            *_escaped(visible & metas - CharSet.of(string.ascii_letters + string.digits)),
        ),
        "item": alt(
            *_ranges(visible - class_metas),
            *_set(visible - class_metas),
            *_escaped(visible & class_metas),
        ),
    }


def _python(universe: CharSet) -> dict[str, Expr]:
    visible = universe & _PRINTABLE_ASCII - _NEVER
    metas = CharSet.of(".^$*+?{}[]\\|()")
    class_metas = CharSet.of("\\]-^[")
    quoting = CharSet.of("'\"/")  # a regex in quotes or slashes is unwrapped as Python code
    shorthand = one_of(*(f"\\{c}" for c in "dwsDWS"))
    return {
        "regex": Ref("alt"),
        "alt": seq(Ref("seq"), _more(seq(Lit("|"), Ref("seq")), MAX_OPTIONS)),
        "seq": Rep(seq(Ref("atom"), Rep(Ref("quant"), 0, 1)), 1, MAX_ITEMS),
        "quant": seq(
            alt(one_of("*", "+", "?"), seq(Lit("{"), _counts(), Lit("}"))), Rep(Lit("?"), 0, 1)
        ),
        "atom": alt(
            Lit("."),
            shorthand,
            seq(one_of("(", "(?:"), Ref("alt"), Lit(")")),
            seq(one_of("[", "[^"), Rep(Ref("item"), 1), Lit("]")),
            *_set(visible - metas - quoting),
            *_escaped(metas),
        ),
        "item": alt(
            shorthand,
            *_ranges(visible - class_metas),
            *_set(visible - class_metas),
            *_escaped(class_metas),
        ),
    }


def _more(expr: Expr, most: int) -> Rep:
    """The rest of a list of at most ``most`` (its first is written before)."""
    return Rep(expr, 0, most - 1)


def _set(chars: CharSet) -> tuple[Expr, ...]:
    return () if chars.is_empty() else (Chars(chars),)


def _escaped(chars: CharSet) -> tuple[Expr, ...]:
    return () if chars.is_empty() else (seq(Lit("\\"), Chars(chars)),)


def _ranges(chars: CharSet) -> tuple[Expr, ...]:
    """Every range ``x-y`` with ``x < y`` inside one run of ``_RANGE_RUNS``, both ends in ``chars``."""
    spans = []
    for first, last in _RANGE_RUNS:
        run = [c for c in CharSet.range(first, last) if c in chars]
        spans += [f"{low}-{high}" for i, low in enumerate(run) for high in run[i + 1 :]]
    return (one_of(*spans),) if spans else ()


def _counts() -> Alt:
    """``n``, ``n,`` or ``n,m`` with single digits, ``n <= m`` (a count the parsers accept)."""
    pairs = [f"{n},{m}" for n in _COUNT_DIGITS for m in _COUNT_DIGITS if n <= m]
    return one_of(*_COUNT_DIGITS, *(f"{n}," for n in _COUNT_DIGITS), *pairs)
