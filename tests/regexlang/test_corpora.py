"""The public corpora parse, in the dialect each is written in, at the star depth they are filed under.

The exact counts below are the current outcome (printed by ``python -m experiments.bench.corpus_stats``);
a parser change that accepts or rejects a line differently, or a star-depth convention that files
a benchmark regex elsewhere, fails here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from experiments.bench.corpus_stats import (
    Corpus,
    CorpusStats,
    Record,
    cegml_lists,
    corpus_stats,
    kb13_extrx,
    python_subset,
    report,
)
from regexlang import parse
from regexlang.ast import Assertion, AssertKind, Chars, Star, Union, concat, text
from regexlang.charset import CharSet


def _stats(corpus: Corpus) -> CorpusStats:
    stats = corpus_stats(corpus)
    assert stats.parsed + sum(count for _, count in stats.rejected) == len(corpus.records)
    return stats


def test_benchmark_lists_parse_at_their_star_depths(shared_data: Path) -> None:
    simple, extended = (_stats(corpus) for corpus in cegml_lists(shared_data))
    assert (simple.corpus.dialect, simple.parsed, simple.rejected) == ("simple", 175, ())
    assert simple.depths == ((0, 35), (1, 35), (2, 35), (3, 35), (4, 35))
    assert (extended.corpus.dialect, extended.parsed, extended.rejected) == ("extended", 60, ())
    assert extended.depths == ((0, 21), (1, 21), (2, 18))
    assert simple.mislabelled == extended.mislabelled == ()


def test_kb13_in_extended_syntax_parses_at_its_star_depths(shared_data: Path) -> None:
    stats = _stats(kb13_extrx(shared_data))
    assert (stats.parsed, stats.rejected, stats.mislabelled) == (821, (), ())
    assert stats.depths == ((0, 12), (1, 763), (2, 46))
    assert stats.corpus.records[0].text == "[A-Z]*"  # the first line after the header


@pytest.mark.parametrize(
    ("name", "records", "skipped", "depths", "with_boundaries"),
    [
        ("kb13/targ.txt", 824, 212, ((0, 12), (1, 560), (2, 40)), 283),
        ("nl-rx-turk/targ.txt", 10_000, 3948, ((0, 261), (1, 4772), (2, 1019)), 1197),
    ],
)
def test_deepregex_lines_without_boolean_operators_parse_as_python(
    shared_data: Path,
    name: str,
    records: int,
    skipped: int,
    depths: tuple[tuple[int, int], ...],
    with_boundaries: int,
) -> None:
    stats = _stats(python_subset(shared_data, name))
    assert len(stats.corpus.records) + stats.corpus.skipped == records
    assert (stats.corpus.skipped, stats.parsed, stats.rejected) == (skipped, records - skipped, ())
    assert stats.depths == depths
    assert stats.with_assertions == with_boundaries  # every assertion in the data is \b


def test_deepregex_quirks_read_as_the_data_readme_says(shared_data: Path) -> None:
    kb13 = {
        record.where: record.text for record in python_subset(shared_data, "kb13/targ.txt").records
    }
    assert kb13["line 159"] == r"once\b.*"
    boundary = Assertion(AssertKind.WORD_BOUNDARY)
    any_char = Chars(CharSet.of("\n").complement())
    assert parse(kb13["line 159"], "python") == concat(text("once"), boundary, Star(any_char))
    nl_rx = {
        record.where: record.text
        for record in python_subset(shared_data, "nl-rx-turk/targ.txt").records
    }
    assert nl_rx["line 3"] == ".*([A-Za-z])|(.).*"
    tree = parse(nl_rx["line 3"], "python")
    assert isinstance(tree, Union)  # | binds loosest: (.*[A-Za-z]) | (..*)
    assert tree.options[1] == concat(any_char, Star(any_char))


def test_report_shows_reasons_and_label_mismatches() -> None:
    records = (
        Record("1", "ab", 0),
        Record("2", ".*"),
        Record("3", "(a*)*", 1),
        Record("4", "[^a]"),
    )
    printed = report([corpus_stats(Corpus("made up", "extended", records))])
    assert printed.splitlines() == [
        "made up (extended)",
        "  records:  4",
        "  parsed:   2",
        "  rejected: 2",
        "         1  '.' is not part of the extended dialect",
        "         1  negated classes are not part of the extended dialect",
        "  star depth: 0: 1, 2: 1",
        "  star depth differs from label: 1",
        "    3: (a*)* filed under 1, computed 2",
    ]
