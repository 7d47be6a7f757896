"""ReDoS: how a backtracking engine's running time grows on a regex's worst input, the attack that
shows it, and the equivalent forms that do not backtrack.

A backtracking matcher (Python ``re``, PCRE, JavaScript) that fails to match walks every path of
the pattern's automaton that reads a prefix of the text, so its time is the pattern's degree of
ambiguity on failing texts: bounded (linear time), polynomial of degree k, or exponential. The
room holds one idea per module, in the order they run: the engine's search space with its route
multiplicities (:mod:`~automata.redos.space`), the part of it where the text can still fail
(:mod:`~automata.redos.graph`), the EDA/IDA criteria on it (:mod:`~automata.redos.ambiguity`), the
verdict and its attack string (:mod:`~automata.redos.verdict`).
"""

from automata.redos.verdict import (
    ENGINES,
    SEMANTICS,
    Attack,
    Engine,
    Semantics,
    Verdict,
    analyse,
    check,
)

__all__ = ["ENGINES", "SEMANTICS", "Attack", "Engine", "Semantics", "Verdict", "analyse", "check"]
