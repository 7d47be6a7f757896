"""Figures published in the seed paper, typed from its text, for side-by-side comparison only.

Every number of *ours* in a report is recomputed from the records; these are the paper's, shown in
rows labeled as such, and only beside an arm whose LLM setting matches. Source: paper ``000``,
Table 1 (run-level success by StarDepth, gpt-oss-120b, 21 regexes × 3 runs per cell) and Sec. 5.6
(the multi-candidate variant at StarDepth 1–3 on Simple Regex).
"""

from __future__ import annotations

#: (dataset list, setting) → success rate by StarDepth, in percent.
TABLE_1: dict[tuple[str, str], dict[int, float]] = {
    ("simplyrx", "standard"): {0: 100.0, 1: 50.8, 2: 23.8, 3: 27.0, 4: 3.2},
    ("simplyrx", "single"): {0: 100.0, 1: 92.1, 2: 73.0, 3: 61.9, 4: 23.8},
    ("simplyrx", "agentic"): {0: 100.0, 1: 100.0, 2: 82.5, 3: 77.8, 4: 38.1},
    ("extrx", "standard"): {0: 100.0, 1: 66.7, 2: 38.9},
    ("extrx", "single"): {0: 100.0, 1: 77.8, 2: 68.5},
    ("extrx", "agentic"): {0: 100.0, 1: 84.1, 2: 74.1},
    ("simplyrx", "multi"): {1: 81.0, 2: 61.9, 3: 61.9},
}

#: The datasets of the paper's tables, by the names our loaders give them.
PAPER_DATASETS = {"simplyrx": "simplyrx", "extrx": "extrx", "simple-generated": "simplyrx"}


def published(dataset: str, setting: str | None) -> dict[int, float] | None:
    """The paper's success rates for ``setting`` on ``dataset``, if it published any."""
    if setting is None or dataset not in PAPER_DATASETS:
        return None
    return TABLE_1.get((PAPER_DATASETS[dataset], setting))
