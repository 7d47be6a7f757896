"""The ReDoS verdict of every regex the project prints for a backtracking engine, in one place.

``learn`` and ``regex`` (:mod:`cli`), :func:`cegis.symbolic.passive.learn_regex` and the LLM
learner's proposal records all ask :func:`checked` about what they print. What users paste is
printed ``safe`` by default: a print that is not linear is replaced by its safe form
(:func:`automata.safe.safe_form`), an equivalent print proved equal on minimal DFAs over the
universe in play whose verdict is linear, when one is found within the budget; the print as written
stays in :attr:`Printed.plain`, and a non-linear print that stays says why in
:attr:`Printed.reason`. ``plain`` asks for the print as written (the LLM records use it: they
record what the model proposed). A verdict (:mod:`automata.redos`) names the engine and the call it
assumes. The python flavour's whole-string print is read back as printed. A pcre or javascript
print has the structure of the python print of the same tree (the flavours differ in escapes and
class spellings, not in what the engine walks), which is read for them, under that engine's
alternation rules. A print anchored for a search call (``^…$``) is analysed as its body under
``fullmatch``: the anchor fails at once at every later start, so the engine's work is the
whole-string attempt's, and the attack that makes that attempt fail makes the search fail. RE2 and
POSIX matchers are automata: their prints get no verdict. The analysis is bounded by its state and
step limits; past them, or on anything it cannot read, the verdict is ``unknown`` with the reason,
never an exception, so a learn never fails for its sake.
"""

from __future__ import annotations

from typing import Any, Literal

import attrs

from automata.errors import AutomataError
from automata.redos import Engine, Semantics, Verdict, analyse
from automata.safe import safe_form
from regexlang.ast import Regex
from regexlang.charset import UNICODE, CharSet
from regexlang.dialects import Dialect, parse
from regexlang.errors import RegexError
from regexlang.flavors import DEFAULT_ANCHORING, Anchoring, Flavor, anchor, render

#: The flavours whose engines backtrack, and the engine each names.
ENGINE_OF: dict[Flavor, Engine] = {"python": "python", "pcre": "pcre", "javascript": "javascript"}
#: Pump count of the short attack shown with a verdict: enough for an exponential one to hang
#: ``re`` (2^24 paths), short enough to read; a polynomial one is shown with its pump to repeat.
SHOWN_PUMPS = 24

#: ``safe``: a non-linear print is replaced by a linear one of the same language when one is found;
#: ``plain``: the print as written.
Printing = Literal["safe", "plain"]
PRINTINGS: tuple[Printing, ...] = ("safe", "plain")


@attrs.frozen
class Printed:
    """A regex as printed for ``flavor`` and its ReDoS verdict (None: the engine does not
    backtrack). ``plain``: the print as written when ``text`` is its safe form (None otherwise);
    ``reason``: why a non-linear ``text`` has no linear form here (empty when none was looked for)."""

    text: str
    flavor: Flavor
    verdict: Verdict | None
    plain: Printed | None = None
    reason: str = ""


def checked(
    tree: Regex,
    text: str,
    flavor: Flavor,
    anchored: Anchoring | None = None,
    universe: CharSet = UNICODE,
    printing: Printing = "safe",
) -> Printed:
    """``text``, the print of ``tree`` for ``flavor`` (anchored for a search call when ``anchored``
    says so; default: the flavour's usual call), with its ReDoS verdict; with ``printing="safe"``,
    its safe form instead when ``text`` is not linear and one is found (module doc)."""
    engine = ENGINE_OF.get(flavor)
    if engine is None:
        return Printed(text, flavor, None)
    semantics: Semantics = (
        "search" if (anchored or DEFAULT_ANCHORING[flavor]) == "search" else "fullmatch"
    )
    read: Regex | None = None
    try:
        whole = flavor == "python" and semantics == "fullmatch"
        spelled = text if whole else render(tree, "python", "fullmatch", universe)
        read = parse(spelled, "python", universe)
        body = analyse(read, engine=engine, semantics="fullmatch")
        verdict = attrs.evolve(body, semantics=semantics)
    except (RegexError, RecursionError, MemoryError) as error:
        verdict = Verdict("unknown", None, None, engine, semantics, _why(error))
    plain = Printed(text, flavor, verdict)
    if printing == "plain" or read is None or verdict.verdict in ("linear", "unknown"):
        return plain
    return _safe(plain, read, body, semantics, universe)


def _safe(
    plain: Printed, read: Regex, body: Verdict, semantics: Semantics, universe: CharSet
) -> Printed:
    """``plain``'s safe form: its body's (``read``, the python reading of the print, whose verdict
    is ``body``) anchored as ``plain`` is, or ``plain`` with the reason there is none."""
    try:
        form = safe_form(read, body.engine, "fullmatch", universe=universe, known=body)
    except (RegexError, AutomataError, RecursionError, MemoryError) as error:
        return attrs.evolve(plain, reason=_why(error))
    if not form.rewritten:
        return attrs.evolve(plain, reason=form.reason)
    anchoring: Anchoring = "search" if semantics == "search" else "fullmatch"
    text = anchor(form.text, plain.flavor, anchoring, form.alternation)
    return Printed(text, plain.flavor, attrs.evolve(form.verdict, semantics=semantics), plain)


def _why(error: BaseException) -> str:
    return "the pattern nests too deeply" if isinstance(error, RecursionError) else str(error)


def hypothesis_redos(
    tree: Regex, text: str, dialect: Dialect, universe: CharSet = UNICODE
) -> dict[str, Any] | None:
    """The :func:`redos_json` of a hypothesis printed as ``text`` in ``dialect``, as it would be
    pasted into Python for ``re.fullmatch``: its text in the python dialect, else its python print
    (None when it has none, e.g. ``&`` and ``~`` of the extended dialect)."""
    try:
        spelled = text if dialect == "python" else render(tree, "python", "fullmatch", universe)
    except RegexError:
        return None
    return redos_json(checked(tree, spelled, "python", "fullmatch", universe, "plain"))


def redos_json(printed: Printed) -> dict[str, Any] | None:
    """The ``redos`` object of ``--json`` output and of records: verdict, degree, the call
    (``match``) and ``flavor``, the reason of an unknown verdict, and the attack: its parts (the
    pumps repeated n times between ``prefix`` and ``suffix``) and a short instance (``attack``)."""
    verdict = printed.verdict
    if verdict is None:
        return None
    attack = verdict.attack
    return {
        "verdict": verdict.verdict,
        "degree": verdict.degree,
        "match": verdict.semantics,
        "flavor": printed.flavor,
        "reason": verdict.reason or None,
        "attack": None if attack is None else attack.text(SHOWN_PUMPS),
        "prefix": None if attack is None else attack.prefix,
        "pumps": None if attack is None else [list(p) for p in attack.pumps],
        "suffix": None if attack is None else attack.suffix,
    }


def warning(printed: Printed) -> str | None:
    """The line text output prints under a regex whose verdict is not linear (None: linear, or
    no verdict), with the reason it has no linear form when one was looked for."""
    verdict = printed.verdict
    if verdict is None or verdict.linear:
        return None
    unsafe = f"; no linear form: {printed.reason}" if printed.reason else ""
    attack = verdict.attack
    if attack is None:
        return verdict.describe() + unsafe
    pieces = [repr(attack.prefix)] if attack.prefix else []
    for pump, infix in attack.pumps:
        pieces += [f"{pump!r} × n", *([repr(infix)] if infix else [])]
    pieces += [repr(attack.suffix)] if attack.suffix else []
    timed = "(`python -m cli redos` times it)"
    return f"{verdict.describe()}; attack {' + '.join(pieces)} {timed}{unsafe}"


def rewrite_note(printed: Printed) -> str | None:
    """The line text output prints under a safe form: the print as written it replaces, that
    print's verdict and the proof (None: ``printed`` is the print as written)."""
    plain = printed.plain
    if plain is None or plain.verdict is None:
        return None
    return (
        f"the linear form of {plain.text} ({plain.verdict.describe()}): the same language, "
        "proved on minimal DFAs"
    )
