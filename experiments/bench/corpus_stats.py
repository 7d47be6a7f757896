"""How much of the public regex corpora each dialect's parser reads, and at what star depth.

The corpora and the dialect each is read in:

* ``cegml/regex_list.json``: the seed paper's benchmark targets, ``simplyrx`` in the ``simple``
  dialect and ``extrx`` in ``extended``, each regex filed under the StarDepth the paper gives it.
* ``cegml/KB13_extrx.txt``: KB13 converted to the ``extended`` dialect. A header of counts comes
  first; the regexes are the lines ``  [star_depth=d] regex`` (grouped under ``Regexes with n
  states:``), each filed under its StarDepth too.
* ``kb13/targ.txt`` and ``nl-rx-turk/targ.txt``: DeepRegex's regexes, one a line, in the ``python``
  dialect. The files have no trailing newline, so they are split on ``"\\n"``. Lines with ``&`` or
  ``~`` are skipped: there those characters mean intersection and complement (``dk.brics``
  syntax), while Python ``re`` reads them as literals, so only the other lines mean in Python what
  their authors meant. ``\\b`` is a word-boundary assertion, and ``|`` binds loosest, so
  ``.*x|y.*`` is ``(.*x)|(y.*)`` whatever its description says (see the data README).

For each corpus the statistics are the number of records, how many were skipped, parsed and
rejected (grouped by the error message, which carries no position), the star-depth histogram of
the parsed trees, how many contain a zero-width assertion, and for labelled corpora the records
whose computed star depth differs from their label. Run:

    python -m cli corpus-stats [DATA_DIR]
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

import attrs

from regexlang import Dialect, RegexError, RegexSyntaxError, parse
from regexlang.ast import Assertion, Regex, children
from regexlang.metrics import star_depth

_LABELLED_LINE = re.compile(r" {2}\[star_depth=(\d+)\] (.*)")


@attrs.frozen
class Record:
    """One regex of a corpus: where it is, its text, and the star depth it is filed under, if any."""

    where: str
    text: str
    label: int | None = None


@attrs.frozen
class Corpus:
    """The regexes of one file (or one list of a file) to be read in one dialect."""

    name: str
    dialect: Dialect
    records: tuple[Record, ...]
    skipped: int = 0


@attrs.frozen
class CorpusStats:
    """What parsing a corpus gave; ``rejected`` and ``depths`` are sorted ``(key, count)`` pairs."""

    corpus: Corpus
    parsed: int
    rejected: tuple[tuple[str, int], ...]
    depths: tuple[tuple[int, int], ...]
    with_assertions: int
    mislabelled: tuple[tuple[Record, int], ...]


def cegml_lists(data_dir: Path) -> list[Corpus]:
    """The Simple and Extended Regex benchmark lists of ``cegml/regex_list.json``."""
    lists = json.loads((data_dir / "cegml" / "regex_list.json").read_text())
    lists_and_dialects: tuple[tuple[str, Dialect], ...] = (
        ("simplyrx", "simple"),
        ("extrx", "extended"),
    )
    corpora = []
    for key, dialect in lists_and_dialects:
        records = tuple(
            Record(
                f"#States {by_states['#States']}, StarDepth {by_depth['Stardepth']}",
                text,
                by_depth["Stardepth"],
            )
            for by_states in lists[key]
            for by_depth in by_states["regex_list"]
            for text in by_depth["regex_list"]
        )
        corpora.append(Corpus(f"cegml/regex_list.json {key}", dialect, records))
    return corpora


def kb13_extrx(data_dir: Path) -> Corpus:
    """The labelled regexes of ``cegml/KB13_extrx.txt``, header skipped."""
    lines = (data_dir / "cegml" / "KB13_extrx.txt").read_text().split("\n")
    records = tuple(
        Record(f"line {number}", match[2], int(match[1]))
        for number, line in enumerate(lines, 1)
        if (match := _LABELLED_LINE.fullmatch(line))
    )
    return Corpus("cegml/KB13_extrx.txt", "extended", records)


def python_subset(data_dir: Path, name: str) -> Corpus:
    """The lines of a DeepRegex ``targ.txt`` without ``&`` or ``~``, in the python dialect."""
    lines = (data_dir / name).read_text().split("\n")
    records = tuple(
        Record(f"line {number}", line)
        for number, line in enumerate(lines, 1)
        if "&" not in line and "~" not in line
    )
    return Corpus(name, "python", records, skipped=len(lines) - len(records))


def corpora(data_dir: Path) -> list[Corpus]:
    """Every corpus, in the order they are reported."""
    return [
        *cegml_lists(data_dir),
        kb13_extrx(data_dir),
        python_subset(data_dir, "kb13/targ.txt"),
        python_subset(data_dir, "nl-rx-turk/targ.txt"),
    ]


def _has_assertion(regex: Regex) -> bool:
    return isinstance(regex, Assertion) or any(_has_assertion(child) for child in children(regex))


def _reason(error: RegexError) -> str:
    return error.message if isinstance(error, RegexSyntaxError) else str(error)


def corpus_stats(corpus: Corpus) -> CorpusStats:
    """Parse every record of ``corpus`` and tally the outcome."""
    rejected: Counter[str] = Counter()
    depths: Counter[int] = Counter()
    with_assertions = 0
    mislabelled = []
    for record in corpus.records:
        try:
            tree = parse(record.text, corpus.dialect)
        except RegexError as error:
            rejected[_reason(error)] += 1
            continue
        depth = star_depth(tree)
        depths[depth] += 1
        with_assertions += _has_assertion(tree)
        if record.label is not None and depth != record.label:
            mislabelled.append((record, depth))
    return CorpusStats(
        corpus,
        parsed=sum(depths.values()),
        rejected=tuple(sorted(rejected.items(), key=lambda item: (-item[1], item[0]))),
        depths=tuple(sorted(depths.items())),
        with_assertions=with_assertions,
        mislabelled=tuple(mislabelled),
    )


def report(stats: Iterable[CorpusStats]) -> str:
    """The statistics as indented plain text, one block per corpus."""
    blocks = []
    for s in stats:
        corpus = s.corpus
        lines = [f"{corpus.name} ({corpus.dialect})"]
        lines.append(f"  records:  {len(corpus.records) + corpus.skipped}")
        if corpus.skipped:
            lines.append(f"  skipped:  {corpus.skipped} (contain & or ~)")
        lines.append(f"  parsed:   {s.parsed}")
        lines.append(f"  rejected: {sum(count for _, count in s.rejected)}")
        lines.extend(f"    {count:6d}  {reason}" for reason, count in s.rejected)
        lines.append("  star depth: " + ", ".join(f"{depth}: {count}" for depth, count in s.depths))
        if s.with_assertions:
            lines.append(f"  with assertions (\\b, ^, $, ...): {s.with_assertions}")
        if any(record.label is not None for record in corpus.records):
            lines.append(f"  star depth differs from label: {len(s.mislabelled)}")
            lines.extend(
                f"    {r.where}: {r.text} filed under {r.label}, computed {d}"
                for r, d in s.mislabelled
            )
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)
