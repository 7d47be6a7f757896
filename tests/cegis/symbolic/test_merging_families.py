"""The family protocol (cegis.symbolic.merging.evidence, .candidate): what a family reads from the
examples, checked against the examples themselves; every family of a learner call returns
candidates whose automaton is the language of their regex (compiled here independently) and whose
family is named; the listing family is the positives' language, checked by brute force."""

from __future__ import annotations

import itertools
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from automata import compile_regex
from automata.algebra.ops import equivalent
from cegis.symbolic.merging import gathering
from cegis.symbolic.merging.candidate import Found, spelled
from cegis.symbolic.merging.evidence import Evidence, Family
from cegis.symbolic.merging.families import listing
from oracle import ClusteredExample, Counterexample, Example
from regexlang import CharSet, parse

ABC = CharSet.of("abc")
AB = CharSet.of("ab")
STRINGS = st.lists(st.text(alphabet="abc", max_size=5), max_size=6, unique=True)


def test_the_evidence_reads_each_example_once_with_the_implied_ones_last() -> None:
    examples: list[Counterexample] = [
        Example("ab", True),
        ClusteredExample((AB, CharSet.of("c")), True, ABC),
        Example("c", False),
        ClusteredExample((AB, AB, CharSet.of("c")), False, ABC),
    ]
    evidence = Evidence.of(examples, ABC).implying([Example("cc", True), Example("", False)])
    assert evidence.positives == ["ab", "ac", "cc"]  # a clustered example by its smallest string
    assert evidence.negatives == ["c", "aac", ""]
    assert evidence.plain == (("ab",), ("c",))  # the given plain strings alone
    shown = Counter(
        p for e in examples if isinstance(e, ClusteredExample) for p in e.positions if len(p) > 1
    )
    assert evidence.shown == tuple(c for c, _ in shown.most_common()) == (AB,)
    assert set(evidence.classes) == {AB, CharSet.of("c")}


@settings(max_examples=60, derandomize=True, deadline=None)
@given(STRINGS, STRINGS)
def test_every_family_of_a_call_returns_candidates_of_their_regexes_language(
    positives: list[str], negatives: list[str]
) -> None:
    examples = [Example(p, True) for p in positives] + [
        Example(n, False) for n in negatives if n not in positives
    ]
    evidence = Evidence.of(examples, ABC)
    families: tuple[Family, ...] = (
        *gathering.TEMPLATES,
        *gathering.GIVEN,
        *gathering.SPELLED,
        listing.all_but_negatives,
    )
    for family in families:
        found = family(evidence)
        for candidate in found.candidates:
            assert candidate.regex is not None and candidate.family != "merging"
            assert equivalent(candidate.automaton, compile_regex(candidate.regex, ABC)), (
                candidate.how
            )


@settings(max_examples=60, derandomize=True, deadline=None)
@given(STRINGS)
def test_the_listing_family_is_the_language_of_the_positives(positives: list[str]) -> None:
    found = listing.positives(Evidence.of([Example(p, True) for p in positives], ABC))
    if not found.candidates:  # only past the listing's state limit
        assert positives and found.problems == ()
        return
    (candidate,) = found.candidates
    assert (
        candidate.how == listing.LISTING
        and candidate.automaton.n_states <= listing.MAX_LISTING_STATES
    )
    for word in ("".join(w) for n in range(6) for w in itertools.product("abc", repeat=n)):
        assert candidate.automaton.accepts(word) == (word in positives), word


def test_a_spelled_hypothesis_that_does_not_compile_is_a_problem_in_order() -> None:
    fine = parse("a*b", "python", ABC)
    huge = parse("[abc]*a[abc]{15}", "python", ABC)  # 2**16 states: past the check's limit
    found = spelled([(fine, "first"), (huge, "second"), (fine, "third")], ABC, "test")
    assert [c.how for c in found.candidates] == ["first", "third"] and all(
        c.family == "test" for c in found.candidates
    )
    assert len(found.problems) == 1 and found.problems[0].startswith("second: ")
    assert found + Found() == found
