"""The yardstick of ``bench examples``' "fits" column: whether some class-and-count pattern of the
prior is consistent with the examples. Checked against a brute-force enumeration of the family
(every kind holding a run's values, counts around the lengths shown), and used to check that the
learner never answers with the positives listed while such a pattern exists."""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cegis.generalization import generalizes
from cegis.symbolic.passive import learn_regex
from experiments.bench.prior_patterns import (
    AFFIXES,
    CUTS,
    KINDS,
    _affixes,
    _skeleton,
    consistent_pattern,
)
from regexlang import CharSet

ASCII = CharSet([(0x20, 0x7E)])
_CLASS = {
    "digits": "[0-9]",
    "lower": "[a-z]",
    "upper": "[A-Z]",
    "letters": "[A-Za-z]",
    "word": "[A-Za-z0-9_]",
    "any": "(?s:.)",
}


def test_a_pattern_is_found_where_a_person_reads_one() -> None:
    positives = ["GC271w", "GC271Z", "IA420lSU", "IA420lqf", "HA992Mb", "IA420lqW"]
    negatives = ["BTU489RNX", "EM5Bsr", "KT78MTnf", "TZ17", "SNU52Uq"]
    pattern = consistent_pattern(positives, negatives)
    assert pattern is not None
    assert all(re.fullmatch(pattern, p) for p in positives) and not any(
        re.fullmatch(pattern, n) for n in negatives
    )
    assert re.fullmatch(pattern, "QQ123abc")  # it generalizes
    assert (
        consistent_pattern(["qFbyB", "qWXaSCr", "qZoLgub"], ["RnBUb", "qFby", "9qbPIa"])
        == "q[A-Za-z]{4,6}"
    )


def test_no_pattern_where_every_one_takes_in_a_negative_or_lists_the_positives() -> None:
    assert consistent_pattern(["ryDN", "ws#", "ryD-", "uwJH-"], ["VCV&", "hbMon-", "rcWA$"]) is None
    assert consistent_pattern(["abc"], []) is None  # one positive: every run is its value
    assert consistent_pattern([str(d) for d in range(10)], ["a"]) is None  # [0-9] is the ten listed


def _members(positives: Sequence[str], longest: int) -> list[str]:
    """Every pattern of the family, enumerated: per cut and affix, each run as its value when
    constant, else as any kind holding its values counted from at most its shortest to at least its
    longest (up to ``longest``), or without bound."""
    out = []
    for affix, cut in itertools.product(AFFIXES, CUTS.values()):
        prefix, suffix = _affixes(positives, affix)
        cuts = [_skeleton(p[len(prefix) : len(p) - len(suffix)], cut) for p in positives]
        if len({skeleton for skeleton, _ in cuts}) != 1:
            continue
        runs = list(zip(*(r for _, r in cuts))) if cuts[0][1] else []
        options = []
        for values in runs:
            chars = set("".join(values))
            low, high = min(map(len, values)), max(map(len, values))
            counts = [f"{{{a},{b}}}" for a in range(low + 1) for b in range(high, longest + 1)] + [
                f"{{{a},}}" for a in range(low + 1)
            ]
            kinds = [
                _CLASS[name] for name, members in KINDS if not members or chars <= set(members)
            ]
            options.append(
                [re.escape(values[0])]
                if len(set(values)) == 1
                else [k + c for k in kinds for c in counts]
            )
        for choice in itertools.product(*options):
            written = iter(choice)
            body = "".join(
                next(written) if part == "run" else re.escape(value) for part, value in cuts[0][0]
            )
            out.append(re.escape(prefix) + body + re.escape(suffix))
    return out


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    st.lists(st.text(alphabet="aB1-", min_size=1, max_size=4), min_size=2, max_size=6, unique=True)
)
def test_the_narrowest_pattern_decides_for_the_whole_family(strings: list[str]) -> None:
    positives, negatives = strings[: (len(strings) + 1) // 2], strings[(len(strings) + 1) // 2 :]
    universe = "".join(map(chr, range(0x20, 0x7F)))
    probes = ["".join(p) for n in range(6) for p in itertools.product("aB1-_ z", repeat=n)] + [
        universe
    ]

    def fits(pattern: str) -> bool:
        compiled = re.compile(pattern)
        new = any(compiled.fullmatch(s) for s in probes if s not in positives)
        return new and not any(compiled.fullmatch(n) for n in negatives)

    assert (consistent_pattern(positives, negatives) is not None) == any(
        map(fits, _members(positives, 6))
    )


_PARTS = {"d": "0123456789", "l": "abcdefghijklmnopqrstuvwxyz", "u": "ABCDEFGHIJKLMNOPQRSTUVWXYZ"}


@st.composite
def _task(draw: st.DrawFn) -> tuple[list[str], list[str]]:
    """Six positives of a random class-and-count target (a literal, runs of digits, lower, upper
    or mixed letters, separators) and up to six negatives one edit away from them."""
    kinds = draw(
        st.lists(st.sampled_from(["d", "l", "u", "lu", "-", "#", "x7"]), min_size=1, max_size=4)
    )
    bounds = [draw(st.tuples(st.integers(1, 3), st.integers(0, 3))) for _ in kinds]
    positives: list[str] = []
    for _ in range(6):
        parts = []
        for kind, (low, extra) in zip(kinds, bounds):
            if kind in ("-", "#", "x7"):
                parts.append(kind)
            else:
                chars = "".join(_PARTS[k] for k in kind)
                parts.append(
                    "".join(
                        draw(st.sampled_from(chars))
                        for _ in range(draw(st.integers(low, low + extra)))
                    )
                )
        positives.append("".join(parts))
    positives = list(dict.fromkeys(positives))
    negatives = []
    for _ in range(6):
        base = draw(st.sampled_from(positives))
        at = draw(st.integers(0, len(base)))
        edit = draw(st.sampled_from(["insert", "delete", "replace"]))
        char = draw(st.sampled_from("aZ5-#_"))
        negative = (
            base[:at] + char + base[at:]
            if edit == "insert"
            else base[:at] + ("" if edit == "delete" else char) + base[at + 1 :]
        )
        if negative and negative not in positives:
            negatives.append(negative)
    return positives, list(dict.fromkeys(negatives))


@pytest.mark.slow  # thirty learner calls, two seconds each
@settings(max_examples=30, deadline=None, derandomize=True)
@given(_task())
def test_the_learner_lists_its_positives_only_where_no_pattern_of_the_prior_is_consistent(
    task: tuple[list[str], list[str]],
) -> None:
    positives, negatives = task
    learned = learn_regex(positives, negatives, anchored="fullmatch", universe=ASCII)
    assert learned.consistent
    if consistent_pattern(positives, negatives) is not None:
        assert generalizes(learned.tree, positives, ASCII), (
            learned.regex,
            consistent_pattern(positives, negatives),
        )
