"""Class-and-count shapes (:mod:`cegis.symbolic.merging.families.shapes`): from six positives, the learner
answers with a pattern of the prior wherever one is consistent, not with the positives listed, and
keeps a shared prefix or reads the whole string as one run only where the negatives ask for it."""

from __future__ import annotations

import re

from cegis.generalization import generalizes
from cegis.symbolic.merging.core.run_cache import RunCache
from cegis.symbolic.merging.evidence import Evidence
from cegis.symbolic.merging.families import shapes
from cegis.symbolic.merging.families.shapes import shape_hypotheses
from cegis.symbolic.passive import learn_regex
from oracle.examples import Example
from regexlang import CharSet, unparse

ASCII = CharSet([(0x20, 0x7E)])


def answer(positives: list[str], negatives: list[str]) -> str:
    learned = learn_regex(positives, negatives, anchored="fullmatch", universe=ASCII)
    assert learned.consistent
    assert generalizes(learned.tree, positives, ASCII), f"{learned.regex} lists the positives"
    return learned.regex


def test_letters_and_digits_read_as_runs_of_each_not_listed() -> None:
    # Upper and lower case mixed within the last run: the class cut gives three skeletons.
    positives = ["KD318q", "KD318X", "PW574mRT", "PW574mzb", "BN602Cd", "PW574mzE"]
    negatives = ["BTR318QXN", "EM5Bsr", "KT78MTnf", "TZ17", "SNU52Uq", "BTR318Qm"]
    text = answer(positives, negatives)
    assert re.fullmatch(text, "AB123cD")


def test_a_prefix_every_positive_shares_is_kept_where_negatives_ask() -> None:
    positives = ["qFbyB", "qWXaSCr", "qZoLgub", "qbPIa", "qRnBUb", "qoWCFJo"]
    negatives = ["q6oLgub", "RnBUb", "qWXaSLCr", "qFby", "qZo_Lgub", "9qbPIa"]
    text = answer(positives, negatives)
    assert text.startswith("q") and re.fullmatch(text, "qAbCd")


def test_positives_alike_but_in_one_letter_are_a_class_not_listed() -> None:
    # Describing the five positives by listing them is shorter, but [A-Z]{3} (or [A-Z]UP) is consistent.
    text = answer(["LUP", "RUP", "SUP", "PUP", "HUP"], ["PU-", "_RUP", "HUv", "L-UP", "UP", "PU"])
    assert re.fullmatch(text, "KUP")


def test_a_shared_prefix_is_not_kept_where_a_pattern_without_it_is_consistent() -> None:
    stamps = [
        "2023-04-01 12:00:05",
        "2024-11-30 08:15:59",
        "2021-01-15 23:59:00",
        "2022-07-04 00:00:01",
    ]
    texts = {
        unparse(t.regex, "python", ASCII)
        for t in shape_hypotheses(stamps, ["2023-04-01 12:00", "2023-4-01 12:00:05"], ASCII)
    }
    assert texts and not any(t.startswith("20") for t in texts)
    zips = ["12345", "90210-1234", "33139", "60614-0001", "02134"]
    texts = {
        unparse(t.regex, "python", ASCII)
        for t in shape_hypotheses(zips, ["1234", "123456", "12345-12"], ASCII)
    }
    assert "[0-9]{5}(?:-[0-9]{4})?" in texts and not any(
        t.startswith("[\\-0-9]") or t.startswith("[-0-9]") for t in texts
    )


def test_the_patterns_of_the_prior_are_marked_and_are_the_narrowest_writings() -> None:
    # Written by hand: each run's class counted from its shortest value to its longest, the word
    # cut reading a whole positive as one run (3 to 6 characters), the class cut as letters then digits.
    positives = ["ab12", "cde345", "fg6", "hij78"]
    found = shapes.candidates(Evidence.of([Example(p, True) for p in positives], ASCII, RunCache()))
    marked = {
        unparse(c.regex, "python", ASCII)
        for c in found.candidates
        if c.prior_pattern and c.regex is not None
    }
    assert marked == {"[a-z0-9]{3,6}", "[a-z]{2,3}[0-9]{1,3}"}
    assert {
        unparse(c.regex, "python", ASCII)
        for c in found.candidates
        if not c.prior_pattern and c.regex is not None
    } >= {"[a-z]+[0-9]+"}
