"""The reference engines of ``python -m cli bench automata``: pyformlang, interegular, greenery.

Each :class:`Peer` says which regexes it cannot read and how it does each timed operation (compile,
equivalence, counterexamples, counts by length), so the benchmark times every engine through one
shape. Counterexamples come in two kinds, and a peer has at most one of each: *random* ones (the
seed paper's sampler, run on pyformlang, which has none of its own) and the *shortest* ones, listed
shortest first, one string per sequence of character classes (interegular's and greenery's
``strings()``); the benchmark compares each kind only with the same kind of ours. The peers are
dev extras: :func:`load_peers` imports them only when the benchmark runs.
Regexes reach interegular and greenery in Python syntax (printed by our python dialect).
"""

from __future__ import annotations

import itertools
import random
import re
from collections import deque
from collections.abc import Callable, Iterator
from typing import Any

import attrs

from regexlang.dialects import Dialect, parse, unparse
from regexlang.errors import NotExpressible

#: Counterexamples a teacher step asks for, and the longest string it may give.
WITNESSES = 250
MAX_LEN = 32

PeerDFA = Any  # an automaton of a peer library (none of them ships types)


@attrs.frozen
class Peer:
    """One reference engine: what it cannot read, and its version of each operation (None: it
    has no counterpart). ``random`` and ``shortest`` give the counterexamples of two automata:
    strings of their symmetric difference, drawn at random or listed shortest first."""

    name: str
    unsupported: Callable[[str, Dialect], str | None]
    compile: Callable[[str, Dialect], PeerDFA]
    equivalent: Callable[[PeerDFA, PeerDFA], bool]
    random: Callable[[PeerDFA, PeerDFA], list[str]] | None
    shortest: Callable[[PeerDFA, PeerDFA], list[str]] | None
    counts: Callable[[PeerDFA, int], list[int]] | None


def load_peers() -> list[Peer]:
    """The peers, imported now: they are dev extras, needed only while the benchmark runs."""
    import greenery  # type: ignore[import-untyped]
    import interegular
    from pyformlang.regular_expression import PythonRegex, Regex

    def py_compile(text: str, dialect: Dialect) -> PeerDFA:
        regex = Regex(text) if dialect == "simple" else PythonRegex(text)
        return regex.to_epsilon_nfa().to_deterministic().minimize()

    def py_counterexamples(a: PeerDFA, b: PeerDFA) -> list[str]:
        rng, half = random.Random(0), WITNESSES // 2
        return _py_witnesses(a.get_difference(b).minimize(), half, rng) + _py_witnesses(
            b.get_difference(a).minimize(), WITNESSES - half, rng
        )

    return [
        Peer(
            "pyformlang",
            _pyformlang_unsupported,
            py_compile,
            lambda a, b: bool(a.is_equivalent_to(b)),
            py_counterexamples,
            None,
            _py_counts,
        ),
        _fsm_peer(
            "interegular",
            lambda text: interegular.parse_pattern(text).to_fsm(),
            lambda fsm: fsm.strings(),
        ),
        _fsm_peer(
            "greenery", lambda text: greenery.parse(text).to_fsm(), lambda fsm: fsm.strings([])
        ),
    ]


def _fsm_peer(
    name: str, to_fsm: Callable[[str], PeerDFA], strings: Callable[[PeerDFA], Iterator[Any]]
) -> Peer:
    """A peer with an ``FSM`` in greenery's shape (interegular's and greenery's own): it reads the
    Python ``re`` spelling, minimizes with ``reduce()`` and lists ``strings()`` shortest first (one
    string per sequence of character classes, each class a list of its characters)."""
    return Peer(
        name,
        _re_unsupported,
        lambda text, dialect: to_fsm(_re_spelling(text, dialect)).reduce(),
        lambda a, b: bool(a.equivalent(b)),
        None,
        lambda a, b: [
            "".join(map(_first, s))
            for s in itertools.islice(strings(a.symmetric_difference(b)), WITNESSES)
        ],
        None,
    )


def _first(symbols: Any) -> str:
    """One character of a class as ``strings()`` yields it (a set of characters, or greenery's
    ``Charclass``, or the "anything else" marker), as a string: its smallest, like ours."""
    return str(min(symbols, key=str)) if isinstance(symbols, (set, frozenset)) else str(symbols)


_OPEN_COUNT = re.compile(r"\{\d+,\}")


def _pyformlang_unsupported(text: str, dialect: Dialect) -> str | None:
    """Why pyformlang cannot run ``text``: ``PythonRegex`` reads ``&``, ``~`` and ``{n,}`` as literals."""
    if dialect == "extended" and ("&" in text or "~" in text):
        return "uses & or ~"
    return "uses {n,}" if _OPEN_COUNT.search(text) else None


def _re_spelling(text: str, dialect: Dialect) -> str:
    return unparse(parse(text, dialect), "python")


def _re_unsupported(text: str, dialect: Dialect) -> str | None:
    try:
        _re_spelling(text, dialect)
    except NotExpressible:
        return "uses & or ~"
    return None


def _py_counts(dfa: PeerDFA, max_len: int) -> list[int]:
    if dfa.start_state is None:
        return [0] * (max_len + 1)
    table = dfa.to_dict()
    finals = dfa.final_states
    current = {dfa.start_state: 1}
    counts = []
    for _ in range(max_len + 1):
        counts.append(sum(n for state, n in current.items() if state in finals))
        following: dict[Any, int] = {}
        for state, n in current.items():
            for target in table.get(state, {}).values():
                following[target] = following.get(target, 0) + n
        current = following
    return counts


def _py_strings_to(dfa: PeerDFA, targets: set[Any], rng: random.Random) -> str | None:
    """The seed paper's sampler: breadth-first over (state, depth) from the start, then a random
    one of the strings that reached ``targets``."""
    table = dfa.to_dict()
    found = []
    queue = deque([(dfa.start_state, "")])
    visited = {(dfa.start_state, 0)}
    while queue:
        state, path = queue.popleft()
        if state in targets:
            found.append(path)
        if len(path) >= MAX_LEN:
            continue
        for symbol, target in table.get(state, {}).items():
            if (target, len(path) + 1) not in visited:
                visited.add((target, len(path) + 1))
                queue.append((target, path + str(symbol)))
    return rng.choice(found) if found else None


def _py_witnesses(dfa: PeerDFA, k: int, rng: random.Random) -> list[str]:
    """The seed paper's ``k_witnesses_sample``: round-robin over accepting states, 16 tries each."""
    finals = list(dfa.final_states)
    if not finals or dfa.start_state is None:
        return []
    rng.shuffle(finals)
    out: list[str] = []
    seen: set[str] = set()
    for target in [finals[i % len(finals)] for i in range(k)]:
        for _ in range(16):
            string = _py_strings_to(dfa, {target}, rng)
            if string is None:
                break
            if string not in seen:
                seen.add(string)
                out.append(string)
                break
    return out


def peer_teacher_step(
    peer: Peer,
    witnesses: Callable[[PeerDFA, PeerDFA], list[str]],
    target: PeerDFA,
    hypothesis: str,
    dialect: Dialect,
) -> list[str]:
    """Compile the hypothesis, decide equivalence, answer with ``witnesses`` (``peer.random`` or
    ``peer.shortest``)."""
    guess = peer.compile(hypothesis, dialect)
    return [] if peer.equivalent(target, guess) else witnesses(target, guess)
