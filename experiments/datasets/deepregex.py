"""Natural-language tasks for A-CEGIS: NL-RX-Turk and KB13 descriptions with their regexes, read
as Python regexes under ``re.fullmatch``.

A DeepRegex dataset folder (``nl-rx-turk/``, ``kb13/``) holds two parallel files, ``src.txt``
(descriptions) and ``targ.txt`` (regexes), with no trailing newline, so they are split on ``"\\n"``
to stay aligned. ``deepregex-split/{train,val,test}.idx`` list the line numbers (0-based) of
DeepRegex's own split. Only some of the regexes make Python targets (see the data README):

* a regex with ``&`` or ``~`` is dropped: those are intersection and complement in the data's
  dk.brics syntax but literal characters to Python;
* a target whose language is empty or universal is dropped: the teacher could only ever answer
  one way. Both are decided over :data:`LINE_UNIVERSE`, every character but the newline, because
  the descriptions speak of lines and Python's ``.`` excludes ``\\n``: over all of Unicode ``.*``
  would not be universal, over lines it is;
* an exact repeat of an earlier (description, regex) pair is dropped;
* a target whose DFA passes the state limit is dropped.

A-CEGIS (paper ``001``) evaluates 30 NL-RX-Turk tasks. :func:`load_deepregex` draws such a sample,
deterministic for its seed, from the targets that remain.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Literal

import attrs
import numpy as np

from automata import is_empty, is_universal
from automata.errors import DEFAULT_STATE_LIMIT, StateLimitExceeded
from experiments.data_dir import DEFAULT_DATA_DIR
from experiments.datasets.errors import MalformedDataset
from experiments.datasets.files import StrPath, parse_target, read_text
from experiments.datasets.task import Task, make_task
from experiments.quoting import excerpt
from regexlang import CharSet
from regexlang.charset import UNICODE

LINE_UNIVERSE = UNICODE - CharSet.of("\n")
ORIGIN = (
    "The folder is a copy of datasets/KB13/ or datasets/NL-RX-Turk/ of the GitHub repository "
    "nicholaslocascio/deep-regex (commit 096490d), with the split files the shared data README "
    "(../shared/data/README.md, section 1) describes"
)
NL_RX_TURK_DIR = DEFAULT_DATA_DIR / "nl-rx-turk"
KB13_DIR = DEFAULT_DATA_DIR / "kb13"

Split = Literal["train", "val", "test"]
DropReason = Literal[
    "& or ~", "empty language", "universal language", "repeated pair", "state limit"
]


@attrs.frozen
class PythonTargets:
    """Every usable task of a folder and how many lines were dropped for which reason."""

    tasks: tuple[Task, ...]
    dropped: tuple[tuple[DropReason, int], ...]


def python_targets(
    folder: StrPath,
    *,
    split: Split | None = None,
    state_limit: int = DEFAULT_STATE_LIMIT,
) -> PythonTargets:
    """All (description, regex) pairs of ``folder`` (or of one DeepRegex ``split``) that make Python
    targets over :data:`LINE_UNIVERSE`, in file order.

    The folder's name is the tasks' source. Raises ``DatasetNotFound`` or ``MalformedDataset``
    naming the file.
    """
    folder = Path(folder)
    descriptions = _lines(read_text(folder / "src.txt", ORIGIN))
    regexes = _lines(read_text(folder / "targ.txt", ORIGIN))
    if len(descriptions) != len(regexes):
        problem = f"{len(descriptions)} descriptions in src.txt but {len(regexes)} regexes"
        raise MalformedDataset(folder / "targ.txt", "line count", problem, ORIGIN)
    lines = range(len(regexes)) if split is None else _split_lines(folder, split, len(regexes))
    dropped: Counter[DropReason] = Counter()
    seen: set[tuple[str, str]] = set()
    tasks = []
    for line in lines:
        pair = (descriptions[line], regexes[line])
        outcome = "repeated pair" if pair in seen else _target(folder, line, *pair, state_limit)
        seen.add(pair)
        if isinstance(outcome, Task):
            tasks.append(outcome)
        else:
            dropped[outcome] += 1
    return PythonTargets(tuple(tasks), tuple(sorted(dropped.items())))


def _target(
    folder: Path, line: int, description: str, text: str, state_limit: int
) -> Task | DropReason:
    """The task of one line of ``folder``, or why it is not one."""
    if "&" in text or "~" in text:
        return "& or ~"
    tree = parse_target(text, "python", None, folder / "targ.txt", f"line {line + 1}", ORIGIN)
    name = folder.name
    try:
        task, dfa = make_task(
            f"{name}-line{line + 1}", tree, text, "python", LINE_UNIVERSE, name,
            description=description, state_limit=state_limit,
        )  # fmt: skip
    except StateLimitExceeded:
        return "state limit"
    return (
        "empty language" if is_empty(dfa) else "universal language" if is_universal(dfa) else task
    )


def _lines(text: str) -> list[str]:
    """The lines of a DeepRegex file, split on ``"\\n"`` (its files have no final newline; a copy
    that gained one must not gain an empty last record)."""
    return text.removesuffix("\n").split("\n")


def _split_lines(folder: Path, split: Split, records: int) -> list[int]:
    path = folder / "deepregex-split" / f"{split}.idx"
    lines = []
    for number, entry in enumerate(read_text(path, ORIGIN).split("\n"), 1):
        if not entry.strip():
            continue
        if not entry.strip().isdigit() or int(entry) >= records:
            raise MalformedDataset(
                path,
                f"line {number}",
                f"{excerpt(entry)} is not a line number below {records}",
                ORIGIN,
            )
        lines.append(int(entry))
    return lines


def sample_tasks(tasks: tuple[Task, ...], size: int | None, seed: int) -> tuple[Task, ...]:
    """``size`` tasks drawn without replacement, deterministic for ``seed``, in their original order
    (all of them when ``size`` is None or not smaller than the pool)."""
    if size is None or size >= len(tasks):
        return tasks
    if size < 0:
        raise ValueError(f"sample size {size} is negative")
    chosen = np.random.default_rng(seed).choice(len(tasks), size=size, replace=False)
    return tuple(tasks[i] for i in sorted(chosen))


def load_deepregex(
    folder: StrPath = NL_RX_TURK_DIR,
    *,
    size: int | None = 30,
    seed: int = 0,
    split: Split | None = None,
    state_limit: int = DEFAULT_STATE_LIMIT,
) -> tuple[Task, ...]:
    """A deterministic sample of ``size`` Python targets of ``folder`` (None: all of them); the
    default folder is NL-RX-Turk, the A-CEGIS benchmark, and ``KB13_DIR`` is the other one."""
    return sample_tasks(
        python_targets(folder, split=split, state_limit=state_limit).tasks, size, seed
    )
