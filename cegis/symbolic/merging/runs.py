"""Long runs in the positives' own automaton, read as repetitions: ``X{0,27}[0-9]{3,4}`` → ``X*[0-9]{3,4}``.

The language of the positives is the hypothesis that generalizes nothing. When its positives show a
run of one class at every length up to a long one (``X``, ``XX``, … 27 ``X`` before the digits),
its automaton holds a chain of states that read that class into the next and are otherwise alike.
Merging alone does not find the loop when the negatives are few and far from the positives (random
strings), and a teacher answering with loop-free paths then shows one more ``X`` an epoch, so the
listing's bound creeps up for ever. Looping such a chain at its first state is the generalization a
person makes; a negative the loop accepts refutes it like any other candidate.
"""

from __future__ import annotations

from automata.dfa import DFA
from automata.minimize import minimize
from automata.ops import dead_state

#: Most alike states of a chain still read as a count; a longer chain reads as a repetition.
#: Counted repetitions in the benchmark targets bound a run at four (``[A-Z]{2,4}``, ``[a-z]{1,4}``),
#: whose chains have at most five alike states (``{0,4}``: after none to four letters).
LONGEST_COUNT = 5


def looped_runs(dfa: DFA) -> list[tuple[DFA, str]]:
    """``dfa`` (minimal) with each chain of more than :data:`LONGEST_COUNT` alike states looped at
    its first state, one chain at a time and, when there are several, all at once; minimal,
    distinct, each with what was looped."""
    rows = dfa.transitions.tolist()
    accepting = dfa.accepting.tolist()
    dead = dead_state(dfa)
    chains = [chain for chain in _chains(rows, accepting, dead) if len(chain[1]) > LONGEST_COUNT]
    found: dict[bytes, tuple[DFA, str]] = {}
    for looped in [[chain] for chain in chains] + ([chains] if len(chains) > 1 else []):
        transitions = dfa.transitions.copy()
        for symbol, states in looped:
            transitions[states[0], symbol] = states[0]
        result = minimize(DFA(transitions, dfa.accepting, dfa.start, dfa.alphabet))
        named = " and ".join(f"{len(states)}" for _, states in looped)
        found.setdefault(result.transitions.tobytes() + result.accepting.tobytes(), (result, f"runs of {named} states looped"))
    return list(found.values())


def _chains(rows: list[list[int]], accepting: list[bool], dead: int | None) -> list[tuple[int, list[int]]]:
    """The maximal chains: per class, states each reading it into the next (never the dead state)
    and otherwise alike (the same acceptance and the same successor on every other class)."""
    chains = []
    for symbol in range(len(rows[0]) if rows else 0):
        following = {s: row[symbol] for s, row in enumerate(rows) if row[symbol] not in (s, dead) and _alike(rows, accepting, s, row[symbol], symbol)}
        inner = set(following.values())
        for first in (s for s in following if s not in inner):  # chains start where none leads in
            states = [first]
            while states[-1] in following and following[states[-1]] not in states:
                states.append(following[states[-1]])
            chains.append((symbol, states))
    return chains


def _alike(rows: list[list[int]], accepting: list[bool], a: int, b: int, symbol: int) -> bool:
    return accepting[a] == accepting[b] and all(x == y for k, (x, y) in enumerate(zip(rows[a], rows[b])) if k != symbol)

