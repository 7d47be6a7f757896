"""Labeled strings as written down (:mod:`cegis.given`): CSV rows read back exactly as the standard
library's writer wrote them, lines split at ``\\n`` only, blank lines and contradictions refused."""

from __future__ import annotations

import csv
import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cegis.given import GivenExamplesError, examples_from_csv, labeled, strings_from_lines
from oracle import Example

ROWS = st.lists(
    st.tuples(st.text(max_size=8), st.booleans()),
    min_size=1,
    max_size=12,
    unique_by=lambda row: row[0],
)


@settings(derandomize=True, max_examples=200)
@given(ROWS)
def test_csv_rows_read_back_as_written(rows: list[tuple[str, bool]]) -> None:
    out = io.StringIO()
    csv.writer(out).writerows((string, int(label)) for string, label in rows)
    assert examples_from_csv(out.getvalue()) == tuple(
        Example(string, label) for string, label in rows
    )


def test_a_header_is_skipped_and_a_bad_row_named() -> None:
    assert examples_from_csv("string,label\nab,1\n,0\n") == (
        Example("ab", True),
        Example("", False),
    )
    with pytest.raises(GivenExamplesError, match="row 2 is not 'string,label'"):
        examples_from_csv("ab,1\nab,maybe\n")
    with pytest.raises(GivenExamplesError, match="'ab' is labeled both 1 and 0"):
        examples_from_csv("ab,1\nab,0\n")


def test_lines_end_at_newline_only_and_blank_ones_are_refused() -> None:
    assert strings_from_lines("a\r\nb\u2028c\x85d\n") == ("a", "b\u2028c\x85d")
    assert strings_from_lines("") == ()
    with pytest.raises(GivenExamplesError, match="line 3 is blank"):
        strings_from_lines("a\nb\n\n")


def test_labeled_keeps_order_drops_duplicates_and_refuses_a_clash() -> None:
    assert labeled(["b", "a", "b"], ["c"]) == (
        Example("b", True),
        Example("a", True),
        Example("c", False),
    )
    with pytest.raises(GivenExamplesError, match="'a' is labeled both"):
        labeled(["a"], ["a"])
