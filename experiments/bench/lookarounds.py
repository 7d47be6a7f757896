"""The lookaround row of ``bench automata``: rules people write with lookarounds, compiled exactly.

No Python peer reads lookarounds as languages (pyformlang, interegular and greenery refuse them;
RE2 and Rust's regex refuse them too), so the row shows our own times, beside what the one engine
that reads them, ``re``, spends matching the same strings. Each case is a python-dialect rule and a
near miss (a lookahead dropped, a count changed, a lookbehind turned around), and the operations are:

1. text → minimal DFA (:mod:`automata.building.lookaround`);
2. equivalence of the rule and its near miss, with a shortest witness (``ops.equivalence_witness``);
3. 1,000 strings (half drawn from the rule's language, half random over its characters) decided by
   the DFA (``ops.accepts_many``), and by ``re.fullmatch`` of the compiled pattern, one by one.

Our times are the best of ``repeat`` runs; ``re``'s too. The table gives p50 and p95 over the cases.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

from automata.algebra.ops import accepts_many, equivalence_witness
from automata.building.compile import compile_regex, from_text
from automata.strings.sampling import sample_strings
from regexlang import parse
from regexlang.charset import UNICODE

#: (rule, near miss) pairs, python dialect.
CASES = [
    ("(?=.*[0-9])(?=.*[a-z])[a-z0-9]{8,}", "(?=.*[0-9])[a-z0-9]{8,}"),
    (
        "(?=.*[A-Z])(?=.*[a-z])(?=.*[0-9])[A-Za-z0-9]{8,64}",
        "(?=.*[A-Z])(?=.*[a-z])(?=.*[0-9])[A-Za-z0-9]{8,63}",
    ),
    ("(?!.*\\.\\.)[a-z.]+", "(?!.*\\.\\.)[a-z.]*"),
    ("(?!.*\\.tmp\\Z)[a-z.]+", "(?!.*\\.tmp)[a-z.]+"),
    ("(?:[a-z](?<![aeiou][aeiou]))+", "(?:[a-z](?<![aeiou]))+"),
    ("(?!-)[a-z0-9-]{1,63}(?<!-)", "(?!-)[a-z0-9-]{1,63}"),
    ("\\b(?=\\w*ing\\b)\\w+", "\\w*ing\\w*"),
    ("(?:(?!ab).)*", "(?:(?!ba).)*"),
    ("(?:a(?=b)|b)+", "(?:a|b)+"),
    ('(?=(?:[^"]*"[^"]*")*[^"]*\\Z)[a-z" ]*', '[a-z" ]*'),
]
STRINGS = 1_000
T = TypeVar("T")


def _best(repeat: int, run: Callable[[], T]) -> tuple[float, T]:
    started = time.perf_counter()
    result = run()
    best = time.perf_counter() - started
    for _ in range(repeat - 1):
        started = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - started)
    return best, result


def _strings(text: str, rng: np.random.Generator) -> list[str]:
    tree = parse(text, "python")
    dfa = compile_regex(tree, UNICODE)
    symbols = sorted({c for c in text if c.isalnum() or c in '.-" '} | {"0", "a", "A", " "})
    drawn = sample_strings(dfa, STRINGS // 2, rng, max_len=24, unique=False)
    randoms = [
        "".join(rng.choice(symbols, size=int(rng.integers(0, 24))))
        for _ in range(STRINGS - len(drawn))
    ]
    return drawn + randoms


def measure(repeat: int = 3, seed: int = 0) -> list[dict[str, Any]]:
    """Seconds per case: our compile, equivalence and matching, and ``re``'s matching."""
    rng = np.random.default_rng(seed)
    return [_measure_case(rule, near, repeat, rng) for rule, near in CASES]


def _measure_case(rule: str, near: str, repeat: int, rng: np.random.Generator) -> dict[str, Any]:
    """The row of one case of :func:`measure`."""
    compile_s, dfa = _best(repeat, lambda: from_text(rule, "python"))
    near_dfa = from_text(near, "python")
    equivalence_s, witness = _best(repeat, lambda: equivalence_witness(dfa, near_dfa))
    strings = _strings(rule, rng)
    ours_s, ours = _best(repeat, lambda: accepts_many(dfa, strings).tolist())
    pattern = re.compile(rule)
    re_s, theirs = _best(repeat, lambda: [pattern.fullmatch(s) is not None for s in strings])
    if ours != theirs:
        raise AssertionError(f"{rule!r}: the DFA and re.fullmatch disagree")
    return {
        "rule": rule, "near_miss": near, "compile": compile_s, "equivalence": equivalence_s,
        "witness": None if witness is None else witness.string, "match_ours": ours_s, "match_re": re_s,
    }  # fmt: skip


def render(rows: list[dict[str, Any]]) -> str:
    """The lookaround row: p50 and p95 over the cases of each measured time."""

    def cell(key: str) -> str:
        values = np.asarray([row[key] for row in rows])
        return f"p50 {np.median(values) * 1e3:.2f} ms, p95 {np.percentile(values, 95) * 1e3:.2f} ms"

    return "\n".join([
        f"lookaround rules ({len(rows)} cases, python dialect; no peer reads them, re matches them):",
        f"  text → minimal DFA: {cell('compile')}",
        f"  equivalence with a near miss: {cell('equivalence')}",
        f"  {STRINGS:,} strings decided: ours (DFA) {cell('match_ours')}; re.fullmatch {cell('match_re')}",
    ])  # fmt: skip
