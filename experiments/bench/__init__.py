"""Benchmarks: scripts that print our numbers beside a reference's, as ratios (``python -m cli bench``).
Apart from the experiment runner; nothing outside this package imports it."""
