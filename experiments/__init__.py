"""Datasets, experiment runs, metrics, benchmarks and reports (JSON Lines plus tables and plots)."""
