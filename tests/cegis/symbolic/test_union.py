"""Union of positives: consistent with every consistent example set, a typed failure otherwise."""

from __future__ import annotations

import asyncio
import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from automata.building.compile import compile_regex
from cegis.learner import LearnerContext
from cegis.symbolic.union import UnionLearner
from oracle import ClusteredExample, Counterexample, Example, satisfies
from regexlang import CharSet, parse

UNIVERSE = CharSet.of("abc")
plain = st.builds(Example, st.text("abc", max_size=4), st.booleans())
position = st.sets(st.sampled_from("abc"), min_size=1).map(CharSet.of)
clustered = st.builds(
    ClusteredExample, st.lists(position, max_size=3).map(tuple), st.booleans(), st.just(UNIVERSE)
)
example_sets = st.lists(st.one_of(plain, clustered), max_size=12).map(tuple)


def strings(example: Counterexample) -> set[str]:
    """Every string an example stands for, by brute-force expansion."""
    if isinstance(example, Example):
        return {example.string}
    return {"".join(chars) for chars in itertools.product(*(list(p) for p in example.positions))}


def propose(examples: tuple[Counterexample, ...], dialect: str = "simple"):  # type: ignore[no-untyped-def]
    context = LearnerContext(dialect, UNIVERSE, examples)  # type: ignore[arg-type]
    return asyncio.run(UnionLearner().propose(context))


@settings(max_examples=300)
@given(example_sets, st.sampled_from(["simple", "extended", "python"]))
def test_union_is_consistent_or_names_a_real_contradiction(
    examples: tuple[Counterexample, ...], dialect: str
) -> None:
    positive = set().union(*(strings(e) for e in examples if e.label))
    negative = set().union(*(strings(e) for e in examples if not e.label))
    proposal = propose(examples, dialect)
    if positive & negative:
        assert proposal.failure is not None and proposal.failure.kind == "inconsistent"
        return
    assert proposal.regex is not None and proposal.failure is None
    dfa = compile_regex(proposal.regex, UNIVERSE)
    assert all(satisfies(dfa, e) for e in examples)
    printed = (
        compile_regex(parse(proposal.text, dialect, UNIVERSE), UNIVERSE)  # type: ignore[arg-type]
        if proposal.text != "∅"
        else None
    )
    for n in range(5):
        for chars in itertools.product("abc", repeat=n):
            string = "".join(chars)
            assert dfa.accepts(string) == (string in positive)
            assert printed is None or printed.accepts(string) == (string in positive)


def test_no_positive_is_the_empty_language() -> None:
    proposal = propose((Example("a", False),))
    assert proposal.text == "∅" and proposal.regex is not None
