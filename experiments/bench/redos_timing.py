"""Ground truth for ``bench redos``: how Python's ``re`` really scales on a regex, by timing it.

The static verdict is not its own judge. A regex is *super-linear* here when some input family
makes ``re`` (in a subprocess with a deadline, :func:`automata.redos.confirm.time_attack`) grow
faster than linearly: the static attack, a peer's attack when a peer gave one, or a *pumped
family*: from accepted strings ``s`` of the regex, every ``s[:i] + s[i:j] * n + tail`` with a short
pump ``s[i:j]`` and a tail that makes the match fail. The pumped family is screened at two sizes in
one child per regex; only the most suspect input is grown until a trial takes ``target`` seconds.

Every trial is the child's CPU time (the least of a few runs when short), and the growth exponent is
:func:`automata.redos.confirm.fitted_slope`, the fit the confirmation of an attack uses; it is read
as a degree only when :func:`automata.redos.confirm.asymptotic` (the target came after the dense
small pump counts). Growth is exponential when the deadline cut the last trial or the local slope
passes :data:`automata.redos.confirm.EXPONENTIAL_SLOPE`.
"""

from __future__ import annotations

import math
import re
import sys

import attrs
import numpy as np

from automata.building.compile import compile_regex
from automata.core.minimize import minimize
from automata.redos import Attack, Semantics
from automata.redos.confirm import (
    MEASURABLE,
    asymptotic,
    exponential,
    fitted_slope,
    json_lines_child,
    time_attack,
)
from automata.strings.sampling import sample_strings
from regexlang.charset import UNICODE, CharSet
from regexlang.dialects import parse

#: Pumped texts are screened at these lengths (characters), the second four times the first.
SCREEN_LENGTHS = (1000, 4000)
#: Slope between the two screened lengths above which an input is grown (and timed properly).
SUSPECT_SLOPE = 1.4
#: A screened trial this slow is suspect whatever its slope (an exponential input).
SUSPECT_SECONDS = 0.05
#: Tails tried after a pump; those that make the screened text match are dropped.
TAILS = ("", "\x00", "!", " ", "a", "0", "\n")
#: Accepted strings a pumped family starts from, and the longest pump.
SEEDS = 6
MAX_PUMP = 3
#: The longest accepted string a family starts from (checking that a pumped text fails runs in
#: this process, so it stays short enough for an exponential regex).
SEED_LENGTH = 12
#: Most pumped inputs screened per regex.
MAX_CANDIDATES = 240
#: Seconds the screening child may take over one candidate before it is cut.
SCREEN_DEADLINE = 8.0

_SCREEN_CHILD = """
import json, re, sys, time
spec = json.loads(sys.stdin.read())
call = getattr(re.compile(spec["pattern"]), spec["call"])
for index, (prefix, pump, tail) in enumerate(spec["candidates"]):
    times = []
    for length in spec["lengths"]:
        text = prefix + pump * max(1, length // len(pump)) + tail
        took = None
        for _ in range(3):
            start = time.process_time()
            call(text)
            once = time.process_time() - start
            took = once if took is None else min(took, once)
            if once >= 0.01:
                break
        times.append(took)
    print(json.dumps([index, times]), flush=True)
"""


@attrs.frozen
class Growth:
    """How ``re`` scaled on one input family: its trials (pump count, seconds), the fitted slope,
    whether it grew exponentially, and whether it is super-linear at all."""

    trials: tuple[tuple[int, float], ...]
    slope: float | None
    exponential: bool

    @property
    def superlinear(self) -> bool:
        """Exponential, or a fitted slope of at least 1.5."""
        return self.exponential or (self.slope is not None and self.slope >= 1.5)

    @property
    def asymptotic(self) -> bool:
        """Whether the slope can be read as a degree (:func:`automata.redos.confirm.asymptotic`)."""
        return asymptotic(self.trials)

    @property
    def seconds(self) -> float:
        """The slowest trial."""
        return max((s for _, s in self.trials), default=0.0)


def grown(pattern: str, semantics: Semantics, attack: Attack, target: float) -> Growth | None:
    """``attack`` on Python's ``re``, its pump grown until a trial takes ``target`` seconds (or
    the deadline cuts it); None when no trial was measurable."""
    timed = time_attack(pattern, "python", semantics, attack, target=target)
    if timed is None:
        return None
    trials, cut = timed
    return Growth(trials, fitted_slope(trials), exponential(trials, cut))


def pumped_family(
    pattern: str, semantics: Semantics, universe: CharSet = UNICODE, seed: int = 0
) -> list[Attack]:
    """Failing pumped inputs built from accepted strings of ``pattern`` (see the module doc), at
    most :data:`MAX_CANDIDATES`, without repeats."""
    dfa = minimize(compile_regex(parse(pattern, "python", universe), universe))
    seeds = sample_strings(dfa, SEEDS, np.random.default_rng(seed), max_len=SEED_LENGTH, min_len=1)
    call = getattr(re.compile(pattern), semantics)
    family: dict[tuple[str, str, str], None] = {}
    for string in seeds:
        for i in range(len(string)):
            for j in range(i + 1, min(i + MAX_PUMP, len(string)) + 1):
                prefix, pump = string[:i], string[i:j]
                for tail in (*TAILS, string[j:]):
                    if call(prefix + pump * 2 + tail) is None:  # short: an exponential one is cheap
                        family[(prefix, pump, tail)] = None
    return [Attack(p, ((u, ""),), t) for p, u, t in list(family)[:MAX_CANDIDATES]]


def screened(pattern: str, semantics: Semantics, family: list[Attack]) -> Attack | None:
    """The most suspect input of ``family`` at :data:`SCREEN_LENGTHS` (the one the deadline cut,
    else the steepest one past :data:`SUSPECT_SLOPE` or :data:`SUSPECT_SECONDS`); None when none is
    suspect."""
    spec = {
        "pattern": pattern,
        "call": semantics,
        "candidates": [(a.prefix, a.pumps[0][0], a.suffix) for a in family],
        "lengths": SCREEN_LENGTHS,
    }
    rows, cut = json_lines_child([sys.executable, "-c", _SCREEN_CHILD], spec, SCREEN_DEADLINE)
    if cut:
        done = rows[-1][0] + 1 if rows else 0
        return family[done] if done < len(family) else None
    ratio = math.log(SCREEN_LENGTHS[1] / SCREEN_LENGTHS[0])
    suspects = [
        (second, index)
        for index, (first, second) in rows
        if second >= SUSPECT_SECONDS
        or (second >= MEASURABLE and math.log(second / max(first, 1e-7)) / ratio >= SUSPECT_SLOPE)
    ]
    return family[max(suspects)[1]] if suspects else None
