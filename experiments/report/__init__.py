"""Reports of experiment runs: Markdown tables and SVG figures recomputed from the JSON Lines."""

from experiments.report.write import write_report

__all__ = ["write_report"]
