"""Confirming an attack by timing it on the real engine, in a subprocess with a time limit.

The static verdict is a claim about an engine; this module asks the engine. A child process (Python
``re``, or ``node`` for JavaScript when it is on the ``PATH``) compiles the pattern once and times
the match call on the attack with every pump repeated n times, printing one line per trial, until a
trial takes ``target`` seconds. The parent kills it when a trial runs past a deadline, so an
exponential attack never hangs the caller: the trial that was cut counts as at least the time it
was given. Python's child cuts itself at that deadline in CPU time (``ITIMER_PROF``), the clock its
trials are read on: a wall-clock cut on a busy machine reads a polynomial trial as exponential.

A trial is the child's CPU time, not the wall clock, and a trial shorter than :data:`REPEATED` is
the least of :data:`REPEATS` runs: on a machine shared with other work the wall clock adds whatever
time the child waited for a core, and even CPU time runs up to twice as long while other processes
share the caches, which bends a slope by more than a whole degree. n takes every value up to
:data:`DENSE` (a high degree goes from microseconds to the target within a few of them), then grows
by :data:`GROWTH` per trial. The growth exponent is :func:`fitted_slope`, the one fit the benchmark
uses too: least squares on log time over log n across the trials within :data:`SPAN` of the slowest,
where two endpoints alone let one noisy trial or the linear part of the work at small n bend it.
That slope is the degree only once the pump count has left the dense range
(:func:`asymptotic`): a chain of k pumps takes time in the product of k terms ``n + a``, whose
log-log slope at the n = 5 a degree 8 reaches a second at is about 6.4, and no fit of a few noisy
trials there tells the degree (a fit of the shift ``a`` read one such chain as 6.2 to 9.3 from run to
run). An exponential attack shows as a deadline cut or a local slope past any small degree.
"""

from __future__ import annotations

import json
import math
import queue
import shutil
import signal
import subprocess
import sys
import threading
from typing import Any

import attrs

from automata.redos.verdict import Attack, Engine, Semantics, Verdict

#: A trial faster than this is noise for the slope.
MEASURABLE = 2e-3
#: Local slopes (between the last two trials) above this are read as exponential growth: a
#: polynomial's stays near its degree, an exponential's grows with n.
EXPONENTIAL_SLOPE = 8.0
#: Shifted fits (:func:`_shifted_slope`) above this are read as exponential growth: the shifted fit
#: reads a degree 8 as at most about 10.
EXPONENTIAL_FIT = 16.0
#: Trials within this factor of the slowest one are fitted (the rest is start-up and noise).
SPAN = 30.0
#: Trials within this factor of the largest pump count are fitted too (a high degree crosses the
#: time span in one or two steps of n).
N_SPAN = 3.0
#: Pump counts take every value up to this one, then grow by :data:`GROWTH` per trial.
DENSE = 12
GROWTH = 2 ** (1 / 3)
#: Shifts of n tried by :func:`_shifted_slope`.
SHIFTS = tuple(i / 4 for i in range(4 * DENSE + 1))
#: A trial shorter than :data:`REPEATED` seconds is run this many times and the least is kept (at
#: 0.05 s, the fitted trials between 0.05 and 0.25 s were single runs, up to 1.9 times slower than
#: their least on a loaded machine).
REPEATS = 3
REPEATED = 0.25
#: Python's child is cut at its deadline in CPU time; the wall clock only at this many times it.
WALL_FACTOR = 4.0
#: The longest attack text tried.
MAX_LENGTH = 2_000_000

_PYTHON_CHILD = """
import json, re, signal, sys, time
spec = json.loads(sys.stdin.read())
call = getattr(re.compile(spec["pattern"]), spec["call"])
for n in spec["ns"]:
    text = spec["prefix"] + "".join(p * n + i for p, i in spec["pumps"]) + spec["suffix"]
    took = None
    for _ in range(spec["repeats"]):
        signal.setitimer(signal.ITIMER_PROF, spec["cpu_limit"])  # SIGPROF ends the child
        start = time.process_time()
        call(text)
        once = time.process_time() - start
        signal.setitimer(signal.ITIMER_PROF, 0)
        took = once if took is None else min(took, once)
        if once >= spec["repeated"]:
            break
    print(json.dumps([n, took]), flush=True)
    if took >= spec["target"]:
        break
"""

_NODE_CHILD = """
const spec = JSON.parse(require("fs").readFileSync(0, "utf8"));
const wrap = {fullmatch: (p) => "^(?:" + p + ")$", match: (p) => "^(?:" + p + ")", search: (p) => p};
const re = new RegExp(wrap[spec.call](spec.pattern), spec.pattern.includes("\\\\u{") ? "u" : "");
for (const n of spec.ns) {
  const text = spec.prefix + spec.pumps.map(([p, i]) => p.repeat(n) + i).join("") + spec.suffix;
  let took = Infinity;
  for (let r = 0; r < spec.repeats; r++) {
    const start = process.cpuUsage();
    re.test(text);
    const used = process.cpuUsage(start);
    const once = (used.user + used.system) / 1e6;
    took = Math.min(took, once);
    if (once >= spec.repeated) break;
  }
  process.stdout.write(JSON.stringify([n, took]) + "\\n");
  if (took >= spec.target) break;
}
"""


@attrs.frozen
class Confirmation:
    """What the engine did on the attack: the trials (pump count, seconds; the last one cut at
    the deadline when ``cut``), the growth slope, and whether that matches the verdict."""

    confirmed: bool
    seconds: float
    slope: float | None
    trials: tuple[tuple[int, float], ...]
    cut: bool
    reason: str = ""


def engine_command(engine: Engine) -> list[str] | None:
    """The command that runs a child program for ``engine``, or None when it is not installed
    (PCRE has no engine here; Python's is the one running this)."""
    if engine == "python":
        return [sys.executable, "-c", _PYTHON_CHILD]
    if engine == "javascript":
        node = shutil.which("node")
        return None if node is None else [node, "-e", _NODE_CHILD]
    return None


def json_lines_child(
    command: list[str], spec: dict[str, Any], silence: float
) -> tuple[list[Any], bool]:
    """The JSON lines a child process ``command`` prints for ``spec`` (sent as JSON on its stdin),
    each within ``silence`` seconds of the one before (or of the start), and whether one was late
    (the child is then killed and what it printed so far is kept) or the child ended itself on its
    CPU-time limit (``SIGPROF``). A limit per line, not per child, so that many quick trials on a
    loaded machine are not cut for their sum."""
    lines: queue.Queue[str | None] = queue.Queue()
    rows: list[Any] = []
    cut = False
    with subprocess.Popen(
        command,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    ) as child:
        assert child.stdin is not None and child.stdout is not None
        out = child.stdout

        def read() -> None:
            for line in out:
                lines.put(line)
            lines.put(None)

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        try:
            child.stdin.write(json.dumps(spec))
            child.stdin.close()
        except BrokenPipeError:
            pass
        while True:
            try:
                line = lines.get(timeout=silence)
            except queue.Empty:
                child.kill()
                cut = True
                break
            if line is None:
                break
            if line.strip():
                rows.append(json.loads(line))
        child.wait()
        reader.join()
    return rows, cut or child.returncode == -signal.SIGPROF


def pump_counts(attack: Attack) -> list[int]:
    """Pump counts 1 to :data:`DENSE`, then growing by :data:`GROWTH` per trial, up to
    :data:`MAX_LENGTH` characters."""
    counts: list[int] = []
    n = 1.0
    while len(attack.text(int(n))) <= MAX_LENGTH:
        if not counts or int(n) > counts[-1]:
            counts.append(int(n))
        n = n + 1 if n < DENSE else n * GROWTH
    return counts


def time_attack(
    pattern: str,
    engine: Engine,
    semantics: Semantics,
    attack: Attack,
    *,
    target: float = 1.0,
    deadline: float | None = None,
) -> tuple[tuple[tuple[int, float], ...], bool] | None:
    """Trials of ``attack`` on ``engine`` (None when the engine is not installed) and whether the
    last was cut, after ``deadline`` seconds without a result (default: three times ``target``
    plus start-up); the cut trial counts as that long. Python's child cuts itself at ``deadline``
    seconds of its own CPU time, the clock of its trials, so a loaded machine does not cut a
    trial that would have fitted; the wall clock cuts only at :data:`WALL_FACTOR` times that
    (``node`` has no such limit: its deadline is wall-clock time)."""
    command = engine_command(engine)
    if command is None:
        return None
    counts = pump_counts(attack)
    spec = {
        "pattern": pattern,
        "call": semantics,
        "prefix": attack.prefix,
        "pumps": attack.pumps,
        "suffix": attack.suffix,
        "ns": counts,
        "target": target,
        "repeats": REPEATS,
        "repeated": REPEATED,
    }
    limit = deadline if deadline is not None else 3 * target + 2.0
    spec["cpu_limit"] = limit
    silence = limit * WALL_FACTOR if engine == "python" else limit
    rows, cut = json_lines_child(command, spec, silence)
    timed = tuple((int(n), float(s)) for n, s in rows)
    if cut:
        following = [n for n in counts if not timed or n > timed[-1][0]]
        if following:
            timed += ((int(following[0]), max(limit, target)),)
    return timed, cut


def fitted_slope(trials: tuple[tuple[int, float], ...]) -> float | None:
    """The growth exponent k of ``trials``: least squares of log seconds on log n across
    :func:`fitted_trials`; None with fewer than two such trials at distinct n."""
    kept = fitted_trials(trials)
    if len({n for n, _ in kept}) < 2:
        return None
    return _least_squares([math.log(n) for n, _ in kept], [math.log(s) for _, s in kept])[1]


def fitted_trials(trials: tuple[tuple[int, float], ...]) -> list[tuple[int, float]]:
    """The trials a slope is fitted on: those within :data:`SPAN` of the slowest or
    :data:`N_SPAN` of the largest n (or, when fewer than three are, every trial of at least
    :data:`MEASURABLE`); the rest is start-up and noise."""
    slowest = max((s for _, s in trials), default=0.0)
    largest = max((n for n, _ in trials), default=0)
    kept = [
        (n, s)
        for n, s in trials
        if s >= MEASURABLE and (s >= slowest / SPAN or n >= largest / N_SPAN)
    ]
    return kept if len(kept) >= 3 else [(n, s) for n, s in trials if s >= MEASURABLE]


def asymptotic(trials: tuple[tuple[int, float], ...]) -> bool:
    """Whether the fitted slope of ``trials`` can be read as a degree: the pump count went past
    :data:`DENSE`. Before that a chain's lower-order terms (each pump's ``n + a``, with ``a`` up to
    a few characters) bend the log-log slope by more than half a degree, and the target came too
    soon to leave them behind: a degree 8 reaches a second at n = 5, where its paths grow as
    n^6.9, and would take about a thousand times longer at n = 15."""
    return max((n for n, _ in trials), default=0) > DENSE


def _shifted_slope(trials: tuple[tuple[int, float], ...]) -> float | None:
    """The least-squares slope of log seconds on log(n + h) across :func:`fitted_trials`, the shift
    ``h`` (0 to :data:`DENSE`) the one that fits best (0 with two trials); None with fewer than
    two trials at distinct n.

    Only a test for exponential growth (:func:`exponential`), not a degree: a chain of pumps'
    product of ``(n + a)`` terms fits with some shift, ``(n+1)…(n+8)`` as about 8 and never past
    :data:`EXPONENTIAL_FIT`, whereas an exponential's log time is straight in n and fits no shift of
    log n, which reads it far steeper. Fitting the shift costs a degree of freedom that noise fills:
    as a degree it read one chain of 8 as 6.2 to 9.3 and chains of 4 as up to 5.0."""
    kept = fitted_trials(trials)
    if len({n for n, _ in kept}) < 2:
        return None
    ys = [math.log(s) for _, s in kept]
    shifts = SHIFTS if len(kept) >= 3 else (0.0,)
    fits = [_least_squares([math.log(n + h) for n, _ in kept], ys) for h in shifts]
    return min(fits)[1]


def _least_squares(xs: list[float], ys: list[float]) -> tuple[float, float]:
    """(sum of squared residuals, slope) of the least-squares line through the points."""
    mean_x, mean_y = sum(xs) / len(xs), sum(ys) / len(ys)
    spread = sum((x - mean_x) ** 2 for x in xs)
    slope = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True)) / spread
    residual = sum((y - mean_y - slope * (x - mean_x)) ** 2 for x, y in zip(xs, ys, strict=True))
    return residual, slope


def local_slope(trials: tuple[tuple[int, float], ...]) -> float | None:
    """log-log growth over the last steps between measurable trials: the lesser of the last two
    (one trial slowed by the machine does not make a polynomial look exponential; an exponential's
    local slopes only grow)."""
    measurable = [(n, s) for n, s in trials if s >= MEASURABLE]
    tail = measurable[-3:]
    steps = [_growth(a, b) for a, b in zip(tail, tail[1:], strict=False)]
    known = [g for g in steps if g is not None]
    return min(known) if known else None


def _growth(first: tuple[int, float], last: tuple[int, float]) -> float | None:
    (n1, s1), (n2, s2) = first, last
    return math.log(s2 / s1) / math.log(n2 / n1) if n2 > n1 else None


def exponential(trials: tuple[tuple[int, float], ...], cut: bool) -> bool:
    """Whether the trials grow exponentially: cut at the deadline, a local slope past
    :data:`EXPONENTIAL_SLOPE`, or a shifted fit past :data:`EXPONENTIAL_FIT` (an exponential that
    reaches the target at a small n, ``(?:.*[A-Za-z].*){7,}`` gaining x3.8 per pump from n = 1 to
    6, has local slopes near 7 there but fits about 22)."""
    local = local_slope(trials)
    shifted = _shifted_slope(trials)
    return (
        cut
        or (local is not None and local > EXPONENTIAL_SLOPE)
        or (shifted is not None and shifted > EXPONENTIAL_FIT)
    )


def confirm(
    pattern: str, verdict: Verdict, *, target: float = 1.0, deadline: float | None = None
) -> Confirmation:
    """Time ``verdict``'s attack on its engine and say whether the growth fits its class:
    exponential by :func:`exponential`, polynomial of degree k
    within ±0.5 of k or reaching ``target`` seconds with a slope above 1.5."""
    if verdict.attack is None:
        return Confirmation(False, 0.0, None, (), False, "a linear verdict has no attack")
    timed = time_attack(
        pattern, verdict.engine, verdict.semantics, verdict.attack, target=target, deadline=deadline
    )
    if timed is None:
        return Confirmation(False, 0.0, None, (), False, f"no {verdict.engine} engine installed")
    trials, cut = timed
    seconds = max((s for _, s in trials), default=0.0)
    growth = fitted_slope(trials)
    if verdict.verdict == "exponential":
        fits = exponential(trials, cut)
    else:
        degree = verdict.degree or 0
        fits = (
            not exponential(trials, cut)
            and growth is not None
            and (abs(growth - degree) <= 0.5 or (seconds >= target and growth > 1.5))
        )
    return Confirmation(fits, seconds, growth, trials, cut)
