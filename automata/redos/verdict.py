"""The ReDoS verdict of one regex for one backtracking engine and one match call, with its attack.

:func:`analyse` puts the pieces together: the engine's search space (:mod:`automata.redos.space`),
the failing graph against the exact DFA of what the call matches (:mod:`automata.redos.graph`), and
its degree of ambiguity (:mod:`automata.redos.ambiguity`). The verdict names the call it assumes,
because the call decides it: ``\\s+$`` is quadratic under ``search`` and linear under
``fullmatch``. ``degree`` is the exponent of the running time on the attack (1 for linear, k for a
chain of k-1 polynomial pumps) and is ``None`` for an exponential or unknown verdict.

Lookaround bodies run as sub-matches wherever the engine reaches them; each is analysed on its own
under ``match`` and the worse verdict wins. Anything the analysis cannot read (backreferences,
possessive loops and atomic groups of more than one class) or that passes a size limit or the time
budget gives ``unknown`` with the reason, never
a wrong answer or a hang.
"""

from __future__ import annotations

import time
from typing import Literal

import attrs

from automata.algebra.ops import complement, union
from automata.building.compile import compile_many, compile_regex
from automata.building.deadline import Deadline
from automata.errors import AutomataError, StateLimitExceeded, TimeLimitExceeded
from automata.redos import ambiguity, graph, space
from regexlang.ast import Chars, Concat, Lookaround, Regex, Star, concat
from regexlang.charset import UNICODE, CharSet
from regexlang.dialects import parse
from regexlang.errors import UnsupportedFeature
from regexlang.unicode_classes import word_chars

Semantics = Literal["fullmatch", "match", "search"]
SEMANTICS: tuple[Semantics, ...] = ("fullmatch", "match", "search")
Engine = Literal["python", "pcre", "javascript"]
ENGINES: tuple[Engine, ...] = ("python", "pcre", "javascript")
Class = Literal["linear", "polynomial", "exponential", "unknown"]
_ANY = Star(Chars(UNICODE))
#: CPU seconds an analysis may take by default: enough for any regex a person writes (the benchmark's
#: slowest takes a few tens of milliseconds), short enough to answer at a prompt.
DEFAULT_SECONDS = 2.0
#: How the reason of a verdict cut by its time budget starts.
OUT_OF_TIME = "the analysis took more than its"


@attrs.frozen
class Attack:
    """``prefix``, then each (pump, infix) with the pump repeated n times, then ``suffix``."""

    prefix: str
    pumps: tuple[tuple[str, str], ...]
    suffix: str

    def text(self, n: int) -> str:
        """The attack string with every pump repeated ``n`` times."""
        middle = "".join(pump * n + infix for pump, infix in self.pumps)
        return self.prefix + middle + self.suffix


@attrs.frozen
class Verdict:
    """How a backtracking ``engine`` running ``semantics`` scales on this regex's worst input."""

    verdict: Class
    degree: int | None
    attack: Attack | None
    engine: Engine
    semantics: Semantics
    reason: str = ""

    @property
    def linear(self) -> bool:
        """Whether the engine's time is linear in the text length."""
        return self.verdict == "linear"

    def describe(self) -> str:
        """One line a user reads: the class, its degree and the call it assumes."""
        call = f"{self.engine} re.{self.semantics}" if self.engine == "python" else self.engine
        where = "" if self.engine == "python" else f" {self.semantics}"
        if self.verdict == "unknown":
            return f"ReDoS: unknown under {call}{where}: {self.reason}"
        what = f"polynomial (degree {self.degree})" if self.degree != 1 else "linear"
        what = "exponential" if self.verdict == "exponential" else what
        return f"ReDoS: {what} backtracking under {call}{where}"


def check(
    pattern: str,
    *,
    engine: Engine = "python",
    semantics: Semantics = "fullmatch",
    seconds: float | None = DEFAULT_SECONDS,
) -> Verdict:
    """The verdict of ``pattern`` (read in the python dialect) for ``engine`` and ``semantics``,
    within ``seconds`` (see :func:`analyse`).

    Raises ``RegexSyntaxError`` for text that is not a regex; a regex the analysis cannot read is
    an ``unknown`` verdict with the reason."""
    try:
        tree = parse(pattern, "python")
    except UnsupportedFeature as error:
        return Verdict("unknown", None, None, engine, semantics, str(error))
    return analyse(tree, engine=engine, semantics=semantics, seconds=seconds)


def analyse(
    regex: Regex,
    *,
    engine: Engine = "python",
    semantics: Semantics = "fullmatch",
    possessive: tuple[int, ...] = (),
    seconds: float | None = DEFAULT_SECONDS,
) -> Verdict:
    """The verdict of ``regex`` (with the top-level parts ``possessive`` names possessive, see
    :func:`automata.redos.space.build`) for ``engine`` and ``semantics``.

    The analysis stops after ``seconds`` of the calling thread's CPU time (None: no time limit),
    so a loaded machine gives the verdict a quiet one gives, or at its size limits (positions of
    the search space, nodes of the failing graph, steps of the ambiguity search, DFA states), and
    the verdict is then ``unknown`` with the limit it passed."""
    deadline = None if seconds is None else Deadline.after(seconds, on=time.thread_time)
    try:
        found = _analyse(regex, engine, semantics, possessive, deadline)
    except StateLimitExceeded as error:  # its search limits are no caller's to raise
        return Verdict("unknown", None, None, engine, semantics, error.exceeded)
    except TimeLimitExceeded as error:  # a construction given what was left names that part
        reason = f"{OUT_OF_TIME} {seconds:g} s CPU budget (in {error.what})"
        return Verdict("unknown", None, None, engine, semantics, reason)
    except (AutomataError, ValueError) as error:
        return Verdict("unknown", None, None, engine, semantics, str(error))
    return found


def _analyse(
    regex: Regex,
    engine: Engine,
    semantics: Semantics,
    possessive: tuple[int, ...],
    deadline: Deadline | None,
) -> Verdict:
    searched = concat(_ANY, regex) if semantics == "search" else regex
    shift = 1 if semantics == "search" else 0
    searched_space = space.build(
        searched, python=engine == "python", possessive=tuple(i + shift for i in possessive)
    )
    language = regex if semantics == "fullmatch" else concat(searched, _ANY)
    context = (word_chars(), CharSet.of("\n")) if searched_space.asserts else ()
    extra = (*searched_space.sets[1:], *context)
    leading = _leading_lookarounds(searched)
    if leading:
        # the engine goes no further than a leading lookaround that fails, so only texts that
        # pass them all count as failing: the others join what the automaton "accepts"
        dfa, passing = compile_many(
            [language, concat(*leading, _ANY)], UNICODE, extra_sets=extra, seconds=_left(deadline)
        )
        dfa = union(dfa, complement(passing))
    else:
        dfa = compile_regex(language, UNICODE, extra_sets=extra, seconds=_left(deadline))
    failing = graph.build(searched_space, dfa, deadline=deadline)
    found = ambiguity.analyse(failing, deadline=deadline)
    verdict = _verdict(failing, found, engine, semantics)
    for body in searched_space.lookarounds:
        inner = _analyse(body, engine, "match", (), deadline)
        if _rank(inner) > _rank(verdict):
            verdict = attrs.evolve(inner, semantics=semantics, reason="inside a lookaround")
    return verdict


def _left(deadline: Deadline | None) -> float | None:
    """The seconds left before ``deadline`` (None: no limit), for a construction's budget."""
    if deadline is None:
        return None
    left = deadline.left()
    if left <= 0:
        raise TimeLimitExceeded("the ReDoS analysis", deadline.seconds)
    return left


def _leading_lookarounds(regex: Regex) -> tuple[Regex, ...]:
    """The lookarounds the pattern starts with, before it reads anything."""
    parts = regex.parts if isinstance(regex, Concat) else (regex,)
    leading: list[Regex] = []
    for part in parts:
        if not isinstance(part, Lookaround):
            break
        leading.append(part)
    return tuple(leading)


def _rank(verdict: Verdict) -> tuple[int, int]:
    order = {"linear": 0, "polynomial": 1, "exponential": 2, "unknown": 3}
    return order[verdict.verdict], verdict.degree or 0


def _verdict(
    failing: graph.Graph, found: ambiguity.Ambiguity, engine: Engine, semantics: Semantics
) -> Verdict:
    if found.exponential is not None:
        pump = found.exponential
        attack = _attack(failing, (pump,))
        return Verdict("exponential", None, attack, engine, semantics)
    if found.chain:
        attack = _attack(failing, found.chain)
        return Verdict("polynomial", len(found.chain) + 1, attack, engine, semantics)
    return Verdict("linear", 1, None, engine, semantics)


def _attack(failing: graph.Graph, pumps: tuple[ambiguity.Pump, ...]) -> Attack:
    """Prefix to the first pump, each pump with the path from its end to the next pump's start,
    and the shortest suffix that makes the text fail."""
    prefix = failing.word(failing.path_to(pumps[0].start))
    pieces = []
    for pump, after in zip(pumps, (*pumps[1:], None), strict=True):
        infix = [] if after is None else ambiguity.path(failing, pump.end, after.start)
        pieces.append((failing.word(list(pump.word)), failing.word(infix)))
    state = failing.nodes[pumps[-1].end][1]
    return Attack(prefix, tuple(pieces), failing.word(graph.escape(failing, state)))
