"""NL-RX regexes in the extended dialect over ``[A-Za-z0-9#]``: held-out targets for the loop.

The same conversion the seed paper's code applies to KB13 (``KB13_extrx.txt``): ``.`` becomes
``[A-Za-z0-9#]``, ``\\b`` is dropped, and the regex is read with the dk.brics precedence of ``&``
and ``~`` (the data README, section 1). Targets whose language is empty or every string are
dropped (1,481 and 558 of the 10,000 under this reading, by the README's count), as are those past
the state limit; a deterministic sample of the rest is returned.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from automata import is_empty, is_universal
from automata.errors import DEFAULT_STATE_LIMIT, StateLimitExceeded
from experiments.datasets.deepregex import NL_RX_TURK_DIR, ORIGIN
from experiments.datasets.files import StrPath, parse_target, read_text
from experiments.datasets.task import Task, make_task
from regexlang import universe

ANY = "[A-Za-z0-9#]"


def converted(text: str) -> str:
    """An NL-RX regex in the extended dialect (``.`` as any character of the universe, no ``\\b``)."""
    return text.replace("\\b", "").replace(".", ANY)


def load_nl_rx_extended(
    folder: StrPath = NL_RX_TURK_DIR,
    *,
    size: int | None = 40,
    seed: int = 0,
    state_limit: int = DEFAULT_STATE_LIMIT,
) -> tuple[Task, ...]:
    """``size`` distinct NL-RX targets (None: all) in the extended dialect, each neither empty nor
    universal, drawn in an order fixed by ``seed`` and returned in file order;
    ``DatasetNotFound``/``MalformedDataset`` name the file."""
    path = Path(folder) / "targ.txt"
    sigma = universe("extended")
    lines = read_text(path, ORIGIN).removesuffix("\n").split("\n")
    order = np.random.default_rng(seed).permutation(len(lines)).tolist()
    found: dict[str, tuple[int, Task]] = {}
    for index in order:
        if size is not None and len(found) >= size:
            break
        text = converted(lines[index])
        if text in found:
            continue
        tree = parse_target(text, "extended", sigma, path, f"line {index + 1}", ORIGIN)
        try:
            task, dfa = make_task(
                f"nl-rx-line{index + 1}",
                tree,
                text,
                "extended",
                sigma,
                "nl-rx",
                state_limit=state_limit,
            )
        except StateLimitExceeded:
            continue
        if not is_empty(dfa) and not is_universal(dfa):
            found[text] = (index, task)
    return tuple(task for _, task in sorted(found.values(), key=lambda pair: pair[0]))
