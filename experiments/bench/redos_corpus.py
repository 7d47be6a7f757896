"""The corpus of ``bench redos``: regexes as the project prints them for Python, and generated
families whose class and degree are known by construction.

* **families**: nested loops, overlapping alternations under a loop, k adjacent overlapping loops,
  search-only quadratics, and linear controls, each with its known class and degree;
* **NL-RX-Turk, KB13**: the DeepRegex targets (:func:`experiments.datasets.deepregex.python_targets`)
  and **StructuredRegex** (:func:`experiments.datasets.structured_regex.load_structured_regex`), each
  printed for Python's ``re.fullmatch`` as ``learn --flavor python`` prints a regex
  (:func:`cegis.symbolic.passive.printed_for`) for an even sample of ``per_source`` targets, distinct
  prints only;
* **learn_regex**: what :func:`cegis.symbolic.passive.learn_regex` prints (as written, before its
  safe form) on the positives and negatives of the first StructuredRegex problems of the sample.

Every entry carries its javascript print for the peers (anchored for a whole-string match, bare for
a search), or None when the flavour cannot write it.
"""

from __future__ import annotations

import attrs

from automata.redos import Semantics
from cegis.symbolic.passive import learn_regex, printed_for
from experiments.datasets.deepregex import KB13_DIR, NL_RX_TURK_DIR, python_targets
from experiments.datasets.structured_regex import load_structured_regex
from regexlang.ast import Regex
from regexlang.charset import UNICODE, CharSet
from regexlang.dialects import parse
from regexlang.errors import RegexError
from regexlang.flavors import Anchoring, render

#: (pattern, call, class, degree) known by construction.
FAMILIES: list[tuple[str, Semantics, str, int | None]] = [
    *[
        (f"(?:{c}+)+{e}", "fullmatch", "exponential", None)
        for c, e in [("a", "b"), ("[a-z]", "!"), ("\\d", "x")]
    ],
    *[
        (f"(?:{a}|{b})*{e}", "fullmatch", "exponential", None)
        for a, b, e in [
            ("a", "a", "b"),
            ("a", "aa", "b"),
            (".", "[a-z]", "!"),
            ("\\w", "\\d+", "!"),
        ]
    ],
    *[("".join(["a*"] * k) + "b", "fullmatch", "polynomial", k) for k in (2, 3, 4)],
    *[("".join([".*x"] * (k - 1)) + ".*", "fullmatch", "polynomial", k) for k in (2, 3)],
    ("\\s+$", "search", "polynomial", 2),
    ("(?:ab|cd)*e", "search", "polynomial", 2),
    ("a+b", "search", "polynomial", 2),
    *[
        (p, "fullmatch", "linear", 1)
        for p in [
            "a*b",
            "(?:ab|cd)*e",
            "[a-z]+@[a-z]+\\.com",
            "\\d{3}-\\d{4}",
            "(a|ab)*c",
            "x*y*z*",
        ]
    ],
    ("\\s+$", "fullmatch", "linear", 1),
]


@attrs.frozen
class Entry:
    """One regex of the corpus: its python print, the call it is used with, where it comes from,
    its javascript print (None: none), and its class and degree when known by construction."""

    pattern: str
    semantics: Semantics
    source: str
    javascript: str | None
    universe: CharSet = UNICODE
    known: tuple[str, int | None] | None = None


def _javascript(tree: Regex, semantics: Semantics, universe: CharSet) -> str | None:
    """The javascript print of ``tree`` as ``learn --flavor javascript`` makes it: anchored for a
    whole-string match, bare for a search (None: the flavour cannot write it)."""
    anchoring: Anchoring = "search" if semantics == "fullmatch" else "fullmatch"
    try:
        return printed_for(tree, "javascript", anchoring, universe)
    except RegexError:
        return None


def families() -> list[Entry]:
    """The generated families with their known class and degree; their javascript print keeps
    the structure as written (an automaton's regex would not be the same family)."""
    entries = []
    for pattern, semantics, kind, degree in FAMILIES:
        anchoring: Anchoring = "search" if semantics == "fullmatch" else "fullmatch"
        try:
            script: str | None = render(parse(pattern, "python"), "javascript", anchoring)
        except RegexError:
            script = None
        entries.append(Entry(pattern, semantics, "families", script, UNICODE, (kind, degree)))
    return entries


def _printed(source: str, trees: list[tuple[Regex, CharSet]], per_source: int) -> list[Entry]:
    """Distinct python prints of an even sample of ``per_source`` of ``trees`` (0: all)."""
    if per_source and len(trees) > per_source:
        step = len(trees) / per_source
        trees = [trees[int(i * step)] for i in range(per_source)]
    seen: dict[str, Entry] = {}
    for tree, universe in trees:
        try:
            text = printed_for(tree, "python", "fullmatch", universe)
        except RegexError:
            continue
        seen.setdefault(
            text,
            Entry(text, "fullmatch", source, _javascript(tree, "fullmatch", universe), universe),
        )
    return list(seen.values())


def datasets(per_source: int, learned: int) -> list[Entry]:
    """The datasets' targets as printed for python, and ``learned`` learn_regex outputs."""
    entries: list[Entry] = []
    for name, folder in (("NL-RX-Turk", NL_RX_TURK_DIR), ("KB13", KB13_DIR)):
        tasks = python_targets(folder).tasks
        entries += _printed(name, [(t.regex(), t.alphabet) for t in tasks], per_source)
    problems = load_structured_regex()
    structured = _printed(
        "StructuredRegex", [(p.task.regex(), p.task.alphabet) for p in problems], per_source
    )
    entries += structured
    chosen = problems[:: max(1, len(problems) // max(learned, 1))][:learned]
    outputs: dict[str, Entry] = {}
    for problem in chosen:
        # the learner's own print, as users get it: its safe form, possessive loops included
        result = learn_regex(problem.positives, problem.negatives, universe=problem.task.alphabet)
        outputs.setdefault(
            result.regex,
            Entry(
                result.regex,
                "fullmatch",
                "learn_regex",
                _javascript(result.tree, "fullmatch", problem.task.alphabet),
                problem.task.alphabet,
            ),
        )
    return entries + list(outputs.values())
