"""Labeled strings as a user writes them down: CSV rows, or one string per line.

The command line reads files; what their text means lives here, so a library user who holds the
same text gets the same examples. :func:`examples_from_csv` reads ``string,label`` rows (label
``1``/``0`` or ``true``/``false``, an optional ``string,label`` header, quoted commas and line
breaks kept in the string); :func:`strings_from_lines` reads one string per line, lines ending at
``\\n`` only (a ``\\r`` before it dropped), so U+2028 or ``\\x85`` stay inside a string. A blank line
is refused rather than read as the empty string: a stray blank line at a file's end or between
paragraphs is far more often a slip than a deliberate example, and the empty string has an explicit
spelling (a CSV row ``"",1``, or ``--positive ''`` on the command line). :func:`labeled` joins
positives and negatives and refuses a string given with both labels. Each failure is a
:class:`GivenExamplesError` whose message names the row or line.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable

from cegis.errors import GivenExamplesError as GivenExamplesError
from oracle.examples import Example

_LABELS = {"1": True, "0": False, "true": True, "false": False}


def examples_from_csv(text: str) -> tuple[Example, ...]:
    """The ``string,label`` rows of ``text``, in order, duplicates dropped."""
    try:
        rows = list(csv.reader(io.StringIO(text, newline="")))
    except csv.Error as error:
        raise GivenExamplesError(f"not CSV: {error}") from None
    if rows and [cell.strip().lower() for cell in rows[0]] == ["string", "label"]:
        rows = rows[1:]
    examples = []
    for number, row in enumerate(rows, start=1):
        if len(row) != 2 or row[1].strip().lower() not in _LABELS:
            raise GivenExamplesError(
                f"row {number} is not 'string,label' with label 0 or 1: {','.join(row)!r}"
            )
        examples.append(Example(row[0], _LABELS[row[1].strip().lower()]))
    if not examples:
        raise GivenExamplesError("no labeled examples")
    labeled(
        [e.string for e in examples if e.label], [e.string for e in examples if not e.label]
    )  # refuses a clash
    return tuple(dict.fromkeys(examples))


def strings_from_lines(text: str) -> tuple[str, ...]:
    """One string per line of ``text`` (a last line may lack its ``\\n``); a blank line is refused."""
    lines = text.removesuffix("\n").split("\n") if text else []
    strings = tuple(line.removesuffix("\r") for line in lines)
    blank = next((number for number, string in enumerate(strings, start=1) if not string), None)
    if blank is not None:
        raise GivenExamplesError(
            f"line {blank} is blank; the empty string is given explicitly (a CSV row \"\",1 or --positive '')"
        )
    return strings


def labeled(positives: Iterable[str], negatives: Iterable[str]) -> tuple[Example, ...]:
    """The positives then the negatives as examples, duplicates dropped; a string in both is refused."""
    wanted = dict.fromkeys(positives)
    unwanted = dict.fromkeys(negatives)
    both = [string for string in wanted if string in unwanted]
    if both:
        raise GivenExamplesError(f"{both[0]!r} is labeled both 1 and 0")
    return tuple(Example(s, True) for s in wanted) + tuple(Example(s, False) for s in unwanted)
