"""Benchmark of the automata engine against pyformlang (the library the seed paper's teacher
used), interegular and greenery.

The workload is the seed paper's benchmark list (``cegml/regex_list.json``): the first 3 regexes of
every (#States, Stardepth) cell, 105 Simple and 60 Extended. Each regex gets a seeded one-edit
mutation of its text (a symbol swapped for another, a star or a bracket class deleted, or a count
changed; the first candidate, in seeded order, that parses and changes the language), and these
operations run on every engine, interleaved case by case in one process:

1. text → minimal DFA;
2. equivalence of the regex and its mutant, on the pairs whose languages differ (ours:
   ``ops.equivalence_witness``, the product search the teacher runs, which also finds a shortest
   witness; the peers answer yes or no);
3. their symmetric difference and 250 counterexample strings, in two rows, each against the peers
   that do the same thing: "250 random" against pyformlang (ours: ``ops.symmetric_difference`` and
   250 distinct strings drawn uniformly up to length 32; pyformlang has no sampler, so it runs the
   seed paper's own: the two differences, then breadth-first random strings to random accepting
   states, 125 per side), "250 shortest" against interegular and greenery (their ``strings()``,
   the first 250 shortest first, every character spelled; ours: ``ops.symmetric_difference`` and
   ``sampling.shortest(..., spelling="characters")``, the same lengths, see
   ``tests/automata/test_sampling_shortest.py``);
4. the number of accepted strings of each length up to 32 (pyformlang: the same dynamic program
   over its transition dict, in Python integers; interegular and greenery have no counterpart);
5. one teacher step with the regex as target (compiled beforehand) and the mutant as hypothesis:
   compile the hypothesis, decide equivalence, answer with 250 witnesses: "250 random" (ours:
   125 + 125 uniform draws from the two differences, against pyformlang's seed-paper sampler) and
   "250 shortest" (the listing of operation 3, against interegular and greenery);
6. the same step through the real exact teacher (:class:`oracle.exact.ExactTeacher`) with its
   defaults: 250 clustered counterexamples from loop-free paths (ours only: no peer clusters).

A last row times rules written with lookarounds, which no peer reads, against ``re``'s matching
(:mod:`experiments.bench.lookarounds`).

What each peer reads: pyformlang the text itself (``Regex`` for Simple, ``PythonRegex`` for
Extended), except texts with ``&`` or ``~`` (literals to it) or ``{n,}`` (which it reads as the
literal characters); interegular and greenery the Python ``re`` spelling of our parse of the text
(so Simple's ``+`` and ``epsilon`` reach them as ``|`` and an empty option), except trees with
intersection or complement, which ``re`` cannot spell. The peers are imported only when the
benchmark runs (they are dev extras).

Our times are the best of ``--repeat`` runs after a warm-up (so JIT compilation is excluded); a
peer runs once per case, stopped after ``--limit`` seconds (reported as skipped). The table gives
p50 and p95 over the cases and the median over cases of the per-case ratio peer/ours. A row under
the 10× target says where our time goes, in the same run, against the fastest peer's p50 / 10: for
the "250 shortest" rows the symmetric difference and the cost of building the 250 Python strings
from their code points (what any listing pays for its output); for equivalence the equal-tables
check and the breadth-first search alone (the rest is turning tables into lists and the witness). Cold start
is measured separately: a fresh interpreter runs a teacher step with an empty numba cache
directory, then again with the cache it left. Run:

    python -m experiments.bench.automata [--data ../shared/data] [--limit 2] [--per-cell 1] [--json out.json]
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any, TypeVar

import attrs
import click
import numpy as np

from automata.algebra import _kernels, _small_pairs, ops
from automata.building.compile import from_text
from automata.core.dfa import DFA
from automata.errors import DEFAULT_STATE_LIMIT, AutomataError
from automata.jit._jit import forced
from automata.strings.counting import count_by_length
from automata.strings.sampling import sample_strings, shortest
from experiments.bench import lookarounds
from experiments.bench.peers import MAX_LEN, WITNESSES, Peer, load_peers, peer_teacher_step
from experiments.data_dir import DEFAULT_DATA_DIR
from oracle.exact import ExactTeacher, TeacherConfig
from regexlang.dialects import Dialect
from regexlang.errors import RegexError

#: The repository root, whose packages the cold start must import.
_ROOT = Path(__file__).resolve().parents[2]
_LISTS: dict[Dialect, str] = {"simple": "simplyrx", "extended": "extrx"}
_SYMBOLS: dict[Dialect, str] = {
    "simple": "abc",
    "extended": "#0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
}
OPERATIONS = {
    "compile": "text → minimal DFA",
    "equivalence": "equivalence (unequal pairs)",
    "counterexamples": "sym. difference + 250 random",
    "shortest": "sym. difference + 250 shortest",
    "counts": "counts up to length 32",
    "teacher": "teacher step, 250 random",
    "teacher_shortest": "teacher step, 250 shortest",
    "oracle": "teacher step, clustered",
}
#: Parts of our time measured on their own (``op + PART + part``), printed for rows under target.
PART = ":"
SYM_DIFF = "the symmetric difference"
BUILDING = "building the 250 strings from their code points"
SPEEDUP_TARGET = 50.0  # operations 1 and 2
PEER_TARGET = 10.0  # every operation, against the fastest peer that has a counterpart
TEACHER_P95_MS: dict[Dialect, float] = {"simple": 20.0, "extended": 100.0}
T = TypeVar("T")


@attrs.frozen
class Case:
    """One benchmark regex, its mutant, and the (#States, Stardepth) cell it comes from."""

    dialect: Dialect
    text: str
    mutant: str
    cell: tuple[int, int]


def load_cases(data: Path, per_cell: int = 3, seed: int = 0) -> list[Case]:
    """The first ``per_cell`` regexes of every cell of both lists, each with its mutant."""
    lists = json.loads((data / "cegml" / "regex_list.json").read_text())
    cases = []
    for dialect, key in _LISTS.items():
        for group in lists[key]:
            for cell in group["regex_list"]:
                for text in cell["regex_list"][:per_cell]:
                    mutant = mutate(text, dialect, random.Random(f"{seed}/{text}"))
                    cases.append(Case(dialect, text, mutant, (group["#States"], cell["Stardepth"])))
    return cases


def mutate(text: str, dialect: Dialect, rng: random.Random) -> str:
    """A one-edit mutant of ``text``: the first edit, in ``rng``'s order, that parses and changes
    the language (or the first that parses, or ``text`` itself when none does)."""
    candidates = list(_edits(text, dialect, rng))
    rng.shuffle(candidates)
    original = from_text(text, dialect)
    parsed: list[str] = []
    for candidate in candidates:
        try:
            changed = not ops.equivalent(from_text(candidate, dialect), original)
        except (RegexError, AutomataError):
            continue
        if changed:
            return candidate
        parsed.append(candidate)
    return parsed[0] if parsed else text


def _edits(text: str, dialect: Dialect, rng: random.Random) -> Iterator[str]:
    """Every one-symbol edit: a symbol swapped for a random other one, a star deleted, a bracket
    class deleted, a digit of a ``{m,n}`` count changed."""
    symbols = _SYMBOLS[dialect]
    depth = opened = 0
    for i, char in enumerate(text):
        if char in "[{":
            depth, opened = depth + 1, i
        elif char in "]}":
            depth -= 1
            if char == "]" and depth == 0:
                yield text[:opened] + text[i + 1 :]
        elif depth == 0 and char in symbols and (i == 0 or text[i - 1] != "\\"):
            yield text[:i] + rng.choice(symbols.replace(char, "")) + text[i + 1 :]
        elif depth == 0 and char == "*":
            yield text[:i] + text[i + 1 :]
        elif depth == 1 and text[opened] == "{" and char.isdigit():
            yield text[:i] + str((int(char) + 1) % 10) + text[i + 1 :]


class _Timeout(Exception):
    pass


@contextmanager
def _deadline(seconds: float) -> Iterator[None]:
    def expire(signum: int, frame: FrameType | None) -> None:
        raise _Timeout

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _best_of(repeat: int, run: Callable[[], T]) -> tuple[float, T]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - start)
    return min(times), result


def _capped(limit: float, run: Callable[[], T]) -> tuple[float | None, T | None]:
    """Seconds and result of one run, or (None, None) when it passes ``limit`` or fails."""
    start = time.perf_counter()
    try:
        with _deadline(limit):
            result = run()
    except (
        Exception
    ):  # _Timeout, or any of the assorted errors pyformlang raises on what it cannot handle
        return None, None
    return time.perf_counter() - start, result


# --- our engine --------------------------------------------------------------------------------


def _our_teacher_step(target: DFA, hypothesis: str, dialect: Dialect) -> list[str]:
    guess = from_text(hypothesis, dialect)
    if ops.equivalence_witness(target, guess) is None:
        return []
    rng = np.random.default_rng(0)
    half = WITNESSES // 2
    positive = sample_strings(ops.difference(target, guess), half, rng, max_len=MAX_LEN)
    negative = sample_strings(ops.difference(guess, target), WITNESSES - half, rng, max_len=MAX_LEN)
    return positive + negative


def _our_counterexamples(a: DFA, b: DFA) -> list[str]:
    return sample_strings(
        ops.symmetric_difference(a, b), WITNESSES, np.random.default_rng(0), max_len=MAX_LEN
    )


def _our_shortest(a: DFA, b: DFA) -> list[str]:
    return shortest(ops.symmetric_difference(a, b), WITNESSES, spelling="characters")


def _our_teacher_step_shortest(target: DFA, hypothesis: str, dialect: Dialect) -> list[str]:
    guess = from_text(hypothesis, dialect)
    return [] if ops.equivalence_witness(target, guess) is None else _our_shortest(target, guess)


def counterpart(peer: Peer, op: str) -> bool:
    """Whether ``peer`` does operation ``op`` the way we do (none clusters counterexamples; the
    random rows need a random sampler, the shortest rows a shortest-first listing)."""
    if op == "oracle":
        return False
    if op in ("counterexamples", "teacher"):
        return peer.random is not None
    if op in ("shortest", "teacher_shortest"):
        return peer.shortest is not None
    return op != "counts" or peer.counts is not None


@attrs.define
class Timings:
    """Seconds per case for one operation and dialect; None where an engine was skipped, and for
    every engine where the operation does not apply (equivalence of pairs with equal languages)."""

    ours: list[float | None] = attrs.field(factory=list)
    peers: dict[str, list[float | None]] = attrs.field(factory=dict)


def run(
    cases: list[Case],
    peers: list[Peer],
    *,
    limit: float,
    repeat: int,
    echo: Callable[[str], None] = print,
) -> dict[str, Any]:
    """Time every operation on every case with every engine; the raw timings and skip reasons."""
    timings = {
        (op, dialect): Timings(peers={p.name: [] for p in peers if counterpart(p, op)})
        for op in OPERATIONS
        for dialect in _LISTS
    }
    unsupported: dict[str, dict[str, list[str]]] = {p.name: {d: [] for d in _LISTS} for p in peers}
    parts: dict[str, dict[str, list[float | None]]] = {}
    for case in (
        cases[:2] + [c for c in cases if c.dialect == "extended"][:2]
    ):  # warm up the kernels
        _measure_ours(case, 1)
    for i, case in enumerate(cases):
        theirs: dict[str, dict[str, float | None]] = {}
        # Alternate who goes first, so no engine always runs on a warmer machine.
        ours = _measure_ours(case, repeat) if i % 2 == 0 else {}
        for peer in peers:
            reason = peer.unsupported(case.text, case.dialect) or peer.unsupported(
                case.mutant, case.dialect
            )
            if reason:
                unsupported[peer.name][case.dialect].append(case.text)
            else:
                theirs[peer.name] = _measure_peer(peer, case, limit)
        ours = ours or _measure_ours(case, repeat)
        unequal = ours["equivalence"] is not None
        for key, seconds in ours.items():
            if PART in key:
                op, part = key.split(PART)
                parts.setdefault(f"{op}/{case.dialect}", {}).setdefault(part, []).append(seconds)
        for op in OPERATIONS:
            timing = timings[op, case.dialect]
            timing.ours.append(ours[op])
            for name, times in theirs.items():
                if name in timing.peers:
                    timing.peers[name].append(
                        times.get(op) if op != "equivalence" or unequal else None
                    )
        if (i + 1) % 20 == 0:
            echo(f"  {i + 1}/{len(cases)} cases")
    return {
        "timings": {f"{op}/{dialect}": attrs.asdict(t) for (op, dialect), t in timings.items()},
        "parts": parts,
        "unsupported": unsupported,
    }


def _measure_ours(case: Case, repeat: int) -> dict[str, float | None]:
    """Our seconds per operation, and per ``op + PART + part`` the parts that bound the listing rows."""
    times: dict[str, float | None] = {}
    times["compile"], target = _best_of(repeat, lambda: from_text(case.text, case.dialect))
    mutant = from_text(case.mutant, case.dialect)
    if ops.equivalent(target, mutant):
        times["equivalence"] = None
    else:
        times["equivalence"], _ = _best_of(repeat, lambda: ops.equivalence_witness(target, mutant))
        times[f"equivalence{PART}the equal-tables check"], _ = _best_of(
            repeat, lambda: ops.equivalent(target, mutant)
        )
        times[f"equivalence{PART}the search on the product"], _ = _best_of(
            repeat, _search(target, mutant)
        )
    times["counterexamples"], _ = _best_of(repeat, lambda: _our_counterexamples(target, mutant))
    times["shortest"], listed = _best_of(repeat, lambda: _our_shortest(target, mutant))
    difference, _ = _best_of(repeat, lambda: ops.symmetric_difference(target, mutant))
    building, _ = _best_of(repeat, _building(listed))
    times[f"shortest{PART}{SYM_DIFF}"], times[f"shortest{PART}{BUILDING}"] = difference, building
    times[f"teacher_shortest{PART}compiling the hypothesis"], _ = _best_of(
        repeat, lambda: from_text(case.mutant, case.dialect)
    )
    unequal = times["equivalence"] is not None  # an equal hypothesis gets no counterexamples
    times[f"teacher_shortest{PART}{SYM_DIFF}"] = difference if unequal else 0.0
    times[f"teacher_shortest{PART}{BUILDING}"] = building if unequal else 0.0
    times["counts"], _ = _best_of(repeat, lambda: count_by_length(target, MAX_LEN))
    times["teacher"], _ = _best_of(
        repeat, lambda: _our_teacher_step(target, case.mutant, case.dialect)
    )
    times["teacher_shortest"], _ = _best_of(
        repeat, lambda: _our_teacher_step_shortest(target, case.mutant, case.dialect)
    )
    teacher = ExactTeacher.from_regex(
        case.text, case.dialect, config=TeacherConfig(batch=WITNESSES, clustered=True)
    )
    times["oracle"], _ = _best_of(repeat, lambda: teacher.check(case.mutant))
    return times


def _search(a: DFA, b: DFA) -> Callable[[], object]:
    """The breadth-first search :func:`ops.equivalence_witness` runs, alone (its private parts: this
    is a profile), on the tables as Python lists (small pairs) or through the compiled kernel."""
    _, left_columns, right_columns = ops._columns(a, b)
    if _small_pairs.small(a, b, len(left_columns)):
        args = (
            a.transitions.tolist(),
            left_columns.tolist(),
            a.accepting.tolist(),
            a.start,
            b.transitions.tolist(),
            right_columns.tolist(),
            b.accepting.tolist(),
            b.start,
        )
        return lambda: _small_pairs.shortest_distinction(*args, ops._SYMMETRIC, DEFAULT_STATE_LIMIT)
    wanted = np.array(ops._SYMMETRIC)
    return lambda: _kernels.shortest_distinction(
        a.transitions,
        left_columns,
        a.accepting,
        a.start,
        b.transitions,
        right_columns,
        b.accepting,
        b.start,
        wanted,
        DEFAULT_STATE_LIMIT,
    )


def _building(strings: list[str]) -> Callable[[], list[str]]:
    """Building ``strings`` as Python strings from their code points, the way ``shortest`` does
    (one decode, one split): the cost of the output alone, which no listing can go below."""
    codes = np.frombuffer(
        "".join(s + "\0" for s in strings).encode("utf-32-le", "surrogatepass"), dtype=np.uint32
    )
    return lambda: codes.tobytes().decode("utf-32-le", "surrogatepass").split("\0")[:-1]


def _measure_peer(peer: Peer, case: Case, limit: float) -> dict[str, float | None]:
    times: dict[str, float | None] = dict.fromkeys(OPERATIONS)
    times["compile"], target = _capped(limit, lambda: peer.compile(case.text, case.dialect))
    _, mutant = _capped(limit, lambda: peer.compile(case.mutant, case.dialect))
    if target is None or mutant is None:
        return times
    times["equivalence"], _ = _capped(limit, lambda: peer.equivalent(target, mutant))
    if peer.counts is not None:
        count = peer.counts
        times["counts"], _ = _capped(limit, lambda: count(target, MAX_LEN))
    kinds = (
        ("counterexamples", "teacher", peer.random),
        ("shortest", "teacher_shortest", peer.shortest),
    )
    for op, teacher_op, witnesses in kinds:
        if witnesses is not None:
            times[op], times[teacher_op] = _peer_witnesses(
                peer, witnesses, target, mutant, case, limit
            )
    return times


def _peer_witnesses(
    peer: Peer,
    witnesses: Callable[[Any, Any], list[str]],
    target: Any,
    mutant: Any,
    case: Case,
    limit: float,
) -> tuple[float | None, float | None]:
    """Seconds of the counterexamples of ``target`` and ``mutant``, and of a teacher step giving them."""
    alone, _ = _capped(limit, lambda: witnesses(target, mutant))
    step, _ = _capped(
        limit, lambda: peer_teacher_step(peer, witnesses, target, case.mutant, case.dialect)
    )
    return alone, step


# --- cold start --------------------------------------------------------------------------------

_COLD_START = """
import json, sys, time
start = time.perf_counter()
import numpy as np
from automata.algebra import ops
from automata.building.compile import from_text
from automata.strings.counting import count_by_length
from automata.strings.sampling import sample_strings
from experiments.data_dir import DEFAULT_DATA_DIR
from oracle.exact import ExactTeacher, TeacherConfig
imported = time.perf_counter()
steps = []
for text, mutant, dialect in json.loads(sys.argv[1]) * 2:
    begin = time.perf_counter()
    target, guess = from_text(text, dialect), from_text(mutant, dialect)
    if ops.equivalence_witness(target, guess) is not None:
        for diff in (ops.difference(target, guess), ops.difference(guess, target)):
            sample_strings(diff, 125, np.random.default_rng(0))
    count_by_length(target, 32)
    steps.append(time.perf_counter() - begin)
half = len(steps) // 2
print(json.dumps({"import": imported - start, "first": steps[:half], "again": steps[half:]}))
"""


def measure_cold_start(cases: list[Case]) -> dict[str, Any]:
    """Import time and teacher steps in fresh interpreters, first with an empty numba cache, then
    with the cache that run left behind; each runs its steps twice, the second pass being warm."""
    picks = [next(c for c in cases if c.dialect == d) for d in _LISTS]
    argument = json.dumps([[c.text, c.mutant, c.dialect] for c in picks])
    result: dict[str, Any] = {"cases": [c.text for c in picks]}
    with tempfile.TemporaryDirectory() as cache:
        for label in ("empty cache", "warm cache"):
            env = {**os.environ, "NUMBA_CACHE_DIR": cache, "PYTHONPATH": str(_ROOT)}
            begin = time.perf_counter()
            done = subprocess.run(
                [sys.executable, "-c", _COLD_START, argument],
                env=env,
                cwd=_ROOT,
                capture_output=True,
                text=True,
                check=True,
            )
            result[label] = {**json.loads(done.stdout), "process": time.perf_counter() - begin}
    return result


# --- reporting ---------------------------------------------------------------------------------


def summarize(raw: dict[str, Any]) -> list[dict[str, Any]]:
    """Per operation and dialect: our p50/p95 and, per peer, its p50/p95, how many cases it ran,
    skipped or could not read, the median per-case ratio peer/ours, and on the cases it ran our
    p50 and that of each measured part of our time."""
    rows = []
    for key, timing in raw["timings"].items():
        parts = raw.get("parts", {}).get(key, {})
        op, dialect = key.split("/")
        ours = np.asarray([o for o in timing["ours"] if o is not None])
        row: dict[str, Any] = {
            "operation": op,
            "dialect": dialect,
            "cases": len(ours),
            "ours_p50": float(np.median(ours)) if ours.size else None,
            "ours_p95": float(np.percentile(ours, 95)) if ours.size else None,
        }
        for name, theirs in timing["peers"].items():
            paired = [
                (t, o) for t, o in zip(theirs, timing["ours"]) if t is not None and o is not None
            ]
            ran = np.asarray([t for t, _ in paired])
            applicable = sum(o is not None for o, t in zip(timing["ours"], theirs))
            row[name] = {
                "ran": len(paired),
                "skipped": applicable - len(paired),
                "unsupported": len(raw["unsupported"][name][dialect]),
                "p50": float(np.median(ran)) if paired else None,
                "p95": float(np.percentile(ran, 95)) if paired else None,
                "ratio": float(np.median([t / o for t, o in paired])) if paired else None,
                "ours_p50": float(np.median([o for _, o in paired])) if paired else None,
                "parts_p50": {
                    part: float(
                        np.median(
                            [
                                x
                                for x, t, o in zip(xs, theirs, timing["ours"])
                                if t is not None and o is not None
                            ]
                        )
                    )
                    for part, xs in parts.items()
                }
                if paired
                else {},
            }
        rows.append(row)
    return rows


def _fastest_peer(row: dict[str, Any]) -> tuple[str, float] | None:
    """The peer with the smallest ratio to ours on this row (the closest to us), and that ratio."""
    ratios = [
        (value["ratio"], name)
        for name, value in row.items()
        if isinstance(value, dict) and value["ratio"] is not None
    ]
    if not ratios:
        return None
    ratio, name = min(ratios)
    return name, ratio


def _bound(peer: dict[str, Any], name: str) -> str:
    """Where our time goes on the cases ``name`` ran, against what 10× ``name`` leaves."""
    parts = peer["parts_p50"]
    rest = peer["ours_p50"] - sum(parts.values())
    spent = " + ".join(f"{part} {_ms(seconds)}" for part, seconds in parts.items())
    return (
        f"    bound, p50 over the {peer['ran']} cases {name} ran: ours {_ms(peer['ours_p50'])} = {spent} + the rest "
        f"{_ms(max(rest, 0.0))}; 10× {name} leaves {_ms(peer['p50'] / PEER_TARGET)}"
    )


def _ms(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} µs"
    return f"{seconds * 1e3:.2f} ms" if seconds < 1 else f"{seconds:.2f} s"


def render(rows: list[dict[str, Any]], cold: dict[str, Any] | None, limit: float) -> str:
    """The results as a plain-text table, the targets, and the cold-start costs."""
    header = ["operation", "dialect", "cases", "ours p50", "ours p95"]
    # summarize: one dict per peer that has a counterpart
    peers = list(
        dict.fromkeys(
            name for row in rows for name, value in row.items() if isinstance(value, dict)
        )
    )
    header += [f"{name} p50 (ratio; ran/skipped/unread)" for name in peers]

    def peer_cell(row: dict[str, Any], name: str) -> str:
        if name not in row:
            return "no counterpart"
        peer = row[name]
        ratio = (
            "-"
            if peer["ratio"] is None
            else f"{peer['ratio']:.{0 if peer['ratio'] >= 10 else 1}f}×"
        )
        return (
            f"{_ms(peer['p50'])} ({ratio}; {peer['ran']}/{peer['skipped']}/{peer['unsupported']})"
        )

    lines = [
        [
            OPERATIONS[r["operation"]],
            r["dialect"],
            str(r["cases"]),
            _ms(r["ours_p50"]),
            _ms(r["ours_p95"]),
        ]
        + [peer_cell(r, name) for name in peers]
        for r in rows
    ]
    widths = [max(len(row[i]) for row in [header, *lines]) for i in range(len(header))]
    out = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)) for row in [header, *lines]]
    out.insert(1, "  ".join("-" * w for w in widths))
    out.append("")
    out.append(
        f"ratio: median over cases of the peer's time / ours, on the cases it finished; skipped: over "
        f"{limit:g} s or failed; unread: syntax it cannot read (pyformlang: & ~ {{n,}}; others: & ~)."
    )
    out.append("targets:")
    for r in rows:
        name = f"{OPERATIONS[r['operation']]} ({r['dialect']})"
        ratio = r["pyformlang"]["ratio"] if "pyformlang" in r else None
        if r["operation"] in ("compile", "equivalence") and ratio is not None:
            verdict = "met" if ratio >= SPEEDUP_TARGET else "MISSED"
            out.append(f"  {name}: ≥{SPEEDUP_TARGET:.0f}× pyformlang: {verdict} ({ratio:.0f}×)")
        fastest = _fastest_peer(r)
        if fastest is not None:
            peer, peer_ratio = fastest
            verdict = "met" if peer_ratio >= PEER_TARGET else "MISSED"
            out.append(
                f"  {name}: ≥{PEER_TARGET:.0f}× the fastest peer ({peer}): {verdict} ({peer_ratio:.1f}×)"
            )
            if peer_ratio < PEER_TARGET and r[peer]["parts_p50"]:  # where our time goes
                out.append(_bound(r[peer], peer))
        if (
            r["operation"] in ("teacher", "teacher_shortest", "oracle")
            and r["ours_p95"] is not None
        ):
            budget = TEACHER_P95_MS[r["dialect"]] / 1e3
            verdict = "met" if r["ours_p95"] <= budget else "MISSED"
            out.append(f"  {name}: p95 ≤ {_ms(budget)}: {verdict} ({_ms(r['ours_p95'])})")
    if cold is not None:
        out.append(
            f"cold start: a fresh interpreter imports automata, then runs a teacher step and counts on "
            f"{cold['cases'][0]!r} and on {cold['cases'][1]!r}, twice:"
        )
        for label in ("empty cache", "warm cache"):
            run_ = cold[label]
            first, again = (", ".join(_ms(s) for s in run_[key]) for key in ("first", "again"))
            out.append(
                f"  numba {label}: import {_ms(run_['import'])}; first steps {first}; again {again}; "
                f"whole process {_ms(run_['process'])}"
            )
    return "\n".join(out)


@click.command()
@click.option(
    "--data",
    type=click.Path(path_type=Path),
    default=DEFAULT_DATA_DIR,
    show_default=True,
    help="data folder",
)
@click.option(
    "--limit",
    type=float,
    default=2.0,
    show_default=True,
    help="seconds allowed per pyformlang operation",
)
@click.option(
    "--repeat",
    type=int,
    default=3,
    show_default=True,
    help="runs per operation for our engine (best kept)",
)
@click.option(
    "--per-cell",
    type=int,
    default=3,
    show_default=True,
    help="regexes per (#States, Stardepth) cell",
)
@click.option("--seed", type=int, default=0, show_default=True, help="seed of the mutations")
@click.option(
    "--cold-start/--no-cold-start",
    default=True,
    show_default=True,
    help="measure fresh-process costs",
)
@click.option(
    "--json",
    "json_path",
    type=click.Path(path_type=Path),
    default=None,
    help="also write the results here",
)
def main(
    data: Path,
    limit: float,
    repeat: int,
    per_cell: int,
    seed: int,
    cold_start: bool,
    json_path: Path | None,
) -> None:
    """Time our automata engine against pyformlang, interegular and greenery on the seed paper's regexes."""
    cases = load_cases(data, per_cell, seed)
    peers = load_peers()
    click.echo(
        f"{len(cases)} cases; {', '.join(p.name for p in peers)} limited to {limit:g} s per operation"
    )
    with forced(
        "compiled"
    ):  # warm: every kernel compiled (a long run gets there after its first calls)
        raw = run(cases, peers, limit=limit, repeat=repeat, echo=click.echo)
        looked = lookarounds.measure(repeat, seed)
    rows = summarize(raw)
    cold = measure_cold_start(cases) if cold_start else None
    click.echo(render(rows, cold, limit))
    click.echo(lookarounds.render(looked))
    if json_path is not None:
        report = {
            "limit": limit,
            "repeat": repeat,
            "seed": seed,
            "cases": [attrs.asdict(case) for case in cases],
            "summary": rows,
            "cold_start": cold,
            "lookarounds": looked,
            **raw,
        }
        json_path.write_text(json.dumps(report, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
