"""Loaders for the seed paper's own target lists (``cegml/`` of the shared data).

* ``regex_list.json`` holds the Simple and Extended Regex benchmarks, ``{"simplyrx": [...],
  "extrx": [...]}``, each a list of ``{"#States": n, "regex_list": [{"Stardepth": d, "regex_list":
  [regex, ...]}]}``. Simple targets are in the ``simple`` dialect, extended ones in ``extended``.
  The paper's runs use the first three regexes of each cell (105 simple, 60 extended targets), so
  that is the default of ``per_cell``.
* ``KB13_extrx.txt`` is all of KB13 converted to the extended dialect: a header of counts, then
  after the line ``Detailed regex list:`` groups headed ``Regexes with n states:`` of lines
  ``  [star_depth=d] regex``. It is the pool the Extended Regex benchmark was chosen from.

The cell each file files a target under is kept as ``Task.listed``; ``Task.metrics`` is recomputed.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Literal

from experiments.data_dir import DEFAULT_DATA_DIR
from experiments.datasets.errors import MalformedDataset
from experiments.datasets.files import StrPath, parse_target, read_text
from experiments.datasets.task import Metrics, Task, make_task, own_letters
from experiments.quoting import excerpt
from regexlang import CharSet, Dialect, universe

PaperList = Literal["simplyrx", "extrx"]

DIALECTS: dict[PaperList, Dialect] = {"simplyrx": "simple", "extrx": "extended"}
ORIGIN = (
    "The file comes from datasets/scaleup/ of the GitHub repository Lhtie/CEGML (commit 0e3a8ea); "
    "the shared data README (../shared/data/README.md, section 4) describes it"
)

_GROUP_HEADER = re.compile(r"Regexes with (\d+) states:")
_LABELLED_LINE = re.compile(r" {2}\[star_depth=(\d+)\] (.+)")
_DETAILS_MARKER = "Detailed regex list:"


def load_paper_list(
    name: PaperList,
    path: StrPath = DEFAULT_DATA_DIR / "cegml" / "regex_list.json",
    *,
    per_cell: int | None = 3,
    alphabet: CharSet | None = None,
) -> tuple[Task, ...]:
    """The ``name`` list of ``regex_list.json``, the first ``per_cell`` of each cell (None: all).

    ``alphabet`` None gives simple targets their own letters (as the paper's code) and extended
    targets ``[A-Za-z0-9#]``. Raises ``DatasetNotFound`` or ``MalformedDataset`` naming ``path``.
    """
    if name not in DIALECTS:
        raise ValueError(f"unknown list {name!r}; expected one of {', '.join(DIALECTS)}")
    path = Path(path)
    dialect = DIALECTS[name]
    try:
        document = json.loads(read_text(path, ORIGIN))
    except json.JSONDecodeError as error:
        raise MalformedDataset(
            path, f"line {error.lineno}", f"not JSON: {error.msg}", ORIGIN
        ) from None
    tasks = []
    for where, listed, index, text in _entries(document, name, path):
        if per_cell is not None and index >= per_cell:
            continue
        tree = parse_target(text, dialect, None, path, where, ORIGIN)
        sigma = (
            alphabet
            if alphabet is not None
            else own_letters(tree)
            if dialect == "simple"
            else universe(dialect)
        )
        task_id = f"{name}-s{listed.states}-d{listed.star_depth}-{index}"
        tasks.append(make_task(task_id, tree, text, dialect, sigma, name, listed=listed)[0])
    return tuple(tasks)


def _entries(document: object, name: str, path: Path) -> list[tuple[str, Metrics, int, str]]:
    """``(where, listed cell, index in cell, regex)`` for every regex of list ``name``, checked."""

    def expect(value: object, kind: type, where: str) -> None:
        if not isinstance(value, kind) or isinstance(value, bool):
            raise MalformedDataset(
                path, where, f"expected a JSON {kind.__name__}, got {value!r:.60}", ORIGIN
            )

    expect(document, dict, "top level")
    assert isinstance(document, dict)
    if name not in document:
        raise MalformedDataset(
            path, "top level", f"no {name!r} key (keys: {', '.join(map(str, document))})", ORIGIN
        )
    rows = document[name]
    expect(rows, list, name)
    entries = []
    for i, row in enumerate(rows):
        expect(row, dict, f"{name}[{i}]")
        expect(row.get("#States"), int, f"{name}[{i}].#States")
        expect(row.get("regex_list"), list, f"{name}[{i}].regex_list")
        for j, cell in enumerate(row["regex_list"]):
            where = f"{name}[{i}].regex_list[{j}]"
            expect(cell, dict, where)
            expect(cell.get("Stardepth"), int, f"{where}.Stardepth")
            expect(cell.get("regex_list"), list, f"{where}.regex_list")
            listed = Metrics(row["#States"], cell["Stardepth"])
            for k, text in enumerate(cell["regex_list"]):
                expect(text, str, f"{where}.regex_list[{k}]")
                entries.append((f"{where}.regex_list[{k}]", listed, k, text))
    return entries


def load_kb13_extrx(
    path: StrPath = DEFAULT_DATA_DIR / "cegml" / "KB13_extrx.txt",
) -> tuple[Task, ...]:
    """Every labelled regex of ``KB13_extrx.txt``, in file order, over ``[A-Za-z0-9#]``.

    Raises ``DatasetNotFound`` or ``MalformedDataset`` naming ``path``.
    """
    path = Path(path)
    lines = read_text(path, ORIGIN).split("\n")
    try:
        start = lines.index(_DETAILS_MARKER) + 1
    except ValueError:
        raise MalformedDataset(
            path, "header", f"no line {_DETAILS_MARKER!r} before the regexes", ORIGIN
        ) from None
    sigma = universe("extended")
    states: int | None = None
    tasks = []
    for number, line in enumerate(lines[start:], start + 1):
        where = f"line {number}"
        if header := _GROUP_HEADER.fullmatch(line):
            states = int(header[1])
        elif labelled := _LABELLED_LINE.fullmatch(line):
            if states is None:
                raise MalformedDataset(
                    path, where, "a regex before any 'Regexes with n states:' line", ORIGIN
                )
            text = labelled[2]
            tree = parse_target(text, "extended", sigma, path, where, ORIGIN)
            listed = Metrics(states, int(labelled[1]))
            tasks.append(
                make_task(
                    f"kb13-extrx-line{number}",
                    tree,
                    text,
                    "extended",
                    sigma,
                    "kb13-extrx",
                    listed=listed,
                )[0]
            )
        elif line.strip():
            raise MalformedDataset(
                path, where, f"expected '  [star_depth=d] regex', got {excerpt(line)}", ORIGIN
            )
    if not tasks:
        raise MalformedDataset(path, _DETAILS_MARKER, "no regexes listed", ORIGIN)
    return tuple(tasks)
