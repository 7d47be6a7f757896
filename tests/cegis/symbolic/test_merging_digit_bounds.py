"""Bounded digit fields (:mod:`cegis.symbolic.merging.families.digit_bounds`): the rule is a valid
test and a valid confidence limit (checked by enumerating every tuple of leading digits), it
bounds the hours and the months and days that a few positives show bounded, and it leaves
uniform digits, unpadded numbers and single digits at their class."""

from __future__ import annotations

import itertools
import re

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from automata import compile_regex, equivalent
from automata.core.minimize import minimize
from cegis.symbolic.merging.families.digit_bounds import SIGNIFICANCE, bounded_field, value_bound
from cegis.symbolic.merging.families.run_writing import Home, counted_run
from cegis.symbolic.passive import learn_regex
from regexlang import CharSet, parse, unparse

ASCII = CharSet([(0x20, 0x7E)])


def learned(positives: list[str], negatives: list[str]) -> str:
    answer = learn_regex(positives, negatives, anchored="fullmatch", universe=ASCII)
    assert answer.consistent, answer.regex
    return answer.regex


def same_language(text: str, target: str) -> bool:
    return equivalent(
        *(minimize(compile_regex(parse(t, "python", ASCII), ASCII)) for t in (text, target))
    )


def test_the_bound_written_covers_the_true_bound_but_with_the_significance() -> None:
    # Every tuple of n two-digit values uniform over 0..B, enumerated: the bound written is below B
    # for a share of them at most the significance (for B = 99: the field is read as bounded).
    for significance in (SIGNIFICANCE, 0.1):
        for n in range(1, 4):
            for true in (9, 23, 31, 59, 99):
                tuples = list(itertools.product(range(true + 1), repeat=n))
                below = sum(value_bound(t, 2, significance) < true for t in tuples)
                assert below / len(tuples) <= significance, (
                    significance,
                    n,
                    true,
                    below,
                    len(tuples),
                )


@settings(max_examples=200, derandomize=True, deadline=None)
@given(
    st.integers(2, 3),
    st.lists(st.integers(0, 999), min_size=1, max_size=40),
    st.sampled_from([0.001, 0.01, 0.05, 0.2]),
)
def test_the_bound_is_the_confidence_limit_of_the_largest_value(
    width: int, drawn: list[int], significance: float
) -> None:
    values = [v % 10**width for v in drawn]
    bound, seen, n, top = (
        value_bound(values, width, significance),
        max(values),
        len(values),
        10**width - 1,
    )
    # The largest bound under which values uniform below it would all be at most the largest seen
    # with at least the significance, found by trying every bound.
    assert bound == max(
        b for b in range(seen, top + 1) if ((seen + 1) / (b + 1)) ** n >= significance
    )
    # Narrowed exactly when uniform values of the width would be this small with less than the significance.
    assert (bound < top) == (((seen + 1) / (top + 1)) ** n < significance)
    assert (
        value_bound([*values, seen], width, significance) <= bound
    )  # more of the same evidence never widens it


@settings(max_examples=100, derandomize=True, deadline=None)
@given(st.lists(st.text(alphabet="0123456789", min_size=2, max_size=2), min_size=1, max_size=12))
def test_a_field_run_accepts_its_values_and_bounds_only_its_leading_digit(
    values: list[str],
) -> None:
    bounded = bounded_field(values)
    pattern = unparse(
        counted_run(values, True, Home(ASCII, significance=SIGNIFICANCE)), "python", ASCII
    )
    accepted = {
        "".join(s)
        for s in itertools.product("0123456789", repeat=2)
        if re.fullmatch(pattern, "".join(s))
    }
    assert set(values) <= accepted, pattern
    top = 9 if bounded is None else int(max(bounded))
    assert accepted == {f"{a}{b}" for a in range(top + 1) for b in range(10)}, pattern
    assert bounded is None or any(v.startswith("0") for v in values)


def test_only_zero_padded_digit_fields_of_one_width_are_bounded() -> None:
    assert bounded_field(["12", "13", "04", "03", "16"]) == CharSet.range("0", "4")
    assert (
        bounded_field(["12", "13", "14", "13", "16"]) is None
    )  # no padding: a number, not a field
    assert bounded_field(["2023", "2024", "2021", "2022", "2020"]) is None  # years: no padding
    assert bounded_field(["1", "0", "1", "0", "1", "0"]) is None  # one digit shows no width
    assert bounded_field(["12", "013", "04", "03", "16"]) is None  # widths differ
    assert bounded_field(["0a", "1b", "0c", "1d", "0e"]) is None  # not digits
    assert bounded_field(["12", "13", "04", "03", "16"], significance=0.0) is None  # not asked
    assert bounded_field(["01", "02", "01"]) == CharSet.range(
        "0", "2"
    )  # two values at most 2: a limit of 29
    assert bounded_field(["01", "02", "40"]) is None  # two values at most 40 would be no rarity


def test_hours_shown_bounded_are_bounded_and_minutes_that_are_not_stay_digits() -> None:
    # The leading hour digit is at most 1 in five times: (2/10)^5 < 0.01; the minutes' is at most 4:
    # (5/10)^5 = 0.03, no evidence. The hours are written up to the confidence limit, [0-4].
    text = learned(
        ["12:35", "13:47", "04:14", "03:26", "16:16"], ["0d:54", "22:2", "01:4", "y0:48", "0Z:54"]
    )
    assert same_language(text, "[0-4][0-9]:[0-9]{2}"), text
    assert re.fullmatch(text, "23:59") and not re.fullmatch(text, "73:00")


def test_months_and_days_shown_bounded_are_bounded() -> None:
    dates = ["8792-12-23", "5207-11-31", "1546-02-22", "2711-05-05", "4468-10-01"]
    text = learned(dates, ["099008-22", "8407f-07-29", "8426-09-e7", "6666-01-#7", "9814_-03-11"])
    # Months and days share a slot (ten values at most 31): [0-5]; the year is no padded field.
    assert same_language(text, "[0-9]{4}(?:-[0-5][0-9]){2}"), text
    assert re.fullmatch(text, "1999-12-31") and not re.fullmatch(text, "1999-72-31")


def test_uniform_digits_are_not_bounded() -> None:
    rng = np.random.default_rng(3)
    for width in (2, 3, 5):
        # Draws with a leading zero shown, as a padded field of uniform digits needs to be read at all.
        values = ["0" + "".join(map(str, rng.integers(0, 10, width - 1)))]
        values += ["".join(map(str, rng.integers(0, 10, width))) for _ in range(7)]
        if bounded_field(values) is not None:  # chance, at most 1 in 100: not these draws
            raise AssertionError(values)
        text = learned(values, ["x" * width, "1" * (width + 1)])
        assert same_language(text, f"[0-9]{{{width}}}"), (values, text)
    phones = ["555-013-4477", "212-867-5309", "031-555-0199", "646-290-8812", "907-448-1203"]
    assert same_language(
        learned(phones, ["555-0134-477", "5550134477"]), "[0-9]{3}-[0-9]{3}-[0-9]{4}"
    )
