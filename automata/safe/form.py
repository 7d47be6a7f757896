"""The safe form of a regex: the first linear print among equivalent ones, proved equal first.

:func:`safe_form` tries, in order of readability, the print of the tree as written, the tree
rewritten (:mod:`automata.safe.rewrites`), the prints of its minimal DFA by state elimination
(:mod:`automata.printing.to_regex`; a DFA has one path per text, so its eliminations leave few
choices to retry) and, for the engines that have them, possessive loops
(:mod:`automata.safe.possessive`). A candidate is returned only when its language under the call
equals the original's on minimal DFAs and its ReDoS verdict (:mod:`automata.redos`) is linear.
The verdict is that of the printed text: for python it is read back from the text, possessive
loops included (:mod:`regexlang.cuts`), so ``python -m cli redos`` on a print says what it said.

The search is bounded by work, not by the clock, so its answer never depends on the machine's
load: at most ``tries`` candidates are proved (:data:`DEFAULT_TRIES`: on every fifth target of
NL-RX-Turk, KB13 and StructuredRegex, each linear form found was the first or second candidate),
the target DFA and every candidate's compile past :data:`COMPILE_STATE_LIMIT` states are given up,
DFAs past :data:`DFA_STATE_LIMIT` states are not printed and an elimination edge past
:data:`PRINT_SIZE_LIMIT` nodes is given up; the original then comes back with its verdict and the
reason, never a hang.
"""

from __future__ import annotations

from collections.abc import Iterator

import attrs

from automata.algebra.ops import equivalent
from automata.building.compile import compile_regex
from automata.core.dfa import DFA
from automata.errors import AutomataError
from automata.printing.to_regex import ORDERS, Eliminations
from automata.redos import Engine, Semantics, Verdict, analyse
from automata.safe import possessive
from automata.safe.rewrites import rewritten
from regexlang.ast import Chars, Regex, Star, Union, concat
from regexlang.charset import UNICODE, CharSet
from regexlang.dialects import parse
from regexlang.errors import NotExpressible, UnsupportedFeature
from regexlang.flavors import render

#: Minimal DFAs larger than this are not printed: their prints are too long to read or analyse.
DFA_STATE_LIMIT = 60
#: Regex nodes an elimination edge may grow to before that print is given up.
PRINT_SIZE_LIMIT = 400
#: States a DFA compiled for the proof (the target's or a candidate's) may reach.
COMPILE_STATE_LIMIT = 5000
#: Candidates the search for a linear form proves at most, by default.
DEFAULT_TRIES = 2
_NO_CUT = {
    "javascript": "JavaScript has no atomic groups or possessive quantifiers to cut backtracking",
}


@attrs.frozen
class SafeForm:
    """``text``, what to paste, with its ``verdict``; ``rewritten`` when it is not the print of the
    tree as written, whose text and verdict are ``original_text`` and ``original``; ``reason`` says
    why a non-linear ``text`` has no linear equivalent here; ``alternation``: ``text`` is an
    alternation at its top, which anchors for a search call must group
    (:func:`regexlang.flavors.anchor`)."""

    text: str
    verdict: Verdict
    rewritten: bool
    original_text: str
    original: Verdict
    reason: str = ""
    alternation: bool = False


def safe_form(
    regex: Regex | str,
    flavor: Engine = "python",
    match: Semantics = "fullmatch",
    *,
    universe: CharSet = UNICODE,
    tries: int = DEFAULT_TRIES,
    known: Verdict | None = None,
) -> SafeForm:
    """The first linear print of ``regex`` (a tree, or a python-dialect pattern) for ``flavor``'s
    engine used with ``match`` that is proved equal to it over ``universe`` (the characters the
    texts it is used on are made of; a class of all of them prints as ``.``, as in
    :func:`regexlang.flavors.render`); the print as written, with the reason, when there is none.
    The text has no anchors: ``match`` is the call it is used with. ``known``: the verdict of the
    print as written, when the caller has it (it is not analysed again).

    Raises ``RegexSyntaxError`` for text that is not a regex, ``NotExpressible`` for a tree
    ``flavor`` has no spelling for."""
    if isinstance(regex, str):
        try:
            tree = parse(regex, "python")
        except UnsupportedFeature as error:
            unknown = Verdict("unknown", None, None, flavor, match, str(error))
            return SafeForm(regex, unknown, False, regex, unknown, str(error))
        written = regex if flavor == "python" else render(tree, flavor, "fullmatch", universe)
    else:
        tree, written = regex, render(regex, flavor, "fullmatch", universe)
    original = known or _verdict(written, tree, flavor, match)
    kept = SafeForm(
        written, original, False, written, original, alternation=isinstance(tree, Union)
    )
    if original.verdict in ("linear", "unknown"):
        return attrs.evolve(kept, reason=original.reason)
    spent = attrs.evolve(kept, reason=f"no linear form among the first {tries} candidates")
    if not tries:
        return spent
    try:
        target = _compiled(_called(tree, match, universe), universe)
    except AutomataError as error:
        return attrs.evolve(kept, reason=str(error))
    tried = 0
    for candidate, marks in _candidates(tree, target, match, universe):
        if tried == tries:  # the candidates left are not tried
            return spent
        found = _proved(candidate, marks, target, flavor, match, universe)
        tried += 1
        if found is not None and found[1].linear:
            alternation = isinstance(candidate, Union) and not marks
            return SafeForm(found[0], found[1], True, written, original, "", alternation)
    reason = f"none of the {tried} equivalent prints tried (rewrites, minimal-DFA prints"
    reason += ")" if flavor == "javascript" else ", possessive loops)"
    reason += " is linear" + (f"; {_NO_CUT[flavor]}" if flavor in _NO_CUT else "")
    return attrs.evolve(kept, reason=reason)


def _candidates(
    tree: Regex, target: DFA, match: Semantics, universe: CharSet
) -> Iterator[tuple[Regex, tuple[int, ...]]]:
    """Equivalent trees to try, each with the top-level parts to print possessive."""
    seen = {tree}
    simpler = rewritten(tree)
    if simpler not in seen:
        seen.add(simpler)
        yield simpler, ()
    prints: list[Regex] = []
    language = _printable(tree, target, match, universe)
    if language is not None:
        eliminations = Eliminations(language)
        for order in ORDERS:
            try:
                printed = eliminations.regex(order, PRINT_SIZE_LIMIT)
            except AutomataError:
                continue
            for each in (printed, rewritten(printed)):
                if each not in seen:
                    seen.add(each)
                    prints.append(each)
                    yield each, ()
    for each in (tree, simpler, *prints):
        marks = possessive.loops(each)
        if marks:
            yield each, marks


def _printable(tree: Regex, target: DFA, match: Semantics, universe: CharSet) -> DFA | None:
    """The DFA of ``tree`` itself (the target's, under ``fullmatch``) to print by elimination;
    None when it is too large to print or to compile."""
    if target.n_states > DFA_STATE_LIMIT:
        return None
    if match == "fullmatch":
        return target
    try:
        return _compiled(tree, universe)
    except AutomataError:
        return None


def _proved(
    candidate: Regex,
    marks: tuple[int, ...],
    target: DFA,
    flavor: Engine,
    match: Semantics,
    universe: CharSet,
) -> tuple[str, Verdict] | None:
    """The print of ``candidate`` with its verdict, when its language under ``match`` over
    ``universe`` is the target's; ``None`` when it is not or cannot be printed for ``flavor``."""
    if marks and flavor == "javascript":
        return None
    try:
        language = possessive.language(candidate, marks) if marks else candidate
        if not equivalent(_compiled(_called(language, match, universe), universe), target):
            return None
        text = possessive.render(candidate, marks, flavor, universe) if marks else None
        text = text or render(candidate, flavor, "fullmatch", universe)
    except (AutomataError, NotExpressible):
        return None
    if marks and flavor != "python":
        return text, analyse(candidate, engine=flavor, semantics=match, possessive=marks)
    return text, _verdict(text, candidate, flavor, match)


def _verdict(text: str, tree: Regex, flavor: Engine, match: Semantics) -> Verdict:
    """The verdict of a print: read back from the text for python, whose dialect is parsed here."""
    read = parse(text, "python") if flavor == "python" else tree
    return analyse(read, engine=flavor, semantics=match)


def _compiled(regex: Regex, universe: CharSet) -> DFA:
    """The DFA of ``regex``, given up past :data:`COMPILE_STATE_LIMIT` states."""
    return compile_regex(regex, universe, state_limit=COMPILE_STATE_LIMIT)


def _called(regex: Regex, match: Semantics, universe: CharSet) -> Regex:
    """The texts ``match`` accepts with ``regex``: all of the text, a prefix, or any part."""
    if match == "fullmatch":
        return regex
    anything = Star(Chars(universe))
    return concat(regex, anything) if match == "match" else concat(anything, regex, anything)
