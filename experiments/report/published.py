"""Figures published in the papers, typed from their text, for side-by-side comparison only.

Every number of *ours* in a report is recomputed from the records; these are the papers', shown in
rows labeled as such, and only beside an arm whose LLM setting and dataset match. Sources: seed
paper ``000`` Table 1 (run-level success by StarDepth, gpt-oss-120b, 21 regexes × 3 runs per
cell), Sec. 5.6 (the multi-candidate variant at StarDepth 1–3 on Simple Regex) and Appendix E.3
(Table 6's naive and "+ output instruction" rows); A-CEGIS paper ``001`` Tables 1–2 (Gemini 3 Flash Preview,
30 NL-RX-Turk tasks).
"""

from __future__ import annotations

#: (dataset list, setting) → (where the paper printed it, success rate by StarDepth in percent).
SUCCESS_BY_STAR_DEPTH: dict[tuple[str, str], tuple[str, dict[int, float]]] = {
    ("simplyrx", "standard"): ("Table 1", {0: 100.0, 1: 50.8, 2: 23.8, 3: 27.0, 4: 3.2}),
    ("simplyrx", "single"): ("Table 1", {0: 100.0, 1: 92.1, 2: 73.0, 3: 61.9, 4: 23.8}),
    ("simplyrx", "agentic"): ("Table 1", {0: 100.0, 1: 100.0, 2: 82.5, 3: 77.8, 4: 38.1}),
    ("extrx", "standard"): ("Table 1", {0: 100.0, 1: 66.7, 2: 38.9}),
    ("extrx", "single"): ("Table 1", {0: 100.0, 1: 77.8, 2: 68.5}),
    ("extrx", "agentic"): ("Table 1", {0: 100.0, 1: 84.1, 2: 74.1}),
    ("simplyrx", "multi"): ("Sec. 5.6", {1: 81.0, 2: 61.9, 3: 61.9}),
    ("simplyrx", "prompt-naive"): ("Table 6", {1: 14.3, 2: 0.0, 3: 4.8}),
    ("simplyrx", "prompt-output"): ("Table 6", {1: 71.4, 2: 33.3, 3: 23.8}),
}

#: The datasets of the paper's tables, by the names our loaders give them.
PAPER_DATASETS = {"simplyrx": "simplyrx", "extrx": "extrx", "simple-generated": "simplyrx"}

#: A-CEGIS setting → the paper's metrics on 30 NL-RX-Turk tasks (Pass@1, Pass@final, MRR, RER, robust).
ACEGIS: dict[str, dict[str, float]] = {
    "acegis-zero-shot": {"Pass@final": 0.167},
    "acegis-generic": {"Pass@final": 0.267},
    "acegis-error-only": {"Pass@final": 0.233},
    "acegis-diagnostic": {"Pass@final": 0.900},
    "acegis-full": {
        "Pass@1": 0.167,
        "Pass@final": 1.000,
        "MRR": 0.477,
        "RER": 2.61,
        "robust": 0.767,
    },
}


def published(dataset: str, setting: str | None) -> tuple[str, dict[int, float]] | None:
    """Where the paper printed success rates for ``setting`` on ``dataset`` and the rates, if any."""
    if setting is None or dataset not in PAPER_DATASETS:
        return None
    return SUCCESS_BY_STAR_DEPTH.get((PAPER_DATASETS[dataset], setting))
