"""The report's PNG figures, drawn with matplotlib when the ``plots`` extra is installed.

Each function takes the numbers the tables computed and a path, and returns the path written.
:func:`available` says whether matplotlib can be imported; without it the report keeps its tables
and says how to get the figures (``pip install -e ".[plots]"``).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any


def available() -> bool:
    """Whether matplotlib is installed."""
    return importlib.util.find_spec("matplotlib") is not None


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")  # files only, never a window
    import matplotlib.pyplot as plt

    return plt


def heatmap(grid: Sequence[Sequence[float | None]], states: Sequence[int], depths: Sequence[int], title: str, path: Path) -> Path:
    """Success rate over #States (rows) × StarDepth (columns); empty cells stay blank."""
    plt = _pyplot()
    import numpy as np

    data = np.array([[np.nan if v is None else v for v in row] for row in grid], dtype=float)
    fig, ax = plt.subplots(figsize=(1.2 + 0.9 * len(depths), 1.0 + 0.5 * len(states)))
    image = ax.imshow(data, vmin=0.0, vmax=1.0, cmap="viridis", aspect="auto")
    ax.set_xticks(range(len(depths)), [str(d) for d in depths])
    ax.set_yticks(range(len(states)), [str(s) for s in states])
    ax.set_xlabel("StarDepth")
    ax.set_ylabel("#States")
    for i, row in enumerate(grid):
        for j, value in enumerate(row):
            if value is not None:
                ax.text(j, i, f"{100 * value:.0f}", ha="center", va="center", color="white" if value < 0.6 else "black")
    fig.colorbar(image, ax=ax, label="success rate")
    ax.set_title(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def curves(
    series: Mapping[str, Sequence[float | None]], budgets: Sequence[int], ylabel: str, title: str, path: Path
) -> Path:
    """One line per series over labeled-example budgets (log-scaled x axis)."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    for label, values in series.items():
        points = [(b, v) for b, v in zip(budgets, values) if v is not None]
        if points:
            ax.plot([b for b, _ in points], [v for _, v in points], marker="o", label=label)
    ax.set_xscale("log")
    ax.set_xlabel("labeled examples (budget)")
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=9)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def pareto(points: Sequence[tuple[str, float, float, bool]], title: str, path: Path) -> Path:
    """Success against mean tokens per run; the Pareto-optimal arms joined by a line."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    for label, tokens, success, optimal in points:
        ax.scatter([tokens], [success], marker="o" if optimal else "x")
        ax.annotate(label, (tokens, success), fontsize=7, xytext=(3, 3), textcoords="offset points")
    front = sorted((t, s) for _, t, s, optimal in points if optimal)
    if len(front) > 1:
        ax.plot([t for t, _ in front], [s for _, s in front], linestyle="--", color="black", linewidth=0.8)
    ax.set_xlabel("mean tokens per run")
    ax.set_ylabel("success rate")
    ax.set_ylim(-0.02, 1.02)
    ax.set_title(title, fontsize=9)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
