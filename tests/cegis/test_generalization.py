"""An answer generalizes when it accepts a string no positive is: checked against brute-force
enumeration of short strings."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from automata import accepts_many, compile_regex
from automata.core.minimize import minimize
from cegis.generalization import generalizes
from regexlang import CharSet, parse
from regexlang.ast import Regex
from tests.automata.reference import regexes

AB = CharSet.of("ab")


def test_the_positives_listed_do_not_generalize() -> None:
    positives = ["0b0", "0b1", "0b101"]
    ascii_ = CharSet([(0x20, 0x7E)])
    assert not generalizes(parse("0b(?:0|1|101)", "python", ascii_), positives, ascii_)
    assert not generalizes(
        parse("0b(?:0|1)", "python", ascii_), positives, ascii_
    )  # a part of them
    assert generalizes(parse("0b[01]+", "python", ascii_), positives, ascii_)


@settings(max_examples=150, derandomize=True, deadline=None)
@given(regexes("ab", max_leaves=6, counted=False), st.lists(st.text("ab", max_size=4), max_size=5))
def test_generalizes_agrees_with_enumeration(regex: Regex, positives: list[str]) -> None:
    dfa = minimize(compile_regex(regex, AB))
    # A DFA that accepts a string outside a finite set accepts one no longer than the set's
    # longest string plus its number of states.
    bound = max(map(len, positives), default=0) + dfa.n_states
    strings = ["".join(p) for n in range(bound + 1) for p in itertools.product("ab", repeat=n)]
    accepted = accepts_many(dfa, strings)
    expected = any(a and s not in positives for s, a in zip(strings, accepted))
    assert generalizes(regex, positives, AB) == expected
